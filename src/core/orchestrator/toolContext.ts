import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import { commitPaths, type GitSnapshot } from '../git/gitSession';
import type { IgnoreRules } from '../git/ignoreRules';
import { searchUnderCurrentIgnoreRules } from '../context/recallFilter';
import { ignoredNow } from '../tools/policyAdapters';
import { runConfiguredTests } from '../tools/runTests';
import type { PathPolicy, SubagentSpawner, ToolContext, ToolEvent } from '../tools/types';
import type { SkillCatalog } from '../context/skills/skillCatalog';
import type { TestsAfterLastChange } from './testsOutcome';
import { createEditChecks } from './editChecks';
import type { OrchestratorDeps } from './types';

/**
 * The ToolContext of one run, with the after-write hook: auto-commit the written paths (when
 * patchpilot.git.autoCommit) and run the test commands (when patchpilot.tests.afterEdit), so the
 * model reads the test result in the same tool result as its edit, with the new problems in the edited
 * files (the host's diagnostics, the check commands: editChecks).
 */
export interface RunToolContextInput {
  root: string;
  git: GitSnapshot;
  signal: AbortSignal;
  emit: (e: ToolEvent) => void;
  ignore: IgnoreRules;
  /** The run's goal and the set its file tools add written paths to (the run state's own). */
  goal: string;
  changedFiles: Set<string>;
  pathPolicy: PathPolicy;
  skills: SkillCatalog;
  subagents?: SubagentSpawner;
  /** Told of every change and of the tests run after it (the run's end says how the tests ended). */
  tests?: TestsAfterLastChange;
}

/** Built whole, once per run: nothing is filled in after construction. */
export function createToolContext(deps: OrchestratorDeps, input: RunToolContextInput): ToolContext {
  const { settings } = deps;
  const { root, git, signal, emit, ignore, tests } = input;
  const ctx: ToolContext = {
    root,
    settings,
    ...(deps.workspaceTrusted === false ? { workspaceTrusted: false } : {}),
    mode: settings.approval.mode,
    signal,
    approver: deps.approver,
    tasks: deps.tasks,
    ignore,
    run: { goal: input.goal, changedFiles: input.changedFiles, knownHosts: new Set() },
    pathPolicy: input.pathPolicy,
    commandPolicy: deps.commandPolicy,
    testGuard: deps.testGuard,
    exec: deps.exec,
    patches: deps.patches,
    fs: deps.fs,
    web: deps.web,
    search: deps.search,
    // Earlier runs are recalled under the ignore rules of now: a file ignored since does not come back.
    history: deps.history && searchUnderCurrentIgnoreRules(deps.history, { root, ignored: ignoredNow(ignore.agentFilter, settings.policy.denyPaths) }),
    skills: input.skills,
    ...(input.subagents ? { subagents: input.subagents } : {}),
    emit,
  };
  const checks = createEditChecks(deps.diagnostics);
  ctx.run.beforeWrite = (paths) => checks.before(paths);
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
    notes.push(...(await checks.after(ctx, paths)));
    return notes.length ? notes.join('\n\n') : undefined;
  };
  return ctx;
}
