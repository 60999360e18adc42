import type { AgentEvent, RoleUsageView } from '../../protocol/agentEvents';
import { formatTokens } from '../../core/context';
import { describeTestsOutcome } from '../../core/orchestrator';
import { describeRulesLoaded } from '../../protocol/rulesLoaded';
import { describeCheckpointProgress } from '../../protocol/checkpointProgress';

/**
 * Human progress on stderr: the model's text as it streams (its reasoning too with `reasoning`,
 * after a "thinking:" label), one line per tool call and test run, notices about the reply (a
 * refusal, a part not read), the parser's warnings about a patch, each proposed patch as a diff in a
 * dry run, the step number on a terminal, and the run's tokens and cost per model at the end.
 */
export function progressPrinter(err: NodeJS.WritableStream = process.stderr, options: { steps?: boolean; reasoning?: boolean } = {}): (e: AgentEvent) => void {
  const steps = options.steps ?? (err as { isTTY?: boolean }).isTTY === true;
  const showReasoning = options.reasoning === true;
  let midLine = false;
  /** What the stream is printing now, so the switch from reasoning to the answer gets its own line. */
  let streaming: 'reasoning' | 'text' | undefined;
  const line = (text: string) => {
    if (midLine) err.write('\n');
    midLine = false;
    err.write(`${text}\n`);
  };
  let dryRun = false;
  // What streams and what the mode decides is printed here; every other event is a line of its own (eventLines).
  return (e) => {
    switch (e.type) {
      case 'run/started':
        dryRun = e.mode === 'plan';
        line(
          `patchpilot: ${e.mode} mode, model ${e.model}${e.contextWindowNote ? `, ${e.contextWindowNote}` : ''}${e.git.isRepo ? `, ${e.git.branch ?? 'detached'} @ ${e.git.head?.slice(0, 10) ?? 'no commits'}` : ''}`,
        );
        break;
      case 'step/started':
        streaming = undefined;
        if (steps) line(`[step ${e.step}]`);
        break;
      case 'reasoning/delta':
        if (!showReasoning) break;
        if (streaming !== 'reasoning') line('thinking:');
        streaming = 'reasoning';
        err.write(e.text);
        midLine = !e.text.endsWith('\n');
        break;
      case 'reasoning/fromText':
        line(
          showReasoning
            ? "[the text above was the model's reasoning, not its answer]"
            : "[the text above was the model's reasoning, not its answer; --show-reasoning labels it]",
        );
        streaming = undefined;
        break;
      case 'text/delta':
        if (streaming === 'reasoning') line('answer:');
        streaming = 'text';
        err.write(e.text);
        midLine = !e.text.endsWith('\n');
        break;
      case 'patch/proposed':
        for (const w of e.warnings ?? []) line(`  patch warning: ${w}`);
        // A dry run writes nothing: the diff is what the user came for.
        if (dryRun && e.diff) line(`--- proposed patch (dry run, not applied) ---\n${e.diff.trimEnd()}\n---`);
        break;
      default:
        for (const text of eventLines(e)) line(text);
    }
  };
}

