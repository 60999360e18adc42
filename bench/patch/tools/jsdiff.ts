/** jsdiff's applyPatch with fuzzFactor 2, in process: what a Node tool author would use. */
import { applyPatch, parsePatch } from 'diff';
import { performance } from 'node:perf_hooks';
import type { BenchCase } from '../kinds/types';
import type { Tool, ToolResult } from './types';

function cleanName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const [beforeTab = ''] = name.split('\t'); // split always yields at least one part
  const n = beforeTab.trim();
  return n === '/dev/null' ? n : n.replace(/^[ab]\//, '').replace(/^\.\//, '');
}

export function applyWithJsdiff(c: BenchCase): Omit<ToolResult, 'ms'> {
  let parsed: ReturnType<typeof parsePatch>;
  try {
    parsed = parsePatch(c.patch);
  } catch (err) {
    return { status: 'refused', error: `parsePatch: ${(err as Error).message}` };
  }
  if (parsed.length === 0 || parsed.every((p) => p.hunks.length === 0)) return { status: 'refused', error: 'no hunks' };
  const files = { ...c.files };
  const onlyFile = Object.keys(c.files).length === 1 ? Object.keys(c.files)[0] : undefined;
  for (const p of parsed) {
    const oldName = cleanName(p.oldFileName);
    const newName = cleanName(p.newFileName);
    const creating = oldName === '/dev/null';
    const deleting = newName === '/dev/null';
    // A patch without file names (bare hunks) can only mean the single input file.
    const target = creating ? newName : (oldName ?? onlyFile);
    if (!target) return { status: 'refused', error: 'no file name' };
    const source = creating ? '' : files[target];
    if (source === undefined) return { status: 'refused', error: `no such file ${target}` };
    const out = applyPatch(source, p, { fuzzFactor: 2 });
    if (out === false) return { status: 'refused', error: `hunk did not fit in ${target}` };
    if (deleting) {
      if (out !== '') return { status: 'refused', error: `deleted file ${target} not empty after patch` };
      delete files[target];
    } else {
      const dest = newName ?? target;
      if (dest !== target) delete files[target];
      files[dest] = out;
    }
  }
  return { status: 'applied', files };
}

export const jsdiff: Tool = {
  name: 'jsdiff',
  command: 'jsdiff applyPatch(src, parsePatch(patch)[i], { fuzzFactor: 2 }) per file',
  spawns: false,
  supports: (c: BenchCase) => c.format === 'unified',
  async runAll(cases, onProgress) {
    const out = new Map<string, ToolResult>();
    cases.forEach((c, i) => {
      const started = performance.now();
      const r = applyWithJsdiff(c);
      out.set(c.id, { ...r, ms: performance.now() - started });
      onProgress?.(i + 1);
    });
    return out;
  },
};
