/**
 * Continue's configuration: `~/.continue/config.yaml` (the current format: `models` with
 * provider/model/apiBase/apiKey/roles, `mcpServers`, `rules`; Continue's config.yaml reference) or the
 * legacy `config.json` (`models` with title/provider/model/apiBase/apiKey, `systemMessage`,
 * `experimental.modelContextProtocolServers`). The first model that chats is the endpoint; Hub blocks
 * (`uses:`) and secret references (`${{ secrets.X }}`) name things this file does not hold, so they
 * are listed as not imported.
 */
import { lazyChunk } from '../base/lazyChunks';
import { addEndpoint } from './endpoint';
import { addMcpServers, addRules, emptyPlan, ImportError, isRecord, type ImportPlan, parseJson } from './importPlan';

/** Continue's `provider` -> the catalog id (Continue's model provider pages). */
const CONTINUE_PROVIDERS: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'google',
  deepseek: 'deepseek',
  mistral: 'mistral',
  groq: 'groq',
  openrouter: 'openrouter',
  xai: 'xai',
  ollama: 'ollama',
  lmstudio: 'lmstudio',
  vllm: 'vllm',
  'llama.cpp': 'llamacpp',
  llamacpp: 'llamacpp',
};

const BOOKKEEPING = new Set(['name', 'version', 'schema', '$schema']);
const MODEL_FIELDS = new Set(['name', 'title', 'provider', 'model', 'apiBase', 'apiKey', 'roles']);

export function planFromContinue(file: string, text: string): ImportPlan {
  const legacy = /\.json$/i.test(file);
  const data = legacy ? parseJson(file, text) : parseYamlObject(file, text);
  if (!['models', 'mcpServers', 'rules', 'systemMessage', 'experimental'].some((k) => k in data))
    throw new ImportError(`${file}: not a Continue configuration (config.yaml or config.json: no models, mcpServers, rules or systemMessage)`);
  const plan = emptyPlan('continue', file);
  const handled = new Set(['models', 'mcpServers', 'rules', 'systemMessage', 'experimental', ...BOOKKEEPING]);

  const models = Array.isArray(data.models) ? data.models : [];
  let chosen = false;
  models.forEach((raw, i) => {
    const from = `models[${i}]`;
    if (!isRecord(raw)) return;
    const label = String(raw.name ?? raw.title ?? raw.uses ?? from);
    if (typeof raw.uses === 'string') {
      plan.notImported.push({ what: `${from} (uses: ${raw.uses})`, why: 'a Continue Hub block: its settings are not in this file' });
      return;
    }
    // Continue's default roles are [chat, edit, apply, summarize]; legacy `models` are chat models.
    const roles = Array.isArray(raw.roles) ? raw.roles : ['chat'];
    if (!roles.includes('chat') || chosen) {
      plan.notImported.push({
        what: `${from} "${label}" (${roles.join(', ')})`,
        why: roles.includes('chat')
          ? 'PatchPilot uses one chat model; the first one was imported'
          : 'PatchPilot has no autocomplete, embedding or rerank model',
      });
      return;
    }
    chosen = true;
    const provider = String(raw.provider ?? '');
    const model = typeof raw.model === 'string' && raw.model !== 'AUTODETECT' ? raw.model : undefined;
    addEndpoint(plan, {
      provider: CONTINUE_PROVIDERS[provider.toLowerCase()],
      foreignProvider: provider || '(none)',
      baseUrl: typeof raw.apiBase === 'string' ? raw.apiBase : undefined,
      model,
      apiKey: typeof raw.apiKey === 'string' ? raw.apiKey : undefined,
      from: `${from} "${label}"`,
    });
    for (const field of Object.keys(raw).filter((f) => !MODEL_FIELDS.has(f)))
      plan.notImported.push({ what: `${from}.${field}`, why: 'no PatchPilot setting for it' });
  });

  addContinueMcpServers(plan, data.mcpServers, 'mcpServers');
  const experimental = isRecord(data.experimental) ? data.experimental : {};
  const legacyServers = Array.isArray(experimental.modelContextProtocolServers) ? experimental.modelContextProtocolServers : [];
  addContinueMcpServers(
    plan,
    legacyServers.map((s, i) => (isRecord(s) && isRecord(s.transport) ? { name: `mcp-${i + 1}`, ...s.transport } : s)),
    'experimental.modelContextProtocolServers',
  );
  for (const key of Object.keys(experimental).filter((k) => k !== 'modelContextProtocolServers'))
    plan.notImported.push({ what: `experimental.${key}`, why: 'no PatchPilot setting for it' });

  if (typeof data.systemMessage === 'string') addRules(plan, data.systemMessage, 'systemMessage');
  const rules = Array.isArray(data.rules) ? data.rules : [];
  rules.forEach((rule, i) => {
    if (typeof rule === 'string') addRules(plan, rule, `rules[${i}]`);
    else if (isRecord(rule) && typeof rule.rule === 'string') {
      addRules(plan, typeof rule.name === 'string' ? `## ${rule.name}\n\n${rule.rule}` : rule.rule, `rules[${i}]`);
      if (rule.globs !== undefined) plan.notImported.push({ what: `rules[${i}].globs`, why: 'PatchPilot rules apply to every file' });
    } else if (isRecord(rule) && typeof rule.uses === 'string')
      plan.notImported.push({ what: `rules[${i}] (uses: ${rule.uses})`, why: 'a Continue Hub block: its text is not in this file' });
  });

  for (const key of Object.keys(data).filter((k) => !handled.has(k))) plan.notImported.push({ what: key, why: 'no PatchPilot setting for it' });
  return plan;
}

/** Continue lists servers (`- name: x, command: ...`); PatchPilot keys them by name. */
function addContinueMcpServers(plan: ImportPlan, list: unknown, fieldPath: string): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) {
    plan.notImported.push({ what: fieldPath, why: 'Continue lists its servers ("- name: ..."); this is not a list' });
    return;
  }
  const servers: Record<string, Record<string, unknown>> = {};
  list.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    if (typeof raw.uses === 'string') {
      plan.notImported.push({ what: `${fieldPath}[${i}] (uses: ${raw.uses})`, why: 'a Continue Hub block: its settings are not in this file' });
      return;
    }
    const name = typeof raw.name === 'string' && raw.name ? raw.name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') : `mcp-${i + 1}`;
    const { name: _name, ...server } = raw;
    servers[name] = server;
  });
  addMcpServers(plan, servers, fieldPath);
}

function parseYamlObject(file: string, text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = lazyChunk.yaml().parse(text);
  } catch (err) {
    throw new ImportError(`${file}: not YAML (${(err as Error).message.split('\n')[0]})`);
  }
  if (!isRecord(data)) throw new ImportError(`${file}: expected a mapping at the top level (name, version, models, ...)`);
  return data;
}
