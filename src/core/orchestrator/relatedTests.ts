import { errorMessage } from '../base';
import { listedPaths, narrowCommand, relatedTestFiles } from '../testRuns';
import { runnerOf } from '../tools/runTests';
import type { ToolContext } from '../tools/types';

/** The related test files to run, or why the whole suite runs instead (said in the edit's result). */
export type RelatedTests = { files: string[] } | { whole: string };

/**
 * After an edit, the tests it can affect instead of the whole suite, when that is knowable
 * (testRuns/related.ts) and the one configured command can be aimed at files (its runner is known);
 * else the whole suite, with the reason. `stillFailing`: test files of failures the last run introduced, run beside them. Several configured commands (a JS and a Python suite) always run
 * whole: one set of files does not fit both. Before the run may finish the whole suite runs once
 * (orchestrator/wholeSuiteBeforeFinish.ts), so a test the cheap scan missed is still caught.
 */
export async function relatedTestsOf(ctx: ToolContext, paths: readonly string[], stillFailing: readonly string[] = []): Promise<RelatedTests> {
  const commands = ctx.workspace.settings.tests.commands;
  if (commands.length !== 1) return { whole: `${commands.length} test commands are configured, and one set of test files does not fit them all` };
  const configured = commands[0]!;
  const runner = await runnerOf(ctx, configured);
  if (!runner) return { whole: `the runner behind "${configured}" is not known yet, so it cannot be aimed at test files` };
  if (runner === 'cargo') return { whole: 'cargo test is not aimed at files' };
  const related = await relatedTestFiles(paths, {
    list: async (rel) => {
      try {
        return (await ctx.fs.list(rel)).filter((e) => !ctx.workspace.ignore.isGitIgnored(rel ? `${rel}/${e.name}` : e.name, e.type === 'directory'));
      } catch {
        return [];
      }
    },
    read: async (rel) => {
      try {
        return new TextDecoder().decode(await ctx.fs.readFile(rel));
      } catch {
        return undefined;
      }
    },
  }).catch((e: unknown) => ({ whole: `the scan for related tests failed (${errorMessage(e)})` }));
  if ('whole' in related) return related;
  // The files of the failures the last run introduced run too: the edit may be the fix for them.
  const aimedAt = [...new Set([...related.files, ...stillFailing])];
  const aimed = narrowCommand(configured, runner, { files: aimedAt });
  return 'error' in aimed ? { whole: `"${configured}" cannot be aimed at the related tests: ${aimed.error}` } : { files: aimedAt };
}

/** What the after-edit result says about the narrowed run: which files, and what the whole suite costs before finish. */
export function relatedRunNote(files: readonly string[], wholeSuiteMs: number | undefined): string {
  const shown = listedPaths(files);
  const cost = wholeSuiteMs !== undefined ? ` (its last run took ${(wholeSuiteMs / 1000).toFixed(1)} s)` : '';
  return `only the tests of the edited code: ${shown}; the whole suite${cost} runs once before the run may finish`;
}
