/**
 * An imported model endpoint -> `patchpilot.llm.*`: the foreign provider name mapped to the catalog
 * (providers.ts), the base URL kept only where it differs from that provider's documented one, and
 * the key set aside for the host's secret store. PatchPilot runs one endpoint and model at a time,
 * so a reader passes the one the user had chosen and lists the others as not imported.
 */
import { providerById } from '../config';
import { isSecretReference, setChecked, type ImportPlan } from './importPlan';

export interface ForeignEndpoint {
  /** The catalog id this source's provider name maps to; undefined: no equivalent (listed as not imported). */
  provider: string | undefined;
  /** The provider name in the source's words, for the preview. */
  foreignProvider: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  /** Where it was found ("providerProfiles.apiConfigs.work", "models[0]"). */
  from: string;
}

/** Local servers whose native URL (no path) other agents store; PatchPilot speaks to their OpenAI-compatible /v1. */
const OPENAI_PATH_ADDED = new Set(['ollama', 'lmstudio']);

export function addEndpoint(plan: ImportPlan, e: ForeignEndpoint): void {
  if (!e.provider) {
    plan.notImported.push({
      what: `${e.from} (provider ${e.foreignProvider}${e.model ? `, model ${e.model}` : ''})`,
      why: `PatchPilot has no ${e.foreignProvider} provider: choose one with "PatchPilot: Select Model" or --provider`,
    });
    return;
  }
  let provider = e.provider;
  let baseUrl = e.baseUrl?.trim() ? e.baseUrl.trim().replace(/\/+$/, '') : undefined;
  if (baseUrl && OPENAI_PATH_ADDED.has(provider) && /^https?:\/\/[^/]+$/.test(baseUrl)) baseUrl = `${baseUrl}/v1`;
  const known = providerById(provider);
  // An "OpenAI" profile pointed at another server is an OpenAI-compatible endpoint: the OpenAI key must not go there by name.
  if (provider === 'openai' && baseUrl && baseUrl !== known?.defaultBaseUrl) provider = 'custom';
  setChecked(plan, 'patchpilot.llm.provider', provider, `${e.from}.provider`);
  if (baseUrl && baseUrl !== providerById(provider)?.defaultBaseUrl) setChecked(plan, 'patchpilot.llm.baseUrl', baseUrl, `${e.from} base URL ${baseUrl}`);
  else if (!baseUrl && provider === 'custom')
    plan.notImported.push({ what: `${e.from}`, why: 'an OpenAI-compatible endpoint without a base URL: set patchpilot.llm.baseUrl yourself' });
  if (e.model) setChecked(plan, 'patchpilot.llm.model', e.model, `${e.from} model ${e.model}`);
  if (e.apiKey?.trim()) {
    if (isSecretReference(e.apiKey))
      plan.notImported.push({ what: `${e.from} API key`, why: `a secret reference (${e.apiKey}), not a key: set the key yourself` });
    else if (providerById(provider)?.local)
      plan.notImported.push({ what: `${e.from} API key`, why: `${known?.label ?? provider} runs on this machine: PatchPilot sends it no key` });
    else plan.apiKey = { value: e.apiKey.trim(), provider, from: e.from };
  }
}
