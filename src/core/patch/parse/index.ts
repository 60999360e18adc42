import type { ParsedPatch, PatchParseError } from '../types';
import type { Result } from '../../base/result';

/**
 * Detects the format (unified diff, apply_patch envelope, SEARCH/REPLACE), ignores prose and
 * ``` fences around it, and parses into the one hunk model. Never throws.
 * PLACEHOLDER: replaced by the parser implementation.
 */
export function parsePatch(text: string): Result<ParsedPatch, PatchParseError> {
  void text;
  return { ok: false, error: { message: 'patch parser not implemented yet' } };
}
