import assert from 'node:assert/strict';
import { parsePatch } from '../../../../src/core/patch/parse';
import type { Hunk, ParsedPatch, PatchParseError } from '../../../../src/core/patch/types';

/** Joins lines with \n and a final newline, like a model's reply. */
export function text(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

export function parseOk(input: string): ParsedPatch {
  const r = parsePatch(input);
  if (!r.ok) assert.fail(`expected a parse, got error: ${r.error.message} (line ${r.error.line})`);
  return r.value;
}

export function parseErr(input: string): PatchParseError {
  const r = parsePatch(input);
  if (r.ok) assert.fail(`expected an error, got ${JSON.stringify(r.value)}`);
  return r.error;
}

/** Hunk body in a compact form: ' ctx', '-old', '+new'; a `~` marks an unprefixed line. */
export function body(hunk: Hunk | undefined): string[] {
  assert.ok(hunk, 'hunk exists');
  return hunk.lines.map((l) => {
    const sign = l.kind === 'context' ? ' ' : l.kind === 'add' ? '+' : '-';
    return (l.unprefixed ? '~' : '') + sign + l.text;
  });
}

export function hasWarning(parsed: ParsedPatch, fragment: string): boolean {
  return parsed.warnings.some((w) => w.includes(fragment));
}
