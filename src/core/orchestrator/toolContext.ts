import { CancelledError } from '../base/cancellation';
import { errorMessage } from '../base/errors';
import { commitPaths, type GitSnapshot } from '../git/gitSnapshot';
import type { IgnoreRules } from '../git/ignoreRules';
import { searchUnderCurrentIgnoreRules } from '../context/recallFilter';
import { ignoredNow } from '../tools/policyAdapters';
import { runConfiguredTests } from '../tools/runTests';
import { createTestCommandRunner } from '../tools/testCommandRunner';
import { createToolAsk } from '../tools/ask';
import { relatedTestsOf, relatedRunNote } from './relatedTests';
import type { SubagentSpawner, ToolContext, ToolEvent } from '../tools/types';
import type { PathPolicy } from '../ports';
import type { SkillCatalog } from '../context/skills/skillCatalog';
import { knownFailuresNote } from '../../protocol/runEnd';
import type { TestRunReport } from '../testRuns';
import type { TestsAfterLastChange } from './testsOutcome';
import { createEditChecks } from './editChecks';
import { TESTS_AFTER_LAST_EDIT, type ReplyEdits } from './replyEdits';
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
  /** The reply whose calls are running: its edits' tests run once, after its last edit. */
  replyEdits?: ReplyEdits;
}

/** Built whole, once per run: nothing is filled in after construction. */
export function createToolContext(deps: OrchestratorDeps, input: RunToolContextInput): ToolContext {
  const { settings } = deps;
  const { root, git, emit, ignore, tests, signal } = input;
  const ctx: ToolContext = {
    root,
    signal,
    fs: deps.fs,
    emit,
    ask: createToolAsk({
      root,
      settings,
      ignore,
      mode: settings.approval.mode,
      approver: deps.approver,
      signal,
      emit,
      pathPolicy: input.pathPolicy,
      ...(deps.commandPolicy ? { commandPolicy: deps.commandPolicy } : {}),
    }),
    run: {
      exec: deps.exec,
      tests: deps.testCommands ?? createTestCommandRunner({ root, exec: deps.exec, tasks: deps.tasks }),
      ...(deps.detectedTests ? { detectedTests: deps.detectedTests } : {}),
    },
    state: { goal: input.goal, changedFiles: input.changedFiles, knownHosts: new Set() },
    workspace: { settings, ignore },
    services: {
      patches: deps.patches,
      web: deps.web,
      search: deps.search,
      // Earlier runs are recalled under the ignore rules of now: a file ignored since does not come back.
      history: deps.history && searchUnderCurrentIgnoreRules(deps.history, { root, ignored: ignoredNow(ignore.agentFilter, settings.policy.denyPaths) }),
      skills: input.skills,
      ...(input.subagents ? { subagents: input.subagents } : {}),
    },
  };
  const checks = createEditChecks(deps.diagnostics);
  ctx.state.beforeWrite = (paths) => checks.before(paths);
  ctx.state.testBaseline = () => tests?.baselineReport;
  ctx.state.afterWrite = async (paths, summary) => {
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
      // One run a reply, after its last edit, of the tests of every file the reply changed (replyEdits.ts).
      const toTest = input.replyEdits ? input.replyEdits.wrote(paths) : paths;
      notes.push(toTest ? await testsAfterEdits(ctx, tests, toTest, paths) : TESTS_AFTER_LAST_EDIT);
    }
    notes.push(...(await checks.after(ctx, paths)));
    return notes.length ? notes.join('\n\n') : undefined;
  };
  return ctx;
}

/**
 * The after-edit tests of `paths` (the related tests when knowable, else the whole suite), measured
 * against the baseline; `edited`: the paths of the edit whose result this joins (more were tested:
 * the reply's earlier edits, named first).
 */
export async function testsAfterEdits(
  ctx: ToolContext,
  tests: TestsAfterLastChange | undefined,
  paths: readonly string[],
  edited: readonly string[] = paths,
): Promise<string> {
  try {
    const related = await relatedTestsOf(ctx, paths, tests?.openFailureFiles);
    const result =
      'files' in related
        ? await runConfiguredTests(ctx, { files: related.files }, { narrowedAs: relatedRunNote(related.files, ctx.state.wholeSuiteMs) })
        : await runConfiguredTests(ctx);
    const report = result.data?.report as TestRunReport | undefined;
    if (report) tests?.ranReport(report);
    else tests?.ran(result.ok);
    // Whole or related, and why whole: a whole-suite run nobody explains reads as a narrowing that failed.
    const whole = 'whole' in related ? `the whole suite (${related.whole})` : '';
    const reply = paths.length > edited.length ? `this reply's edits (${paths.join(', ')}), run once after the last` : '';
    const scope = reply || whole ? `tests after ${[reply || 'this edit', whole].filter(Boolean).join(', ')}:\n` : '';
    return scope + result.output + (tests && !result.ok ? againstBaseline(tests) : '');
  } catch (err) {
    if (ctx.signal.aborted || err instanceof CancelledError) throw err;
    return `tests after the edit were not run: ${errorMessage(err)}`;
  }
}

/** After a reply's calls: the tests its edits still owe (its last edit failed before writing), run now, for the result of its last edit that wrote. */
export async function testsOwedAfterReply(
  ctx: ToolContext,
  tests: TestsAfterLastChange | undefined,
  replyEdits: ReplyEdits,
): Promise<{ callId: string; text: string } | undefined> {
  const owed = replyEdits.endReply();
  if (!owed) return undefined;
  return { callId: owed.callId, text: await testsAfterEdits(ctx, tests, owed.paths, []) };
}

/** After a failing run: which failures this run's edits introduced, and which were there before (they do not block finish). */
function againstBaseline(tests: TestsAfterLastChange): string {
  if (!tests.hasBaseline) return '';
  const f = tests.failures;
  const known = knownFailuresNote(f);
  if (tests.outcome === 'known-failures') return `\n\nNone of these failures is new: ${known}. They do not block finish; name them in your summary.`;
  if (!f.new.length) return '';
  return `\n\nFailing since your edits: ${f.new.join(', ')}.${known ? ` Not new: ${known}.` : ''}`;
}
