/**
 * The start of a run: the history row, the windows, git's snapshot, the skills and the tools on
 * offer (the mode applied), the workspace facts, the tools' context (built whole) and the prompt.
 * Everything the steps then use is in the returned RunSetup.
 */
import path from 'node:path';
import { errorMessage } from '../base/errors';
import { startOfLocalDay } from '../history/usage';
import { buildSubagentPrompt } from '../context/subagentPrompt';
import { createRunContext, loadRunSkills, type RunContext } from '../context/runContext';
import { createOutputKeeper } from '../context/outputKeeper';
import type { SkillCatalog } from '../context/skills/skillCatalog';
import { TokenCalibration } from '../context/tokenCounter';
import { snapshotGit, type GitSnapshot } from '../git/gitSnapshot';
import { IgnoreRules } from '../git/ignoreRules';
import { listWorkspaceFiles } from '../git/listFiles';
import type { ModelToolSpec } from '../llm/types';
import type { ToolRegistry } from '../tools/registry';
import { createPathPolicy } from '../tools/policyAdapters';
import type { Tool, ToolContext, ToolEvent } from '../tools/types';
import type { PathPolicy } from '../ports';
import type { ApprovalMode } from '../config/settings';
import { EARLIER_STEP, recordCompaction, resolveWindows } from './contextSteps';
import { asJson } from './recorder';
import type { RunState } from './runState';
import { announceRules } from './rulesStep';
import { Subagents } from './subagents';
import { createToolContext } from './toolContext';
import { ReplyEdits } from './replyEdits';
import { EarlyBaseline } from './earlyBaseline';
import { forwardToolEvent } from './toolEvents';
import { askHookApprovals } from './hookSteps';
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
  /** The run's rules files: more come in as the run reads and edits files (rulesStep.ts). */
  rules: RunContext['rules'];
  /** The reply whose calls are running: its edits' tests run once, after its last edit. */
  replyEdits: ReplyEdits;
  /** The baseline test run, started with the run (none in a subagent): the run's end cancels it if unfinished. */
  baseline?: EarlyBaseline;
}

export interface RunSetupHooks {
  /** The host's tools plus those of the tool sources (MCP servers) for this run. */
  gatherTools(signal: AbortSignal, emit: (e: ToolEvent) => void, warn: (message: string) => void): Promise<ToolRegistry>;
  /** Runs a subagent (the Orchestrator itself; passed in to keep the import one-way). */
  runChild(deps: OrchestratorDeps, goal: string, options: RunOptions): Promise<RunOutcome>;
}

export async function startRun(run: RunState, hooks: RunSetupHooks): Promise<RunSetup> {
  const { deps, options } = run;
  // The root's real path through the port: the orchestrator reaches the disk only through WorkspaceFs.
  const root = await deps.fs.realRoot();
  const git = await announceRun(run, root);
  const ignore = new IgnoreRules(root, deps.ignoreFilter);
  const pathPolicy = runPathPolicy(deps, root, ignore);
  const skills = await loadRunSkills({ root, pathPolicy, bundledSkillsDir: deps.bundledSkillsDir });
  const onToolEvent = (e: ToolEvent) => forwardToolEvent(e, run);
  const tools = await hooks.gatherTools(run.signal, onToolEvent, run.warn);
  await askHookApprovals(run, onToolEvent);
  const offered = toolsOnOffer(tools, deps.settings.approval.mode, skills.skills.length);
  const specs: ModelToolSpec[] = offered.map((t) => ({ name: t.name, description: t.description, parameters: t.schema }));
  const facts = options.subagent?.facts ?? (await workspaceFacts(root, git, deps.settings, ignore, deps.exec?.sandboxed));
  const replyEdits = new ReplyEdits();
  const toolCtx = createToolContext(deps, {
    root,
    git,
    signal: run.signal,
    emit: onToolEvent,
    ignore,
    goal: run.goal,
    changedFiles: run.changedFiles,
    pathPolicy,
    skills,
    subagents: subagentsFor(run, hooks, { tools, offered, git, facts }),
    tests: run.tests,
    replyEdits,
  });
  // A subagent's tests are judged against its parent's baseline: the child records none of its own.
  const baseline = run.options.subagent ? undefined : new EarlyBaseline(toolCtx, run.tests);
  if (baseline) toolCtx.state.beforeFirstChange = (o) => baseline.beforeChange(o);
  recordEarlier(run);
  const restoreNotes = recordRestoreNotes(run);
  const context = await buildRunContext(run, { root, facts, offered, pathPolicy, skills, specs, history: toolCtx.services.history, restoreNotes });
  run.conversation = context.conversation;
  context.conversation.keeper = createOutputKeeper(root, deps.settings.history.path, run.recorder.runId);
  toolCtx.state.resultChars = () => context.conversation.toolResultLimit;
  toolCtx.state.keepOutput = (text, tool) => context.conversation.keeper?.keep(text, tool);
  recordStart(run, git);
  announceRules(run, context.rules);
  const readOnly = new Set(offered.filter((t) => t.readOnly).map((t) => t.name));
  // Started last: the context above is built, so the suite runs alongside the model's first request.
  baseline?.startWithRun();
  return { toolCtx, tools, offered, specs, readOnly, context: context.context, rules: context.rules, replyEdits, ...(baseline ? { baseline } : {}) };
}

