/**
 * Gathers the parts of the system prompt that come from files and the history: the rules files
 * (AGENTS.md, `.patchpilot/rules/*.md` and other agents' formats: rules/), `.patchpilot/MEMORY.md`, the skills, and the BM25 hits of earlier
 * observations and Q&A summaries for the goal. Every file goes through the path policy; a part
 * that cannot be read is left out with a warning, never fails the run.
 */
import { errorMessage } from '../base/errors';
import type { HistorySearch } from '../ports';
import { MEMORY_FILE } from './memory/memoryFiles';
import type { PromptSections } from './promptAssembly';
import { discoverRules, type DiscoveryOptions } from './rules/ruleDiscovery';
import { describeActivation } from './rules/ruleFiles';
import { ActiveRules } from './rules/activeRules';
import type { SkillCatalog } from './skills/skillCatalog';
import type { WorkspaceReader } from './workspaceText';

const MAX_PROMPT_FILE_BYTES = 128 * 1024;
/** Earlier runs' hits for the goal, and the lines of each. */
const HISTORY_HITS = 5;
const HISTORY_LINE_CHARS = 240;

export interface PromptSourceDeps {
  reader: WorkspaceReader;
  skills: SkillCatalog;
  history?: HistorySearch;
  goal: string;
  /** Which rules sources are on and Roo's mode; default: all on, `code`. */
  rules?: DiscoveryOptions;
}

const ALL_RULE_SOURCES: DiscoveryOptions = {
  sources: { agentsMd: true, claudeMd: true, cursor: true, cline: true, roo: true, copilot: true },
  rooMode: 'code',
};

export async function gatherPromptSections(deps: PromptSourceDeps): Promise<{ sections: PromptSections; warnings: string[]; rules: ActiveRules }> {
  const warnings: string[] = [...deps.skills.warnings];
  const read = async (rel: string): Promise<string | undefined> => {
    try {
      const got = await deps.reader.read(rel, MAX_PROMPT_FILE_BYTES);
      if (got?.truncated) warnings.push(`${rel} is over ${MAX_PROMPT_FILE_BYTES / 1024} KB; only its beginning is used`);
      return got?.text;
    } catch (err) {
      warnings.push(`${rel} is not used in the prompt: ${errorMessage(err)}`);
      return undefined;
    }
  };

  const ruleOptions = deps.rules ?? ALL_RULE_SOURCES;
  const discovered = await discoverRules(deps.reader, ruleOptions);
  warnings.push(...discovered.warnings);
  const rules = new ActiveRules(deps.reader, discovered.rules, ruleOptions.sources, warnings);

  const memoryText = await read(MEMORY_FILE);
  const alwaysSkills: PromptSections['alwaysSkills'] = [];
  for (const s of deps.skills.always) {
    try {
      alwaysSkills.push({ name: s.name, text: await s.read() });
    } catch (err) {
      warnings.push(`skill ${s.name} (always on) could not be read: ${errorMessage(err)}`);
    }
  }
  return {
    sections: {
      ...rulesSections(rules),
      ...(memoryText?.trim() ? { memory: { source: MEMORY_FILE, text: memoryText } } : {}),
      skills: deps.skills.skills.filter((s) => !s.always).map((s) => ({ name: s.name, description: s.description })),
      alwaysSkills,
      history: await relevantHistory(deps.history, deps.goal),
    },
    warnings,
    rules,
  };
}

/** The prompt's rules parts from what the session holds now (the run rebuilds them as rules come in). */
export function rulesSections(rules: ActiveRules): Pick<PromptSections, 'rules' | 'listedRules'> {
  return {
    rules: rules.loaded.map((r) => ({ source: r.path, text: r.text, ...(r.activation.kind === 'always' ? {} : { why: describeActivation(r) }) })),
    listedRules: rules.listed.map((r) => ({ path: r.path, description: r.activation.kind === 'requested' ? r.activation.description : '' })),
  };
}

/** A few lines per earlier observation or Q&A summary that BM25 ranks highest for the goal. */
async function relevantHistory(history: HistorySearch | undefined, goal: string): Promise<string[]> {
  if (!history || !goal.trim()) return [];
  let hits;
  try {
    hits = await history.search(goal, { limit: HISTORY_HITS });
  } catch {
    // A store that fails says so once, from the recorder; the prompt just goes without these notes.
    return [];
  }
  return hits.map((h) => {
    const day = new Date(h.time).toISOString().slice(0, 10);
    const head =
      h.type === 'qa' ? `- [${day}] asked: ${oneLine(h.text)}` : `- [${day}${h.tool ? `, ${h.tool}` : ''}${h.path ? ` ${h.path}` : ''}] ${oneLine(h.text)}`;
    const detail = h.detail
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(0, h.type === 'qa' ? 2 : 1)
      .map((l, i) => `    ${h.type === 'qa' && i === 0 ? 'answer: ' : ''}${clip(l)}`);
    return [head, ...detail].join('\n');
  });
}

function oneLine(text: string): string {
  return clip(text.replace(/\s+/g, ' ').trim());
}

function clip(text: string): string {
  return text.length > HISTORY_LINE_CHARS ? `${text.slice(0, HISTORY_LINE_CHARS - 3)}...` : text;
}
