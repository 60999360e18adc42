/**
 * An import plan laid over the user's settings as they are: the same rule the resolver uses across
 * scopes (lists add up without duplicates, MCP servers add by name), a single value replaced. Both
 * hosts write exactly these changes (CLI: the user settings file; VS Code: the Global target), and
 * preview them first.
 */
import { SETTING_KEYS, type SettingKey } from '../config';
import type { ImportPlan } from './importPlan';

export interface SettingChange {
  key: SettingKey;
  /** The user's value now (undefined: unset). */
  before: unknown;
  /** The whole value to write; undefined removes the key. */
  after: unknown;
  /** For lists and server maps: only what the import adds. */
  added?: unknown[] | Record<string, unknown>;
}

export interface MergedImport {
  changes: SettingChange[];
  /** Plan entries that the user's settings already hold differently (an MCP server of the same name): kept as the user has them. */
  kept: { what: string; why: string }[];
}

/** `current`: the user scope's values by flat key (a missing key: unset). */
export function mergeIntoSettings(plan: ImportPlan, current: Partial<Record<SettingKey, unknown>>): MergedImport {
  const changes: SettingChange[] = [];
  const kept: MergedImport['kept'] = [];
  for (const [key, value] of Object.entries(plan.settings) as [SettingKey, unknown][]) {
    const before = current[key];
    if (key === 'patchpilot.mcp.servers') {
      const existing = isRecord(before) ? before : {};
      const added: Record<string, unknown> = {};
      for (const [name, server] of Object.entries(value as Record<string, unknown>)) {
        if (name in existing) {
          if (JSON.stringify(existing[name]) !== JSON.stringify(server))
            kept.push({ what: `MCP server "${name}"`, why: 'your settings already have a server of that name; it is kept as it is' });
        } else added[name] = server;
      }
      if (Object.keys(added).length) changes.push({ key, before, after: { ...existing, ...added }, added });
    } else if (SETTING_KEYS[key].kind.endsWith('[]') && Array.isArray(value)) {
      const existing = Array.isArray(before) ? (before as unknown[]) : [];
      const added = value.filter((v) => !existing.includes(v));
      if (added.length) changes.push({ key, before, after: [...existing, ...added], added });
    } else if (JSON.stringify(before) !== JSON.stringify(value)) changes.push({ key, before, after: value });
  }
  // A new endpoint without a URL answers at its provider's own: the user's old URL would send it elsewhere.
  const staleUrl = current['patchpilot.llm.baseUrl'];
  if ('patchpilot.llm.provider' in plan.settings && !('patchpilot.llm.baseUrl' in plan.settings) && staleUrl !== undefined)
    changes.push({ key: 'patchpilot.llm.baseUrl', before: staleUrl, after: undefined });
  return { changes, kept };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
