/**
 * The start of a run: the history row, the windows, git's snapshot, the skills and the tools on
 * offer (the mode applied), the workspace facts, the tools' context (built whole) and the prompt.
 * Everything the steps then use is in the returned RunSetup.
 */
import { errorMessage } from '../base/errors';
import path from 'node:path';
import { buildSubagentPrompt } from '../context/subagentPrompt';
import { createRunContext, loadRunSkills, type RunContext } from '../context/runContext';
import { TokenCalibration } from '../context/tokenCounter';
import { snapshotGit, type GitSnapshot } from '../git/gitSession';
import { IgnoreRules } from '../git/ignoreRules';
import { listWorkspaceFiles } from '../git/listFiles';
import type { ModelToolSpec } from '../llm/types';
import type { ToolRegistry } from '../tools/registry';
import { createPathPolicy } from '../tools/policyAdapters';
import type { Tool, ToolContext, ToolEvent } from '../tools/types';
import { EARLIER_STEP, recordCompaction, resolveWindows } from './contextSteps';
import { asJson } from './recorder';
import type { RunState } from './runState';
import { Subagents } from './subagents';
import { createToolContext } from './toolContext';
import { forwardToolEvent } from './toolEvents';
import type { WorkspaceFacts } from '../context/systemPrompt';
import type { OrchestratorDeps, RunOptions, RunOutcome } from './types';

export interface RunSetup {
  toolCtx: ToolContext;
  /** The run's registry (the host's tools and the MCP servers') and the part of it on offer. */
  tools: ToolRegistry;
  offered: Tool<any>[];
  specs: ModelToolSpec[];
  readOnly: ReadonlySet<string>;
  context: RunContext['context'];
}

export interface RunSetupHooks {
  /** The host's tools plus those of the tool sources (MCP servers) for this run. */
  gatherTools(signal: AbortSignal, emit: (e: ToolEvent) => void, warn: (message: string) => void): Promise<ToolRegistry>;
  /** Runs a subagent (the Orchestrator itself; passed in to keep the import one-way). */
  runChild(deps: OrchestratorDeps, goal: string, options: RunOptions): Promise<RunOutcome>;
}

export async function startRun(run: RunState, hooks: RunSetupHooks): Promise<RunSetup> {
  const { deps, goal, options, recorder, signal, emit, warn } = run;
  const { settings } = deps;
  const mode = settings.approval.mode;
  // The root's real path through the port: the orchestrator reaches the disk only through WorkspaceFs.
  const root = await deps.fs.realRoot();
  const git = options.subagent?.git ?? (await snapshotGit(root));
  await recorder.start(goal, { reasoning: deps.model.modelFor('reasoning'), fast: deps.model.modelFor('fast') }, options.subagent?.parentRunId);
  const windows = await resolveWindows(deps.model, signal);
  emit({
    type: 'run/started',
    runId: recorder.runId,
    goal,
    mode,
    model: deps.model.modelFor('reasoning'),
    contextWindow: windows.window.tokens,
    contextWindowNote: windows.note,
    git,
  });
  windows.warnings.forEach(warn);
  if (git.warning) warn(git.warning); // a tampered repository: no git, so no auto-commit this run

  const onToolEvent = (e: ToolEvent) => forwardToolEvent(e, run);
  const ignore = new IgnoreRules(root, deps.ignoreFilter);
  const pathPolicy = deps.pathPolicy ?? createPathPolicy(root, settings.policy, (rel, isDir) => ignore.agentFilter.isIgnored(rel, isDir));
  const skills = await loadRunSkills({ root, pathPolicy, bundledSkillsDir: deps.bundledSkillsDir });
  const tools = await hooks.gatherTools(signal, onToolEvent, warn);
  const offered = tools
    .list()
    .filter((t) => (mode !== 'plan' || t.readOnly || t.loop?.planModeDryRun) && (t.loop?.offeredWhen?.({ skills: skills.skills.length }) ?? true));
  const specs: ModelToolSpec[] = offered.map((t) => ({ name: t.name, description: t.description, parameters: t.schema }));
  const facts = options.subagent?.facts ?? (await workspaceFacts(root, git, settings, ignore));
  const subagents =
    !options.subagent && offered.some((t) => t.loop?.spawnsRuns)
      ? new Subagents({ deps, registry: tools, offered, parentRunId: () => recorder.runId, git, facts, meter: run.meter, emit, runChild: hooks.runChild })
      : undefined;
  const toolCtx = createToolContext(deps, {
    root,
    git,
    signal,
    emit: onToolEvent,
    ignore,
    goal,
    changedFiles: run.changedFiles,
    pathPolicy,
    skills,
    subagents,
    tests: run.tests,
  });
  if (options.earlier?.length) {
    // What a killed run is rebuilt from (core/session/resume.ts): a reference when the previous run recorded it.
    const earlier = options.earlierRunId ? { fromRun: options.earlierRunId } : options.earlier;
    recorder.step({ role: 'system', tool: EARLIER_STEP, text: `${options.earlier.length} message(s)`, arguments: asJson(earlier) });
  }
  // Restores the user made since the last run: the model hears of them with the goal, before it relies on old reads.
  const restoreNotes = options.subagent ? [] : takeRestoreNotes(deps, warn);
  if (restoreNotes.length) recorder.step({ role: 'user', text: restoreNotes.join('\n') });
  const context = await createRunContext(
    {
      root,
      goal: restoreNotes.length ? `${restoreNotes.join('\n')}\n\n${goal}` : goal,
      mode,
      facts,
      // A subagent gets its focused prompt; the workspace's rules, memory and skills still follow.
      basePrompt: options.subagent
        ? buildSubagentPrompt(
            facts,
            mode,
            offered.map((t) => t.name),
          )
        : undefined,
      settings,
      model: deps.model,
      pathPolicy,
      history: toolCtx.history,
      bundledSkillsDir: deps.bundledSkillsDir,
      calibration: deps.calibration ?? new TokenCalibration(),
      earlier: options.earlier,
      meter: run.meter,
      onTurn: (turn) => run.reportUsage(turn),
      onCompacted: (report) => recordCompaction(report, recorder, emit),
      warn,
    },
    skills,
    specs,
  );
  run.conversation = context.conversation;
  recorder.step({
    role: 'system',
    text: `git ${git.isRepo ? `${git.branch ?? '-'} ${git.head ?? '(no commits)'}, dirty: ${git.dirty.join(', ') || 'none'}` : 'not a repository'}`,
  });
  recorder.step({ role: 'user', text: goal });
  return { toolCtx, tools, offered, specs, readOnly: new Set(offered.filter((t) => t.readOnly).map((t) => t.name)), context: context.context };
}

async function workspaceFacts(root: string, git: GitSnapshot, settings: OrchestratorDeps['settings'], rules: IgnoreRules): Promise<WorkspaceFacts> {
  const listing = await listWorkspaceFiles(root, { maxFiles: 5000, rules });
  const top = [...new Set(listing.files.map((f) => (f.includes('/') ? f.slice(0, f.indexOf('/') + 1) : f)))].slice(0, 60);
  return {
    name: path.basename(root),
    platform: `${process.platform}`,
    git,
    testCommands: settings.tests.commands,
    afterEdit: settings.tests.afterEdit,
    topLevel: top,
  };
}

function takeRestoreNotes(deps: OrchestratorDeps, warn: (message: string) => void): string[] {
  try {
    return deps.checkpoints?.takeNotes() ?? [];
  } catch (err) {
    warn(`the notes about restored files could not be read: ${errorMessage(err)}`);
    return [];
  }
}
