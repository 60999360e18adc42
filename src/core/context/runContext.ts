import type { ApprovalMode, PatchPilotSettings } from '../config/settings';
import type { ModelMessage, ModelToolSpec, ModelTurn } from '../llm/types';
import type { UsageMeter } from '../llm/usageMeter';
import type { ChatModel, HistorySearch, PathPolicy } from '../ports';
import { promptBudgetFor } from './budget';
import { ContextManager, MAX_TOOL_RESULT_CHARS, type CompactionReport } from './contextManager';
import { Conversation } from './conversation';
import { goalNotes, memoryNote, modeNote, notesMissing } from './goalNotes';
import { MEMORY_FILE } from './memory/memoryFiles';
import { assembleSystemPrompt, fitToShare, SECTION_SHARES } from './promptAssembly';
import { gatherPromptSections, rulesSections } from './promptSources';
import { rooModeFor } from './rules/ruleFiles';
import type { LoadedRule } from './rules/activeRules';
import { loadSkillCatalog, type SkillCatalog } from './skills/skillCatalog';
import { buildSystemPrompt, type WorkspaceFacts } from './systemPrompt';
import { goalWithLiveState } from './liveState';
import type { TokenCalibration } from './tokenCounter';
import { workspaceReader } from './workspaceText';

export interface RunContextInput {
  root: string;
  goal: string;
  mode: ApprovalMode;
  facts: WorkspaceFacts;
  /** The prompt's first part; default: the main agent's (buildSystemPrompt). A subagent passes its focused one. */
  basePrompt?: string;
  /** `rules`: which rules sources are on (default: all). */
  settings: Pick<PatchPilotSettings, 'context' | 'llm'> & Partial<Pick<PatchPilotSettings, 'rules'>>;
  model: Pick<ChatModel, 'modelFor' | 'contextWindow' | 'complete'>;
  pathPolicy: PathPolicy;
  history?: HistorySearch;
  bundledSkillsDir?: string;
  calibration: TokenCalibration;
  earlier?: readonly ModelMessage[];
  meter?: UsageMeter;
  onTurn?(turn: ModelTurn): void;
  onCompacted(report: CompactionReport): void;
  warn(message: string): void;
}

export interface RunContext {
  conversation: Conversation;
  context: ContextManager;
  skills: SkillCatalog;
  rules: RunRules;
}

/** The run's rules files: those in force from the start, and the means to bring in more as files come into play. */
export interface RunRules {
  initial: LoadedRule[];
  /** Files the run read or edited: the rules they bring in (none twice), for the result of the call that touched them. */
  noteFiles(paths: readonly string[]): Promise<LoadedRule[]>;
}

/** Loads the skills first: the tools offered depend on them (no load_skill without skills). */
export async function loadRunSkills(input: Pick<RunContextInput, 'root' | 'pathPolicy' | 'bundledSkillsDir'>): Promise<SkillCatalog> {
  return loadSkillCatalog({ bundledDir: input.bundledSkillsDir, workspace: workspaceReader(input.root, input.pathPolicy) });
}

/**
 * Everything a run's context needs at its start: the system prompt (assembled within the budget
 * from the workspace's files, the skills and the history), the conversation with the chat's
 * earlier turns, and the manager that keeps it within the budget step by step.
 */
export async function createRunContext(input: RunContextInput, skills: SkillCatalog, tools: readonly ModelToolSpec[]): Promise<RunContext> {
  const model = input.model.modelFor('reasoning');
  const budget = promptBudgetFor(input.settings, model, input.model.contextWindow('reasoning'));
  const { sections, warnings, rules } = await gatherPromptSections({
    reader: workspaceReader(input.root, input.pathPolicy),
    skills,
    history: input.history,
    goal: input.goal,
    rules: input.settings.rules ? { sources: input.settings.rules, rooMode: rooModeFor(input.mode) } : undefined,
  });
  for (const w of warnings) input.warn(w);
  const base =
    input.basePrompt ??
    buildSystemPrompt(
      input.facts,
      tools.map((t) => t.name),
    );
  const tokensOf = (text: string) => input.calibration.scale(model, Math.ceil(text.length / 4));
  const assemble = (standing: string[] = []) => {
    // Earlier runs' notes depend on the goal: they go with it (liveState.ts), so the system prompt stays the same across goals.
    const system = assembleSystemPrompt(base, { ...sections, history: [], standing, ...rulesSections(rules) }, budget.tokens, tokensOf);
    if (system.cut.length) input.warn(`cut to fit the context budget of ${budget.tokens} tokens: ${system.cut.join(', ')}`);
    return system.text;
  };
  // The mode and the memory ride with the goal when the chat does not state them as they are now (goalNotes.ts).
  const memory = sections.memory && {
    ...sections.memory,
    text: fitToShare('memory', sections.memory.text, Math.floor(budget.tokens * SECTION_SHARES.memory), tokensOf),
  };
  if (memory && memory.text !== sections.memory?.text) input.warn(`cut to fit the context budget of ${budget.tokens} tokens: memory`);
  const isMain = input.basePrompt === undefined;
  const standing = [...(isMain ? [modeNote(input.mode, input.facts.sandboxed)] : []), ...(memory ? [memoryNote(memory.source, memory.text)] : [])];
  const notes = goalNotes({ mode: input.mode, sandboxed: input.facts.sandboxed, memory, memorySource: MEMORY_FILE, withMode: isMain }, input.earlier ?? []);
  // A subagent's task comes from its parent, which saw the state; its own prompt names the top level.
  const goal = goalWithLiveState(input.goal, isMain ? input.facts : undefined, sections.history, notes);
  const conversation = new Conversation(assemble(), goal, MAX_TOOL_RESULT_CHARS, input.earlier);
  // Rules that joined since the system prompt was assembled: their text rides in the result of the
  // call that brought them in (orchestrator/rulesStep.ts), so the prompt's prefix stays the same
  // byte for byte and the provider's cache keeps serving it. A compaction rewrites the conversation
  // (the cache is lost there anyway) and may summarize that result away: then they join the system prompt.
  // So do the mode and the memory when the compaction dropped the earlier exchange that stated them.
  let rulesJoined = false;
  const context = new ContextManager(conversation, tools, conversation.goal, {
    settings: input.settings,
    model: input.model,
    calibration: input.calibration,
    meter: input.meter,
    onTurn: input.onTurn,
    onCompacted: (report) => {
      const missing = notesMissing(standing, conversation.messages.slice(1));
      if (rulesJoined || missing.length) {
        const system = assemble(missing);
        // Unchanged: no rewrite (a rewrite makes the next count start over).
        if (system !== conversation.messages[0]?.content) conversation.setSystem(system);
      }
      rulesJoined = false;
      input.onCompacted(report);
    },
    warn: input.warn,
  });
  const runRules: RunRules = {
    initial: rules.initial,
    async noteFiles(paths) {
      const { added, warnings: problems } = await rules.notePaths(paths);
      problems.forEach(input.warn);
      if (added.length) rulesJoined = true;
      return added;
    },
  };
  return { conversation, context, skills, rules: runRules };
}