/** The history row, the model's windows and git's snapshot, told as `run/started` (with their warnings). */
async function announceRun(run: RunState, root: string): Promise<GitSnapshot> {
  const { deps, goal, options, recorder, emit, warn } = run;
  const git = options.subagent?.git ?? (await snapshotGit(root));
  await recorder.start(goal, { reasoning: deps.model.modelFor('reasoning'), fast: deps.model.modelFor('fast') }, options.subagent?.parentRunId);
  await loadDailySpend(run);
  const windows = await resolveWindows(deps.model, run.signal);
  emit({
    type: 'run/started',
    runId: recorder.runId,
    goal,
    mode: deps.settings.approval.mode,
    model: deps.model.modelFor('reasoning'),
    contextWindow: windows.window.tokens,
    contextWindowNote: windows.note,
    git,
  });
  windows.warnings.forEach(warn);
  if (git.warning) warn(git.warning); // a tampered repository: no git, so no auto-commit this run
  return git;
}

/** The host's path policy, or one built from the settings and the ignore rules. */
function runPathPolicy(deps: OrchestratorDeps, root: string, ignore: IgnoreRules): PathPolicy {
  return deps.pathPolicy ?? createPathPolicy(root, deps.settings.policy, (rel, isDir) => ignore.agentFilter.isIgnored(rel, isDir));
}

/** The mode applied (plan mode: read-only tools and dry runs) and each tool's own condition (load_skill: skills). */
function toolsOnOffer(tools: ToolRegistry, mode: ApprovalMode, skills: number): Tool<any>[] {
  return tools.list().filter((t) => (mode !== 'plan' || t.readOnly || t.loop?.planModeDryRun) && (t.loop?.offeredWhen?.({ skills }) ?? true));
}

/** The means to spawn child runs, lent to a top-level run that offers a tool that spawns them. */
function subagentsFor(
  run: RunState,
  hooks: RunSetupHooks,
  o: { tools: ToolRegistry; offered: Tool<any>[]; git: GitSnapshot; facts: WorkspaceFacts },
): Subagents | undefined {
  if (run.options.subagent || !o.offered.some((t) => t.loop?.spawnsRuns)) return undefined;
  const { deps, recorder, meter, emit } = run;
  return new Subagents({
    deps,
    registry: o.tools,
    offered: o.offered,
    parentRunId: () => recorder.runId,
    git: o.git,
    facts: o.facts,
    meter,
    emit,
    runChild: hooks.runChild,
  });
}

/** What a killed run is rebuilt from (core/session/resume.ts): a reference when the previous run recorded it. */
function recordEarlier(run: RunState): void {
  const { earlier, earlierRunId } = run.options;
  if (!earlier?.length) return;
  const what = earlierRunId ? { fromRun: earlierRunId } : earlier;
  run.recorder.step({ role: 'system', tool: EARLIER_STEP, text: `${earlier.length} message(s)`, arguments: asJson(what) });
}

