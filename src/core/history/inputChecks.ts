/**
 * Checks on what the history engine is asked to record: bad input is refused with a clear error
 * before it reaches the database; long texts are cut with a mark.
 */
import { UserError } from '../base';
import { RUN_STATUSES } from './types';

export const ROLES = ['system', 'user', 'assistant', 'tool'];
export const FINAL_STATUSES = RUN_STATUSES.filter((s) => s !== 'running');
export const TRIGGERS = ['agent', 'save', 'manual'];
export const KINDS = ['command', 'path', 'network'];
export const VERDICTS = ['allow', 'ask', 'deny'];

export function requireString(v: unknown, name: string): string {
  if (typeof v !== 'string' || v.length === 0) throw new UserError(`${name} must be a non-empty string`, 'invalid-input');
  return v;
}

export function optionalString(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

export function requireArray<T>(v: T[] | undefined, name: string): T[] {
  if (!Array.isArray(v)) throw new UserError(`${name} must be an array`, 'invalid-input');
  return v;
}

export function nonNegative(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new UserError(`${name} must be a number >= 0`, 'invalid-input');
  return v;
}

export function oneOf(v: unknown, allowed: readonly string[], name: string): void {
  if (typeof v !== 'string' || !allowed.includes(v)) throw new UserError(`${name} must be one of ${allowed.join(', ')}`, 'invalid-input');
}

/** Cuts to at most max characters, marking the cut, and never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = '… [truncated]';
  let cut = max - marker.length;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return text.slice(0, cut) + marker;
}
