/**
 * Roo Code's settings export ("Export" in Roo's settings: `{ providerProfiles, globalSettings }`,
 * written by Roo-Code src/core/config/importExport.ts), or its MCP file (`mcp_settings.json` /
 * `.roo/mcp.json`: `{ mcpServers }`, the Cline shape). Brought over: the profile Roo had selected
 * (`currentApiConfigName`), the command allow and deny lists, the custom instructions, MCP servers.
 */
import { addEndpoint } from './endpoint';
import { addMcpServers, addRules, addToList, emptyPlan, ImportError, isRecord, parseJson, type ImportPlan } from './importPlan';

/** Roo's `apiProvider` -> the catalog id and the fields its profile keeps the URL, model and key in (Roo's provider-settings schema). */
const ROO_PROVIDERS: Readonly<Record<string, { id: string; baseUrl?: string; model: string; key?: string }>> = {
  openai: { id: 'openai', baseUrl: 'openAiBaseUrl', model: 'openAiModelId', key: 'openAiApiKey' },
  'openai-native': { id: 'openai', baseUrl: 'openAiNativeBaseUrl', model: 'apiModelId', key: 'openAiNativeApiKey' },
  anthropic: { id: 'anthropic', baseUrl: 'anthropicBaseUrl', model: 'apiModelId', key: 'apiKey' },
  gemini: { id: 'google', baseUrl: 'googleGeminiBaseUrl', model: 'apiModelId', key: 'geminiApiKey' },
  deepseek: { id: 'deepseek', baseUrl: 'deepSeekBaseUrl', model: 'apiModelId', key: 'deepSeekApiKey' },
  mistral: { id: 'mistral', model: 'apiModelId', key: 'mistralApiKey' },
  groq: { id: 'groq', model: 'apiModelId', key: 'groqApiKey' },
  openrouter: { id: 'openrouter', baseUrl: 'openRouterBaseUrl', model: 'openRouterModelId', key: 'openRouterApiKey' },
  xai: { id: 'xai', model: 'apiModelId', key: 'xaiApiKey' },
  ollama: { id: 'ollama', baseUrl: 'ollamaBaseUrl', model: 'ollamaModelId' },
  lmstudio: { id: 'lmstudio', baseUrl: 'lmStudioBaseUrl', model: 'lmStudioModelId' },
};

/** Profile fields that only identify the profile or are read by the mapping above; the rest are listed as not imported. */
const PROFILE_BOOKKEEPING = new Set(['id', 'apiProvider']);
const GLOBAL_HANDLED = new Set(['allowedCommands', 'deniedCommands', 'customInstructions', 'customModes']);

export function planFromRoo(file: string, text: string): ImportPlan {
  const data = parseJson(file, text);
  const plan = emptyPlan('roo', file);
  if (isRecord(data.mcpServers)) {
    addMcpServers(plan, data.mcpServers as Record<string, Record<string, unknown>>, 'mcpServers');
    return plan;
  }
  if (!isRecord(data.providerProfiles) && !isRecord(data.globalSettings))
    throw new ImportError(`${file}: not a Roo Code settings export ({ "providerProfiles", "globalSettings" }) or MCP file ({ "mcpServers" })`);

  const profiles = isRecord(data.providerProfiles) ? data.providerProfiles : {};
  const configs = isRecord(profiles.apiConfigs) ? profiles.apiConfigs : {};
  const current = typeof profiles.currentApiConfigName === 'string' ? profiles.currentApiConfigName : Object.keys(configs)[0];
  for (const [name, raw] of Object.entries(configs)) {
    const from = `providerProfiles.apiConfigs.${name}`;
    if (!isRecord(raw)) continue;
    const apiProvider = typeof raw.apiProvider === 'string' ? raw.apiProvider : 'anthropic'; // Roo's default provider
    if (name !== current) {
      plan.notImported.push({ what: `${from} (${apiProvider})`, why: `PatchPilot uses one endpoint; the selected profile "${current}" was imported` });
      continue;
    }
    const map = ROO_PROVIDERS[apiProvider];
    const str = (field: string | undefined) => (field && typeof raw[field] === 'string' ? raw[field] : undefined);
    addEndpoint(plan, {
      provider: map?.id,
      foreignProvider: apiProvider,
      baseUrl: str(map?.baseUrl),
      model: str(map?.model),
      apiKey: str(map?.key) ?? str('anthropicApiKey'),
      from,
    });
    const used = new Set([...PROFILE_BOOKKEEPING, map?.baseUrl, map?.model, map?.key, 'anthropicApiKey']);
    for (const field of Object.keys(raw).filter((f) => !used.has(f) && raw[f] !== undefined && raw[f] !== ''))
      plan.notImported.push({ what: `${from}.${field}`, why: 'no PatchPilot setting for it' });
  }

  const global = isRecord(data.globalSettings) ? data.globalSettings : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim()) : []);
  const allowed = list(global.allowedCommands);
  // Roo allows a command that starts with an entry; PatchPilot's allow rule matches the whole argv, "*" standing for the rest.
  const everything = allowed.filter((c) => c === '*');
  if (everything.length)
    plan.notImported.push({
      what: 'globalSettings.allowedCommands "*"',
      why: 'allows every command; PatchPilot keeps asking (use --approve auto for a run instead)',
    });
  addToList(
    plan,
    'patchpilot.policy.allow',
    allowed.filter((c) => c !== '*').map((c) => (c.endsWith('*') ? c : `${c} *`)),
  );
  // Deny rules match a prefix already ("git push" also denies `git push --force`).
  addToList(plan, 'patchpilot.policy.deny', list(global.deniedCommands));
  if (typeof global.customInstructions === 'string') addRules(plan, global.customInstructions, 'globalSettings.customInstructions');
  if (Array.isArray(global.customModes) && global.customModes.length)
    plan.notImported.push({
      what: `globalSettings.customModes (${global.customModes.length})`,
      why: 'PatchPilot has no custom modes; its skills (SKILL.md) are the nearest',
    });
  if (isRecord(profiles.modeApiConfigs) && Object.keys(profiles.modeApiConfigs).length)
    plan.notImported.push({ what: 'providerProfiles.modeApiConfigs', why: 'PatchPilot uses one endpoint in every mode' });
  // Roo exports every UI preference; one line names them rather than a hundred.
  const rest = Object.keys(global).filter((k) => !GLOBAL_HANDLED.has(k));
  if (rest.length)
    plan.notImported.push({
      what: `globalSettings: ${rest.length} other field${rest.length === 1 ? '' : 's'} (${rest.slice(0, 8).join(', ')}${rest.length > 8 ? ', ...' : ''})`,
      why: "Roo Code's own preferences, with no PatchPilot setting (auto-approval: PatchPilot's approval mode is chosen per run)",
    });
  return plan;
}
