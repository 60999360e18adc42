/**
 * The demo model's "mind": a fixed walk through the sample workspace's bug (formatDate prints the
 * month 0-based), decided from the conversation the client sends, like a real model would see it:
 * run the tests, read dates.js, propose a patch built from the lines it read, run the tests again,
 * finish. Every reply says it is a demo. Anything off that path (no dates.js, a rejected patch, no
 * test command) ends the walk with an honest summary instead of improvising.
 */
import type { ReplyToolCall, WireReply } from './wireReply';

export const DEMO_MODEL_ID = 'patchpilot-demo';
/** The demo's answer where a real model would write prose (insights, summaries). */
export const DEMO_PLAIN_TEXT = 'Written by the demo model (scripted, not a language model): a real model would summarise the run here.';
const TARGET = 'dates.js';
const BUGGY = /getUTCMonth\(\)(?!\s*\+\s*1)/;
const SET_UP = 'To work on your own code, set up a real model: run "PatchPilot: Select Model" (provider, endpoint, key and model in one go).';

/** What the client sent, reduced to what the walk needs: the tool calls since the user's last message and their results. */
interface Step {
  name: string;
  result: string;
}

type Message = { role?: unknown; content?: unknown; tool_calls?: unknown; tool_call_id?: unknown };

export function nextDemoReply(messages: readonly Message[]): WireReply {
  const steps = stepsSinceUser(messages);
  const last = steps.at(-1);
  const did = (name: string) => steps.filter((s) => s.name === name);

  if (!last) {
    return call(
      "**Demo model** (scripted replies, not a real language model). I walk the sample workspace's failing date test so you can see the whole loop: run the tests, read the code, propose a patch for you to review, test again.\n\nFirst, the tests.",
      'run_tests',
      {},
    );
  }
  if (last.name === 'run_tests' && did('propose_patch').length === 0) {
    const failing = /FAIL\s+([^\n]+)/.exec(last.result)?.[1]?.trim();
    const seen = failing
      ? `The test "${failing}" fails.`
      : /no test commands are configured/.test(last.result)
        ? 'No test command is configured here, so I go by the code.'
        : 'Now the code.';
    return call(`${seen} \`formatDate\` lives in \`${TARGET}\`; reading it.`, 'read_file', { path: TARGET });
  }
  if (last.name === 'read_file') {
    if (/no such file|not found|denied/i.test(last.result)) {
      return finish(
        `The demo model only knows the sample project's date bug, and this workspace has no \`${TARGET}\` to fix. To see the whole loop, run "PatchPilot: Open the Sample Project" (a copy of the sample, opened in this window). ${SET_UP}`,
      );
    }
    const patch = fixPatch(fileLines(last.result));
    if (!patch) return finish(`\`${TARGET}\` already adds 1 to the 0-based month, so there is nothing left for the demo to fix. ${SET_UP}`);
    return call(
      '`getUTCMonth()` counts months from 0 (January is 0), so March prints as `02`. Adding 1 fixes it. Here is the patch: review it in the diff editor, accept or reject each hunk.',
      'propose_patch',
      { patch },
    );
  }
  if (last.name === 'propose_patch') {
    if (/^applied \d+ hunk|edited the change/m.test(last.result)) {
      // PatchPilot runs the tests after each applied edit; their verdict is in the result already.
      return /^tests (passed|FAILED)/m.test(last.result) ? finish(doneSummary(last.result)) : call('Applied. Running the tests again.', 'run_tests', {});
    }
    if (/rejected the patch/.test(last.result)) {
      const reason = /The user said: ([^\n]+)/.exec(last.result)?.[1] ?? /^\s+\S+: (.+)$/m.exec(last.result)?.[1];
      return finish(
        `You rejected the patch${reason ? ` ("${reason}")` : ''}, so nothing was changed. A real model would take your reason into account and try again; the demo stops here. ${SET_UP}`,
      );
    }
    return finish(`The patch was not applied:\n\n${firstLines(last.result, 6)}\n\nThe demo stops here. ${SET_UP}`);
  }
  if (last.name === 'run_tests') return finish(doneSummary(last.result));
  // PatchPilot refused a finish over failing tests: the demo has nothing else to try, and says so.
  if (last.name === 'finish') return finish(`The tests still fail, and the demo model has nothing else to try. ${SET_UP}`);
  return finish(`The demo model has no scripted answer for this step. ${SET_UP}`);
}

function doneSummary(testResult: string): string {
  const verdict = /^tests passed/m.test(testResult)
    ? 'The tests pass.'
    : /no test commands are configured/.test(testResult)
      ? 'No test command is configured here, so run the tests yourself to confirm.'
      : 'The tests still report failures; see their output above.';
  return `Fixed \`formatDate\` in \`${TARGET}\`: the month is now \`getUTCMonth() + 1\`. ${verdict}\n\nThat was the whole loop with the demo model. ${SET_UP}`;
}

/** Tool calls (with their results) after the last message the user typed; notes PatchPilot adds do not count as typed. */
function stepsSinceUser(messages: readonly Message[]): Step[] {
  let start = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user' && !textOf(m).startsWith('[PatchPilot]')) start = i + 1;
  });
  const names = new Map<string, string>();
  const steps: Step[] = [];
  for (const m of messages.slice(start)) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const c of m.tool_calls as { id?: string; function?: { name?: string } }[]) if (c.id && c.function?.name) names.set(c.id, c.function.name);
    }
    if (m.role === 'tool' && typeof m.tool_call_id === 'string') steps.push({ name: names.get(m.tool_call_id) ?? 'unknown', result: textOf(m) });
  }
  return steps;
}

function textOf(m: Message): string {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.map((p: { text?: string }) => p?.text ?? '').join('');
  return '';
}

/** The file's lines from read_file's numbered listing ("<n>\t<line>"). */
function fileLines(result: string): string[] {
  const lines: string[] = [];
  for (const row of result.split('\n')) {
    const m = /^\s*(\d+)\t(.*)$/.exec(row);
    if (m) lines[Number(m[1]) - 1] = m[2]!;
  }
  return lines.map((l) => l ?? '');
}

/** A unified diff for the first 0-based month in the lines read, with up to three lines of context either side. */
export function fixPatch(lines: string[]): string | undefined {
  const at = lines.findIndex((l) => BUGGY.test(l));
  if (at < 0) return undefined;
  const fixed = lines[at]!.replace(BUGGY, 'getUTCMonth() + 1');
  const from = Math.max(0, at - 3);
  const to = Math.min(lines.length, at + 4);
  const body = lines.slice(from, to).flatMap((l, i) => (from + i === at ? [`-${l}`, `+${fixed}`] : [` ${l}`]));
  const count = to - from;
  return [`--- a/${TARGET}`, `+++ b/${TARGET}`, `@@ -${from + 1},${count} +${from + 1},${count} @@`, ...body, ''].join('\n');
}

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n');
}

let calls = 0;
function call(text: string, name: string, args: Record<string, unknown>): WireReply {
  const toolCalls: ReplyToolCall[] = [{ id: `demo_${name}_${++calls}`, name, arguments: args }];
  return { text, toolCalls, textChunkSize: 6 };
}

/** The summary is the run's last word; the chat shows it once, as the finish. */
function finish(summary: string): WireReply {
  return call('', 'finish', { summary });
}