/** The prompt and the conversation: the system prompt (a subagent's focused one), rules, memory, skills and the earlier messages. */
function buildRunContext(
  run: RunState,
  o: {
    root: string;
    facts: WorkspaceFacts;
    offered: Tool<any>[];
    pathPolicy: PathPolicy;
    skills: SkillCatalog;
    specs: ModelToolSpec[];
    history: ToolContext['services']['history'];
    restoreNotes: string[];
  },
): Promise<RunContext> {
  const { deps, goal, options, recorder, emit, warn } = run;
  const { settings } = deps;
  const mode = settings.approval.mode;
  return createRunContext(
    {
      root: o.root,
      goal: o.restoreNotes.length ? `${o.restoreNotes.join('\n')}\n\n${goal}` : goal,
      mode,
      facts: o.facts,
      // A subagent gets its focused prompt; the workspace's rules, memory and skills still follow.
      basePrompt: options.subagent
        ? buildSubagentPrompt(
            o.facts,
            mode,
            o.offered.map((t) => t.name),
          )
        : undefined,
      settings,
      model: deps.model,
      pathPolicy: o.pathPolicy,
      history: o.history,
      bundledSkillsDir: deps.bundledSkillsDir,
      calibration: deps.calibration ?? new TokenCalibration(),
      earlier: options.earlier,
      // Summaries of older work are attributed to the compaction, whichever model writes them.
      meter: run.meter.withSource('compaction'),
      onTurn: (turn) => run.reportUsage(turn),
      onCompacted: (report) => recordCompaction(report, recorder, emit),
      warn,
    },
    o.skills,
    o.specs,
  );
}

/** The run's first steps in the history: git's state, then the goal. */
function recordStart(run: RunState, git: GitSnapshot): void {
  run.recorder.step({
    role: 'system',
    text: `git ${git.isRepo ? `${git.branch ?? '-'} ${git.head ?? '(no commits)'}, dirty: ${git.dirty.join(', ') || 'none'}` : 'not a repository'}`,
  });
  run.recorder.step({ role: 'user', text: run.goal });
}

/** The daily budget counts what the workspace's other runs spent today (the history's usage rows). */
async function loadDailySpend(run: RunState): Promise<void> {
  const { budget, deps } = run;
  if (!budget || budget.limits.dailyCostUsd === undefined) return;
  if (!deps.history) {
    run.warn('patchpilot.limits.dailyCostUsd counts only this run: there is no history database to sum the day from');
    return;
  }
  try {
    budget.limits.spentTodayUsd = await deps.history.costSince(startOfLocalDay(run.clock.now()));
  } catch (err) {
    run.warn(`patchpilot.limits.dailyCostUsd counts only this run: the day's spend could not be read (${errorMessage(err)})`);
  }
}

async function workspaceFacts(
  root: string,
  git: GitSnapshot,
  settings: OrchestratorDeps['settings'],
  rules: IgnoreRules,
  sandboxed: boolean | undefined,
): Promise<WorkspaceFacts> {
  const listing = await listWorkspaceFiles(root, { maxFiles: 5000, rules });
  const top = [...new Set(listing.files.map((f) => (f.includes('/') ? f.slice(0, f.indexOf('/') + 1) : f)))].slice(0, 60);
  return {
    name: path.basename(root),
    platform: `${process.platform}`,
    git,
    testCommands: settings.tests.commands,
    afterEdit: settings.tests.afterEdit,
    topLevel: top,
    ...(sandboxed !== undefined ? { sandboxed } : {}),
  };
}

/** Restores the user made since the last run: the model hears of them with the goal, before it relies on old reads. */
function recordRestoreNotes(run: RunState): string[] {
  if (run.options.subagent) return [];
  let notes: string[];
  try {
    notes = run.deps.checkpoints?.takeNotes() ?? [];
  } catch (err) {
    run.warn(`the notes about restored files could not be read: ${errorMessage(err)}`);
    return [];
  }
  if (notes.length) run.recorder.step({ role: 'user', text: notes.join('\n') });
  return notes;
}
