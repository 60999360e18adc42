/**
 * What an import from another coding agent (Roo Code, Cline, Continue) would bring over, before
 * anything is written: the `patchpilot.*` settings, the API key (kept apart, for SecretStorage or
 * the environment, never a settings file), the rules text, and what was found and left out, with
 * why. One plan per source file; each reader (roo.ts, cline.ts, continueConfig.ts) builds one, the
 * hosts preview it (preview.ts) and write it (mergeSettings.ts).
 */
import { validateSettingValue, type SettingKey } from '../config';
import { parseMcpServers } from '../config/mcpServers';

export type ImportSource = 'roo' | 'cline' | 'continue';
export const IMPORT_SOURCES: readonly ImportSource[] = ['roo', 'cline', 'continue'];
export const SOURCE_LABELS: Readonly<Record<ImportSource, string>> = { roo: 'Roo Code', cline: 'Cline', continue: 'Continue' };

export interface ImportPlan {
  source: ImportSource;
  /** The file read, for the preview. */
  file: string;
  /** Flat `patchpilot.*` keys; lists add to what the user has, `mcp.servers` adds servers by name. */
  settings: Partial<Record<SettingKey, unknown>>;
  /** The endpoint's key: the provider it belongs to (undefined: a custom endpoint) and where it was found. Masked in every preview. */
  apiKey?: { value: string; provider: string | undefined; from: string };
  /** Rules and custom instructions, joined as markdown, with the fields they came from. */
  rules?: { text: string; from: string[] };
  /** Found and not brought over: "what" names it in the source's words, "why" says what to do. */
  notImported: { what: string; why: string }[];
}

export class ImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportError';
  }
}

export function emptyPlan(source: ImportSource, file: string): ImportPlan {
  return { source, file, settings: {}, notImported: [] };
}

/** A value some agents store as a reference (`${{ secrets.X }}`, `${env:X}`) rather than the key itself. */
export function isSecretReference(value: string): boolean {
  return /\$\{\{?\s*[^}]+\}\}?/.test(value);
}

/**
 * Adds MCP servers to the plan, each checked by the setting's own parser, so the plan never holds a
 * server the resolver would refuse. Tools another agent ran without asking (`alwaysAllow`,
 * `autoApprove`) are left out: PatchPilot asks about an imported server and its tools again.
 */
export function addMcpServers(plan: ImportPlan, servers: Record<string, Record<string, unknown>>, fieldPath: string): void {
  const accepted: Record<string, unknown> = { ...(plan.settings['patchpilot.mcp.servers'] as Record<string, unknown> | undefined) };
  for (const [name, raw] of Object.entries(servers)) {
    const server: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(raw)) {
      if (field === 'alwaysAllow' || field === 'autoApprove') {
        if (Array.isArray(value) && value.length)
          plan.notImported.push({
            what: `${fieldPath}.${name}.${field} (${value.join(', ')})`,
            why: 'tools are not pre-approved: PatchPilot asks before the server starts and before each tool call',
          });
      } else if (MCP_FIELDS.has(field)) server[field] = value;
      else plan.notImported.push({ what: `${fieldPath}.${name}.${field}`, why: 'PatchPilot has no such MCP server field' });
    }
    const env = server.env as Record<string, unknown> | undefined;
    if (env && typeof env === 'object') {
      for (const [k, v] of Object.entries(env)) {
        if (typeof v === 'string' && isSecretReference(v)) {
          delete env[k];
          plan.notImported.push({
            what: `${fieldPath}.${name}.env.${k}`,
            why: `a secret reference (${v}), not a value: add the value to the server's env yourself`,
          });
        }
      }
    }
    const checked = parseMcpServers({ [name]: server });
    if (checked.ok) accepted[name] = server;
    else plan.notImported.push({ what: `${fieldPath}.${name}`, why: checked.message });
  }
  if (Object.keys(accepted).length) plan.settings['patchpilot.mcp.servers'] = accepted;
}

const MCP_FIELDS = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'type', 'transportType', 'disabled', 'timeout']);

/** Sets a key when its value passes the setting's validation; else records why it was left out. */
export function setChecked(plan: ImportPlan, key: SettingKey, value: unknown, what: string): void {
  const checked = validateSettingValue(key, value);
  if (checked.ok) plan.settings[key] = checked.value;
  else plan.notImported.push({ what, why: `${key}: ${checked.message}` });
}

/** Adds strings to a list setting (allow/deny), keeping order, no duplicates. */
export function addToList(plan: ImportPlan, key: SettingKey, items: readonly string[]): void {
  if (!items.length) return;
  const existing = (plan.settings[key] as string[] | undefined) ?? [];
  plan.settings[key] = [...new Set([...existing, ...items])];
}

export function addRules(plan: ImportPlan, text: string, from: string): void {
  const trimmed = text.trim();
  if (!trimmed) return;
  plan.rules = plan.rules ? { text: `${plan.rules.text}\n\n${trimmed}`, from: [...plan.rules.from, from] } : { text: trimmed, from: [from] };
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A JSON file another agent wrote; an ImportError naming the file when it is not a JSON object. */
export function parseJson(file: string, text: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ImportError(`${file}: not JSON (${(err as Error).message})`);
  }
  if (!isRecord(data)) throw new ImportError(`${file}: expected a JSON object at the top level`);
  return data;
}
