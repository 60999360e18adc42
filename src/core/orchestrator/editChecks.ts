import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import { formatNewProblems, newProblems } from '../diagnostics/newProblems';
import type { DiagnosticsSource, FileProblem } from '../ports/diagnostics';
import { runCheckCommands } from '../tools/checkCommands';
import type { ToolContext } from '../tools/types';

/**
 * What the model learns about its edit besides the tests: the host's new problems in the files it
 * edited (a snapshot before the write, the settled problems after) and the check commands' lines
 * about those files.
 */
export interface EditChecks {
  before(paths: readonly string[]): void;
  after(ctx: ToolContext, paths: readonly string[]): Promise<string[]>;
}

export function createEditChecks(diagnostics: DiagnosticsSource | undefined): EditChecks {
  const snapshots = new Map<string, FileProblem[]>();
  return {
    before(paths) {
      if (!diagnostics) return;
      const now = diagnostics.snapshot(paths);
      for (const p of paths)
        snapshots.set(
          p,
          now.filter((d) => d.path === p),
        );
    },
    async after(ctx, paths) {
      const notes: string[] = [];
      if (diagnostics) notes.push(...(await diagnosticsNote(diagnostics, paths, snapshots, ctx.signal)));
      notes.push(...(await checkCommandsNote(ctx, paths)));
      return notes;
    },
  };
}

async function diagnosticsNote(
  source: DiagnosticsSource,
  paths: readonly string[],
  snapshots: Map<string, FileProblem[]>,
  signal: AbortSignal,
): Promise<string[]> {
  try {
    const before = paths.flatMap((p) => snapshots.get(p) ?? []);
    for (const p of paths) snapshots.delete(p);
    const text = formatNewProblems(newProblems(before, await source.settled(paths, signal), paths));
    return text ? [text] : [];
  } catch (err) {
    if (signal.aborted || err instanceof CancelledError) throw err;
    return [`problems after the edit were not read: ${errorMessage(err)}`];
  }
}

async function checkCommandsNote(ctx: ToolContext, paths: readonly string[]): Promise<string[]> {
  try {
    const text = await runCheckCommands(ctx, paths);
    return text ? [text] : [];
  } catch (err) {
    if (ctx.signal.aborted || err instanceof CancelledError) throw err;
    return [`check commands after the edit were not run: ${errorMessage(err)}`];
  }
}
