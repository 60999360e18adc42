import type { FilePatch, Hunk, HunkLine, ParsedPatch } from '../../../../src/core/patch/types';

/** Builds a hunk from diff-style body lines: ' ctx', '-old', '+new', '?bare' (unprefixed context). */
export function hunk(body: readonly string[], extra: Partial<Hunk> = {}): Hunk {
  const lines: HunkLine[] = body.map((l) => {
    const p = l[0];
    const text = l.slice(1);
    if (p === '+') return { kind: 'add', text };
    if (p === '-') return { kind: 'remove', text };
    if (p === '?') return { kind: 'context', text, unprefixed: true };
    return { kind: 'context', text };
  });
  return { index: 0, anchors: [], lines, patchLine: 1, ...extra };
}

export function modify(path: string, hunks: Hunk[]): FilePatch {
  return { operation: 'modify', oldPath: path, newPath: path, hunks: hunks.map((h, i) => ({ ...h, index: i })), patchLine: 1 };
}

export function patch(...files: FilePatch[]): ParsedPatch {
  return { format: 'unified', files, warnings: [] };
}

export function filesOf(obj: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(obj));
}

export function lines(n: number, f: (i: number) => string = (i) => `line ${i}`): string {
  return Array.from({ length: n }, (_, i) => f(i + 1) + '\n').join('');
}
