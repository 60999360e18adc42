import { readFile, realpath, stat } from 'node:fs/promises';
import type { ApplyOptions, ApplyResult, ParsedPatch } from './types';
import { applyParsedPatch, parseForApply, type Plan } from './plan';
import { confinePath } from './confine';
import { commitAtomically, nodeIo, type AtomicIo, type WriteOp } from './atomicWrite';

export interface PatchManagerOptions {
  /** Workspace root: every path of a patch is relative to it and must stay inside it. */
  root: string;
  /** File-system calls for the write phase (tests inject failures). */
  io?: AtomicIo;
}

// ignoreBOM keeps a BOM in the text (TextDecoder would silently drop it), so it is written back.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Applies patch text to the files under a workspace root: reads what the patch touches, computes
 * everything in memory (exact or refused), then writes all files atomically unless dry-run.
 */
export class PatchManager {
  constructor(private readonly opts: PatchManagerOptions) {}

  async apply(patchText: string, options: ApplyOptions = {}): Promise<ApplyResult> {
    const parsed = parseForApply(patchText);
    return parsed.ok ? this.applyParsed(parsed.value, options) : refusedResult(options, parsed.error);
  }

  /** Same as apply, from an already parsed patch. */
  async applyParsed(parsed: ParsedPatch, options: ApplyOptions = {}): Promise<ApplyResult> {
    let rootReal: string;
    try {
      rootReal = await realpath(this.opts.root);
    } catch (e) {
      return refusedResult(options, `workspace root ${this.opts.root} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
    }
    const texts = new Map<string, string>();
    const unreadable = new Map<string, string>();
    const blocked = new Map<string, string>();
    const modes = new Map<string, string>();
    const realOf = new Map<string, string>();
    const rawModes = new Map<string, number>();
    const paths = new Set(parsed.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p));
    for (const p of paths) {
      const c = await confinePath(rootReal, p).catch((e: Error) => ({ ok: false as const, reason: e.message }));
      if (!c.ok) {
        blocked.set(p, c.reason);
        continue;
      }
      realOf.set(p, c.real);
      if (!c.exists) continue;
      const st = await stat(c.real);
      if (!st.isFile()) {
        blocked.set(p, 'is not a regular file');
        continue;
      }
      rawModes.set(p, st.mode & 0o7777);
      modes.set(p, st.mode & 0o111 ? '100755' : '100644');
      const bytes = await readFile(c.real);
      if (bytes.subarray(0, 8000).includes(0)) {
        unreadable.set(p, 'is a binary file; binary files cannot be patched');
        texts.set(p, '');
        continue;
      }
      try {
        texts.set(p, utf8.decode(bytes));
      } catch {
        unreadable.set(p, 'is not valid UTF-8 text; it cannot be patched without changing its bytes');
        texts.set(p, '');
      }
    }
    const plan = applyParsedPatch(parsed, texts, options, { unreadable, blocked, modes });
    if (!plan.ok || options.dryRun) return publicPart(plan);
    return this.write(plan, rootReal, realOf, rawModes);
  }

  private async write(plan: Plan, rootReal: string, realOf: Map<string, string>, rawModes: Map<string, number>): Promise<ApplyResult> {
    const writes: WriteOp[] = [];
    const deletes: WriteOp[] = [];
    for (const c of plan.changes) {
      if (c.newPath && c.newText !== null) {
        const mode = rawModes.get(c.oldPath ?? c.newPath);
        writes.push({ kind: 'write', path: realOf.get(c.newPath)!, content: c.newText, ...(mode !== undefined ? { mode } : {}) });
      }
      if (c.oldPath && (c.newPath !== c.oldPath || c.newText === null)) deletes.push({ kind: 'delete', path: realOf.get(c.oldPath)! });
    }
    try {
      // Re-check just before writing: a link swapped in since the read must not redirect a write.
      for (const p of realOf.keys()) {
        const again = await confinePath(rootReal, p);
        if (!again.ok || again.real !== realOf.get(p)) throw new Error(`${p} changed on disk while the patch was computed`);
      }
      await commitAtomically([...writes, ...deletes], this.opts.io ?? nodeIo);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const result = publicPart(plan);
      for (const f of result.files) for (const h of f.hunks) if (h.status === 'applied') h.status = 'would-apply';
      return { ...result, ok: false, reversePatch: '', error: `The patch was not applied: ${message}` };
    }
    return publicPart(plan);
  }
}

function publicPart(plan: Plan): ApplyResult {
  const { finalTexts: _f, changes: _c, ...rest } = plan;
  return rest;
}

function refusedResult(options: ApplyOptions, error: string): ApplyResult {
  return { ok: false, dryRun: !!options.dryRun, files: [], reversePatch: '', error };
}
