/**
 * The transcript's one-line notes for agent events that need no state of their own: model notices
 * and retries, warnings, the rules loaded, a summarized context, and the words for an approval answered.
 */
import type { AgentEvent } from '../../src/protocol/agentEvents';
import { describeRulesLoaded } from '../../src/protocol/rulesLoaded';
import { el } from '../shared/components';

/** What an approval was for, in words. */
const APPROVAL_WORDS: Record<string, string> = {
  command: 'the command',
  write: 'the file write',
  tests: 'the test run',
  fetch: 'the web fetch',
  mcp: 'the MCP server',
  hook: 'the workspace hook',
};

/** The note an event adds to the transcript, or undefined when the transcript shows nothing for it. */
export function noteLine(e: AgentEvent): HTMLElement | undefined {
  switch (e.type) {
    case 'model/notice':
      return el('div', `pp-notice pp-notice-${e.kind === 'refusal' ? 'error' : 'warning'}`, e.message);
    case 'user/delivered':
      return el('div', 'pp-note', 'Your message reached the model.');
    case 'model/retrying':
      return el('div', 'pp-note', `Trying the model again (attempt ${e.attempt}) in ${(e.delayMs / 1000).toFixed(1)} s: ${e.reason}`);
    case 'warning':
      return el('div', 'pp-notice pp-notice-warning', e.message);
    case 'rules/loaded': {
      // The files steering the agent, in the run's header area: the user sees which rules it follows.
      const line = el('div', 'pp-notice pp-rules', describeRulesLoaded(e.rules, e.initial));
      line.setAttribute('role', 'note');
      return line;
    }
    case 'context/summarized': {
      const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n));
      return el('div', 'pp-notice', `Context summarized: ${k(e.beforeTokens)} → ${k(e.afterTokens)} tokens (budget ${k(e.budgetTokens)})`);
    }
    default:
      return undefined;
  }
}

/** The user's answer in words: what they accepted of a patch (how many hunks, their own edit), or what they allowed. */
export function answeredWords(e: Extract<AgentEvent, { type: 'approval/answered' }>): string {
  if (e.kind !== 'patch') {
    const what = APPROVAL_WORDS[e.kind] ?? e.kind;
    if (e.unattended) return `Nobody could approve ${what}, so it did not run.`;
    return e.approved ? `You allowed ${what}.` : `You declined ${what}.`;
  }
  if (e.unattended) return 'Nobody could review the patch, so nothing was written.';
  if (e.edited) return 'You accepted the patch with your own edit: your version is what gets written.';
  const accepted = e.accepted?.length ?? 0;
  const total = e.total ?? accepted + (e.rejected?.length ?? 0);
  if (!e.approved || accepted === 0) return 'You rejected the patch; nothing was written.';
  if (accepted === total) return `You accepted the patch (${total === 1 ? 'its one hunk' : `all ${total} hunks`}).`;
  return `You accepted ${accepted} of ${total} hunks of the patch.`;
}
