/**
 * The import preview both hosts show before anything is written: each setting before -> after,
 * the key and the rules with where they will go, and everything left out with why. No secret is
 * ever printed: API keys, MCP `env` values and `headers` values show as `••••` and their last
 * four characters at most.
 */
import { SOURCE_LABELS, type ImportPlan } from './importPlan';
import type { MergedImport } from './mergeSettings';

export interface PreviewTargets {
  /** Where settings go ("user settings file /home/u/.config/patchpilot/settings.json", "your VS Code user settings"). */
  settings: string;
  /** Where the key goes, or what the user must do with it (the CLI reads keys only from the environment). */
  apiKey: string;
  /** Where the rules text goes; undefined: nowhere to put it (no workspace). */
  rules?: string;
}

export function maskSecret(value: string): string {
  return value.length >= 12 ? `••••${value.slice(-4)}` : '••••';
}

export function renderImportPreview(plan: ImportPlan, merged: MergedImport, to: PreviewTargets): string {
  const lines: string[] = [`Import from ${SOURCE_LABELS[plan.source]}: ${plan.file}`, ''];
  if (merged.changes.length) {
    lines.push(`Settings to write (${to.settings}):`);
    for (const c of merged.changes) {
      if (c.key === 'patchpilot.mcp.servers' && c.added && !Array.isArray(c.added)) {
        for (const [name, server] of Object.entries(c.added))
          lines.push(`  ${c.key}: adds "${name}": ${describeServer(server as Record<string, unknown>)} (asked for approval before it first starts)`);
      } else if (Array.isArray(c.added)) lines.push(`  ${c.key}: adds ${c.added.map((v) => JSON.stringify(v)).join(', ')}`);
      else lines.push(`  ${c.key}: ${show(c.before)} -> ${c.after === undefined ? '(removed: the provider answers at its own URL)' : show(c.after)}`);
    }
  } else lines.push('No settings to write: your settings already hold everything this file has.');
  if (plan.apiKey) lines.push('', `API key (${plan.apiKey.from}): ${maskSecret(plan.apiKey.value)} -> ${to.apiKey}`);
  if (plan.rules) {
    const count = plan.rules.text.split('\n').length;
    lines.push(
      '',
      `Rules (${plan.rules.from.join(', ')}; ${count} line${count === 1 ? '' : 's'}) -> ${to.rules ?? 'not written: no workspace folder to hold them'}`,
    );
  }
  const left = [...merged.kept, ...plan.notImported];
  if (left.length) {
    lines.push('', 'Not imported:');
    for (const n of left) lines.push(`  - ${n.what}: ${n.why}`);
  }
  return lines.join('\n') + '\n';
}

function show(v: unknown): string {
  return v === undefined ? '(unset)' : JSON.stringify(v);
}

function describeServer(s: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof s.command === 'string') parts.push([s.command, ...(Array.isArray(s.args) ? s.args.map(String) : [])].join(' '));
  if (typeof s.url === 'string') parts.push(s.url);
  for (const field of ['env', 'headers'] as const) {
    const map = s[field];
    if (map && typeof map === 'object' && Object.keys(map).length)
      parts.push(
        `${field} ${Object.entries(map as Record<string, unknown>)
          .map(([k, v]) => `${k}=${maskSecret(String(v))}`)
          .join(' ')}`,
      );
  }
  if (s.disabled === true) parts.push('disabled');
  return parts.join('; ');
}
