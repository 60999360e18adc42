import type { ApprovalMode, PatchPilotSettings } from '../config/settings';
import type { ModelMessage, ModelToolSpec, ModelTurn } from '../llm/types';
import type { UsageMeter } from '../llm/usageMeter';
import type { ChatModel, HistorySearch, PathPolicy } from '../ports';
import { promptBudgetFor } from './budget';
import { ContextManager, MAX_TOOL_RESULT_CHARS, type CompactionReport } from './contextManager';
import { Conversation } from './conversation';
import { assembleSystemPrompt } from './promptAssembly';
import { gatherPromptSections } from './promptSources';
import { loadSkillCatalog, type SkillCatalog } from './skills/skillCatalog';
import { buildSystemPrompt, type WorkspaceFacts } from './systemPrompt';
import type { TokenCalibration } from './tokenCounter';
import { workspaceReader } from './workspaceText';

export interface RunContextInput {
  root: string;
  goal: string;
  mode: ApprovalMode;
  facts: WorkspaceFacts;
  /** The prompt's first part; default: the main agent's (buildSystemPrompt). A subagent passes its focused one. */
  basePrompt?: string;
  settings: Pick<PatchPilotSettings, 'context' | 'llm'>;
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
  const { sections, warnings } = await gatherPromptSections({
    reader: workspaceReader(input.root, input.pathPolicy),
    skills,
    history: input.history,
    goal: input.goal,
  });
  for (const w of warnings) input.warn(w);
  const base =
    input.basePrompt ??
    buildSystemPrompt(
      input.facts,
      input.mode,
      tools.map((t) => t.name),
    );
  const system = assembleSystemPrompt(base, sections, budget.tokens, (text) => input.calibration.scale(model, Math.ceil(text.length / 4)));
  if (system.cut.length) input.warn(`cut to fit the context budget of ${budget.tokens} tokens: ${system.cut.join(', ')}`);
  const conversation = new Conversation(system.text, input.goal, MAX_TOOL_RESULT_CHARS, input.earlier);
  const context = new ContextManager(conversation, tools, conversation.goal, {
    settings: input.settings,
    model: input.model,
    calibration: input.calibration,
    meter: input.meter,
    onTurn: input.onTurn,
    onCompacted: input.onCompacted,
    warn: input.warn,
  });
  return { conversation, context, skills };
}
