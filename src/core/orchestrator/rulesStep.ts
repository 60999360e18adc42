/**
 * Rules files come in as the run works: after a step's calls, the files each successful call read
 * or changed (ToolLoopTraits.readsFiles / changesFiles) are noted; the nested AGENTS.md / CLAUDE.md
 * of their folders and the glob rules they match come with the result of the call that touched them,
 * their text whole, never as a rewrite of the system prompt (that would cost the provider's prompt
 * cache every token after it: context/runContext.ts); the viewers hear of them (`rules/loaded`).
 */
import type { RuleView } from '../../protocol/agentEvents';
import { describeRulesLoaded } from '../../protocol/rulesLoaded';
import type { RunRules } from '../context/runContext';
import type { LoadedRule } from '../context/rules/activeRules';
import type { Tool, ToolResult } from '../tools/types';
import type { RunState } from './runState';

/** The views of loaded rules, for `rules/loaded`. */
export function ruleViews(rules: readonly LoadedRule[]): RuleView[] {
  return rules.map((r) => ({ path: r.rule.path, why: r.why, ...(r.rule.activation.kind === 'requested' ? { listed: true } : {}) }));
}

/** The rules of the start, told once (nothing when there are none). */
export function announceRules(run: RunState, rules: RunRules): void {
  if (rules.initial.length) tell(run, ruleViews(rules.initial), true);
}

/** To the viewers, and to the history (which rules steered the run is part of its audit trail). */
function tell(run: RunState, rules: RuleView[], initial: boolean): void {
  run.emit({ type: 'rules/loaded', initial, rules });
  run.recorder.step({ role: 'system', text: describeRulesLoaded(rules, initial) });
}

/** Per call id, the note to add to its result about the rules it brought in. */
export async function noteRulesOfCalls(
  run: RunState,
  rules: RunRules,
  executed: readonly { call: { id: string; name: string }; args: Record<string, unknown>; result: ToolResult }[],
  toolOf: (name: string) => Tool<any> | undefined,
): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  for (const x of executed) {
    if (!x.result.ok) continue;
    const paths = filesOfCall(toolOf(x.call.name), x.args);
    if (!paths.length) continue;
    const added = await rules.noteFiles(paths);
    if (!added.length) continue;
    tell(run, ruleViews(added), false);
    notes.set(x.call.id, rulesNote(added));
  }
  return notes;
}

function filesOfCall(tool: Tool<any> | undefined, args: Record<string, unknown>): string[] {
  const loop = tool?.loop;
  if (!loop) return [];
  const changed = loop.changesFiles?.(args);
  return [...(loop.readsFiles?.(args) ?? []), ...(Array.isArray(changed) ? changed : [])];
}

/** Longest text of one rule carried in a tool result; the rest is in its file. */
const RULE_TEXT_CHARS = 8_000;

/** The rules a call brought in, their text whole (up to a size), for the end of its result. */
function rulesNote(added: readonly LoadedRule[]): string {
  const parts = added.map(({ rule, why }) => {
    const text = rule.text.trim();
    const body =
      text.length > RULE_TEXT_CHARS ? `${text.slice(0, RULE_TEXT_CHARS)}\n[... cut at ${RULE_TEXT_CHARS} characters; read ${rule.path} for the rest]` : text;
    return `## ${rule.path} (${why})\n${body}`;
  });
  return `\n\n[Rules files that now apply (project instructions, follow them like those in your system prompt):\n${parts.join('\n\n')}\n]`;
}