/** The lines an event prints that depend on nothing printed before it (no stream, no mode). */
function eventLines(e: AgentEvent): string[] {
  switch (e.type) {
    case 'model/notice':
      return [`${e.kind === 'refusal' ? 'refusal' : 'notice'}: ${e.message}`];
    case 'text/restart':
      return [`[the reply broke off and is being retried: ${e.reason}]`];
    case 'model/retrying':
      return [`[model: ${e.reason}; retry ${e.attempt} in ${(e.delayMs / 1000).toFixed(1)} s]`];
    case 'tool/started':
      return [`> ${e.name} ${brief(e.args)}`];
    case 'checkpoint/progress':
      return [`  ${describeCheckpointProgress(e)}`];
    case 'tool/finished':
      return [`  ${e.ok ? 'ok' : 'failed'}: ${firstLine(e.output)}`];
    case 'test/started':
      // Only a wait is worth a line (the baseline an edit waits for); the run's own start shows in its result.
      return e.note ? [`  tests: ${e.note}`] : [];
    case 'test/finished':
      return [`  tests: ${e.command} -> ${e.exitCode === 0 ? 'passed' : `exit ${e.exitCode}`}${e.summary ? ` (${firstLine(e.summary)})` : ''}`];
    case 'warning':
      return [`warning: ${e.message}`];
    case 'hook/ran':
      // An error or a refusal comes as a warning too; what blocked is worth its own line.
      return e.outcome === 'blocked' ? [`  ${e.event} hook blocked${e.tool ? ` ${e.tool}` : ''}: ${e.reason ?? ''}`] : [];
    case 'subagent/started':
      return [`  subagent ${e.index} started: ${firstLine(e.task)}`];
    case 'subagent/finished':
      return [`  subagent ${e.index} ${e.status} after ${e.steps} step${e.steps === 1 ? '' : 's'}${e.status === 'finished' ? '' : `: ${e.reason}`}`];
    case 'context/summarized':
      return [`[${describeCompaction(e)}]`];
    case 'rules/loaded':
      return [describeRulesLoaded(e.rules, e.initial)];
    case 'run/finished':
      return [
        `patchpilot: ${e.status} after ${e.steps} step${e.steps === 1 ? '' : 's'}: ${e.reason}`,
        ...(e.tests ? [`patchpilot: ${describeTestsOutcome(e.tests, e.testFailures)}`] : []),
        ...(e.usage ? [`patchpilot: ${usageLine(e.usage)}`] : []),
      ];
    default:
      return [];
  }
}

/** "context summarized: 41k -> 6k tokens (38 messages; budget 8k)" */
export function describeCompaction(e: Extract<AgentEvent, { type: 'context/summarized' }>): string {
  const k = formatTokens;
  const details = [
    e.summarizedMessages
      ? `${e.summarizedMessages} message${e.summarizedMessages === 1 ? '' : 's'}${e.digest ? ' listed without a model summary' : e.model ? ` by ${e.model}` : ''}`
      : '',
    e.droppedSummaries ? `${e.droppedSummaries} old summar${e.droppedSummaries === 1 ? 'y' : 'ies'} dropped` : '',
    e.droppedExchanges ? `${e.droppedExchanges} earlier exchange${e.droppedExchanges === 1 ? '' : 's'} dropped` : '',
    e.cutMessages ? `${e.cutMessages} message${e.cutMessages === 1 ? '' : 's'} cut` : '',
    `budget ${k(e.budgetTokens)}`,
  ].filter(Boolean);
  return `context summarized: ${k(e.beforeTokens)} -> ${k(e.afterTokens)} tokens (${details.join('; ')})`;
}

function brief(args: unknown): string {
  const text = JSON.stringify(args) ?? '';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function firstLine(text: string): string {
  const first = text.split('\n', 1)[0] ?? '';
  return first.length > 160 ? `${first.slice(0, 157)}...` : first;
}

/** "tokens: m1 1,234 in (900 cached) / 56 out (3 requests); fast m2 300 in / 20 out (1 request); cost $0.0012" */
export function usageLine(u: { reasoning: RoleUsageView; fast: RoleUsageView; totalCost?: number }): string {
  const part = (label: string, r: RoleUsageView) =>
    `${label}${r.model} ${r.promptTokens.toLocaleString('en-US')} in${r.cachedTokens ? ` (${r.cachedTokens.toLocaleString('en-US')} cached)` : ''} / ${r.completionTokens.toLocaleString('en-US')} out (${r.requests} request${r.requests === 1 ? '' : 's'})`;
  const parts = [part('', u.reasoning)];
  if (u.fast.requests > 0) parts.push(part('fast ', u.fast));
  const priced = u.totalCost !== undefined ? `; cost $${u.totalCost.toFixed(4)}` : '; cost unknown (no price for the model)';
  return `tokens: ${parts.join('; ')}${priced}`;
}
