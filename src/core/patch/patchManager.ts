import type { ApplyOptions, ApplyResult, ParsedPatch } from './types';
import { parseForApply, type Plan } from './plan';
import { inlinePlanner, type PatchPlanner } from './planner';
import { looksBinary } from '../base/binary';
import type { WorkspaceChange, WorkspaceFs } from '../ports/workspaceFs';
import { errorMessage } from '../base';

export interface PatchManagerOptions {
  /** Workspace root: every path of a patch is relative to it and must stay inside it. */
  root: string;
  /**
   * Where files are read and written, the only way to the disk: NodeWorkspaceFs (confined, atomic;
   * the CLI and tests) or VS Code's, so a dry run sees unsaved editor buffers and the apply goes
   * through a WorkspaceEdit.
   */
  fs: WorkspaceFs;
  /**
   * Where the plan is computed once the files are read. Default: inline. VS Code passes an
   * OffThreadPlanner so a large patch does not block the extension host.
   */
  planner?: PatchPlanner;
}

// ignoreBOM keeps a BOM in the text (TextDecoder would silently drop it), so it is written back.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Applies patch text to the files under a workspace root: reads what the patch touches, computes
 * everything in memory (exact or refused), then writes all files atomically unless dry-run.
 */
export class PatchManager {
  private readonly fs: WorkspaceFs;

  constructor(private readonly opts: PatchManagerOptions) {
    this.fs = opts.fs;
  }

  async apply(patchText: string, options: ApplyOptions = {}): Promise<ApplyResult> {
    const parsed = parseForApply(patchText);
    return parsed.ok ? this.applyParsed(parsed.value, options) : refusedResult(options, parsed.error);
  }

  /** Same as apply, from an already parsed patch. */
  async applyParsed(parsed: ParsedPatch, options: ApplyOptions = {}): Promise<ApplyResult> {
    // The file system confines to the real root: say plainly when the root itself is gone.
    try {
      await this.fs.realRoot();
    } catch (e) {
      return refusedResult(options, errorMessage(e));
    }
    const texts = new Map<string, string>();
    const unreadable = new Map<string, string>();
    const blocked = new Map<string, string>();
    const modes = new Map<string, string>();
    const realOf = new Map<string, string | undefined>();
    const rawModes = new Map<string, number>();
    const paths = new Set(parsed.files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p));
    for (const p of paths) {
      let st;
      try {
        st = await this.fs.stat(p);
      } catch (e) {
        blocked.set(p, errorMessage(e));
        continue;
      }
      realOf.set(p, st.realPath);
      if (!st.exists) continue;
      if (st.type !== 'file') {
        blocked.set(p, 'is not a regular file');
        continue;
      }
      rawModes.set(p, st.mode);
      modes.set(p, st.mode & 0o111 ? '100755' : '100644');
      const bytes = await this.fs.readFile(p);
      if (looksBinary(bytes)) {
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
    const plan = await (this.opts.planner ?? inlinePlanner).plan({ parsed, files: texts, options, extras: { unreadable, blocked, modes } });
    if (!plan.ok || options.dryRun) return publicPart(plan);
    return this.write(plan, realOf, rawModes);
  }

  private async write(plan: Plan, realOf: Map<string, string | undefined>, rawModes: Map<string, number>): Promise<ApplyResult> {
    const writes: WorkspaceChange[] = [];
    const deletes: WorkspaceChange[] = [];
    const expect = (p: string) => (realOf.get(p) !== undefined ? { expectRealPath: realOf.get(p) } : {});
    for (const c of plan.changes) {
      if (c.newPath && c.newText !== null) {
        const mode = rawModes.get(c.oldPath ?? c.newPath);
        writes.push({ kind: 'write', path: c.newPath, content: c.newText, ...(mode !== undefined ? { mode } : {}), ...expect(c.newPath) });
      }
      if (c.oldPath && (c.newPath !== c.oldPath || c.newText === null)) deletes.push({ kind: 'delete', path: c.oldPath, ...expect(c.oldPath) });
    }
    try {
      await this.fs.applyChanges([...writes, ...deletes]);
    } catch (e) {
      const message = errorMessage(e);
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
