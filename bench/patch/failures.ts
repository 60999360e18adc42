/** Every PatchPilot miss as one JSON line, with everything needed to reproduce and tune. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchCase, Kind } from './kinds/types';
import type { Outcome } from './score';
import type { ToolResult } from './tools/types';

export function writeFailures(
  file: string,
  cases: BenchCase[],
  kinds: readonly Kind[],
  outcomes: Record<string, Outcome>,
  results: Map<string, ToolResult>,
): number {
  const group = new Map(kinds.map((k) => [k.name, k.group]));
  const lines: string[] = [];
  for (const c of cases) {
    const o = outcomes[c.id];
    const miss = o === 'wrong' || (group.get(c.kind) === 'must-apply' && o !== 'exact');
    if (!miss) continue;
    const r = results.get(c.id);
    lines.push(
      JSON.stringify({
        kind: c.kind,
        id: c.id,
        outcome: o,
        expectation: c.expectation,
        variant: c.variant,
        patch: c.patch,
        files: c.files,
        expected: c.expected,
        actual: r?.files ?? null,
        status: r?.status,
        error: r?.error,
      }),
    );
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, lines.length ? lines.join('\n') + '\n' : '');
  return lines.length;
}
