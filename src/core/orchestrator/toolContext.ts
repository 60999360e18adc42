import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import { commitPaths, type GitSnapshot } from '../git/gitSession';
import { IgnoreRules } from '../git/ignoreRules';
import { searchUnderCurrentIgnoreRules } from '../context/recallFilter';
import { ignoredNow } from '../tools/policyAdapters';
import { runConfiguredTests } from '../tools/runTests';
import type { ToolContext, ToolEvent } from '../tools/types';
import type { TestsAfterLastChange } from './testsOutcome';
import type { OrchestratorDeps } from './types';

/**
 * The ToolContext of one run, with the after-write hook: auto-commit the written paths (when
 * patchpilot.git.autoCommit) and run the test commands (when patchpilot.tests.afterEdit), so the
 * model reads the test result in the same tool result as its edit.
 */
export function createToolContext(deps: OrchestratorDeps, root: string, git: GitSnapshot, signal: AbortSignal, emit: (e: ToolEvent) => void, tests?: TestsAfterLastChange): ToolContext {
  const { settings } = deps;
  const ignore = new IgnoreRules(root, deps.ignoreFilter);
  const ctx: ToolContext = {
    root,
    settings,
    mode: settings.approval.mode,
    signal,
    approver: deps.approver,
    tasks: deps.tasks,
    ignore,
    run: { changedFiles: new Set(), knownHosts: new Set() },
    pathPolicy: deps.pathPolicy,
    commandPolicy: deps.commandPolicy,
    testGuard: deps.testGuard,
    exec: deps.exec,
    patches: deps.patches,
    fs: deps.fs,
    web: deps.web,
    search: deps.search,
    // Earlier runs are recalled under the ignore rules of now: a file ignored since does not come back.
    history: deps.history && searchUnderCurrentIgnoreRules(deps.history, { root, ignored: ignoredNow(ignore.agentFilter, settings.policy.denyPaths) }),
    emit,
  };
  ctx.run.afterWrite = async (paths, summary) => {
    const notes: string[] = [];
    tests?.changed();
    if (settings.git.autoCommit && git.isRepo) {
      try {
        const sha = await commitPaths(root, paths, `PatchPilot: ${summary}`);
        if (sha) notes.push(`committed as ${sha.slice(0, 12)}`);
      } catch (err) {
        notes.push(`auto-commit failed: ${errorMessage(err)}`);
      }
    }
    if (settings.tests.afterEdit && settings.tests.commands.length > 0) {
      try {
        const result = await runConfiguredTests(ctx);
        tests?.ran(result.ok);
        notes.push(result.output);
      } catch (err) {
        if (signal.aborted || err instanceof CancelledError) throw err;
        notes.push(`tests after the edit were not run: ${errorMessage(err)}`);
      }
    }
    return notes.length ? notes.join('\n\n') : undefined;
  };
  return ctx;
}
