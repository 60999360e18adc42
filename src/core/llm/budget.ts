/**
 * The spend limits of one goal (patchpilot.limits.maxTokens, maxCostUsd) and of the workspace's day
 * (dailyCostUsd, with what earlier runs of the day spent): the arithmetic, pure. A request whose
 * prompt is known is checked before it is sent (its prompt tokens, priced at the model's input
 * rate, added to what was spent); its reply's size is not known, so a reply that crosses a limit
 * stops the run right after it. The run's meter asks (UsageGuard); RunBudget answers.
 */
import { costOf } from './prices';
import type { RequestEstimate, UsageGuard, UsageTotals } from './usageMeter';

export interface BudgetLimits {
  maxTokens?: number;
  maxCostUsd?: number;
  dailyCostUsd?: number;
  /** USD the workspace's other runs spent today (from the history) when this run started. */
  spentTodayUsd?: number;
}

export type BudgetLimitName = 'maxTokens' | 'maxCostUsd' | 'dailyCostUsd';

export interface BudgetStop {
  limit: BudgetLimitName;
  /** 'before': the request was not sent; 'after': the reply that crossed the limit came back. */
  when: 'before' | 'after';
  /** One sentence: which limit, and what was spent. */
  message: string;
}

const SETTING: Record<BudgetLimitName, string> = {
  maxTokens: 'patchpilot.limits.maxTokens',
  maxCostUsd: 'patchpilot.limits.maxCostUsd',
  dailyCostUsd: 'patchpilot.limits.dailyCostUsd',
};

export function formatUsd(usd: number): string {
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

const tokensOf = (t: UsageTotals) => t.promptTokens + t.completionTokens;

/** "spent 4,120 tokens and $0.0123 in 7 requests" (the cost only when something was priced). */
export function describeSpent(t: UsageTotals, spentTodayUsd = 0): string {
  const cost = t.cost !== undefined ? ` and ${formatUsd(t.cost)}` : '';
  const today = spentTodayUsd > 0 ? ` (earlier runs today: ${formatUsd(spentTodayUsd)})` : '';
  return `spent ${tokensOf(t).toLocaleString('en-US')} tokens${cost} in ${t.requests} request${t.requests === 1 ? '' : 's'}${today}`;
}

function limitWords(limit: BudgetLimitName, l: BudgetLimits): string {
  if (limit === 'maxTokens') return `the token budget of ${l.maxTokens!.toLocaleString('en-US')} (${SETTING.maxTokens})`;
  if (limit === 'maxCostUsd') return `the cost budget of ${formatUsd(l.maxCostUsd!)} (${SETTING.maxCostUsd})`;
  return `the daily budget of ${formatUsd(l.dailyCostUsd!)} for this workspace (${SETTING.dailyCostUsd})`;
}

/** Which limit sending this request would cross, if any (checked in the order tokens, cost, day). */
export function wouldCross(l: BudgetLimits, spent: UsageTotals, next: RequestEstimate): BudgetStop | undefined {
  const nextCost = costOf({ promptTokens: next.promptTokens, completionTokens: 0, estimated: true }, next.price) ?? 0;
  const limit = limitOver(l, tokensOf(spent) + next.promptTokens, (spent.cost ?? 0) + nextCost);
  if (!limit) return undefined;
  const size = `about ${next.promptTokens.toLocaleString('en-US')} prompt tokens${nextCost > 0 ? `, ${formatUsd(nextCost)}` : ''}`;
  return {
    limit,
    when: 'before',
    message: `the next request (${size}) was not sent: it would cross ${limitWords(limit, l)}; ${describeSpent(spent, l.spentTodayUsd)}`,
  };
}

/** Which limit the totals crossed, if any (a reply's size is known only once it came). */
export function crossed(l: BudgetLimits, spent: UsageTotals): BudgetStop | undefined {
  const limit = limitOver(l, tokensOf(spent), spent.cost ?? 0);
  if (!limit) return undefined;
  return { limit, when: 'after', message: `a reply crossed ${limitWords(limit, l)}; ${describeSpent(spent, l.spentTodayUsd)}` };
}

/** The first limit (tokens, cost, day) these totals are over. */
function limitOver(l: BudgetLimits, tokens: number, cost: number): BudgetLimitName | undefined {
  if (l.maxTokens !== undefined && tokens > l.maxTokens) return 'maxTokens';
  if (l.maxCostUsd !== undefined && cost > l.maxCostUsd) return 'maxCostUsd';
  if (l.dailyCostUsd !== undefined && (l.spentTodayUsd ?? 0) + cost > l.dailyCostUsd) return 'dailyCostUsd';
  return undefined;
}

export function hasLimits(l: BudgetLimits): boolean {
  return l.maxTokens !== undefined || l.maxCostUsd !== undefined || l.dailyCostUsd !== undefined;
}

/** Thrown to the request that was refused; the run's signal is aborted first, so the loop ends as stopped. */
export class BudgetExceededError extends Error {
  constructor(readonly stop: BudgetStop) {
    super(stop.message);
    this.name = 'BudgetExceededError';
  }
}

/**
 * The guard of a run's meter: the first stop is kept and reported once (`onStop` aborts the run);
 * after it every request is refused, so nothing more is spent while the run winds down.
 */
export class RunBudget implements UsageGuard {
  private stopped: BudgetStop | undefined;

  constructor(
    readonly limits: BudgetLimits,
    private readonly onStop: (stop: BudgetStop) => void,
  ) {}

  get stop(): BudgetStop | undefined {
    return this.stopped;
  }

  admit(request: RequestEstimate, totals: UsageTotals): void {
    if (!this.stopped) {
      const stop = wouldCross(this.limits, totals, request);
      if (stop) this.trip(stop);
    }
    if (this.stopped) throw new BudgetExceededError(this.stopped);
  }

  recorded(totals: UsageTotals): void {
    if (this.stopped) return;
    const stop = crossed(this.limits, totals);
    if (stop) this.trip(stop);
  }

  private trip(stop: BudgetStop): void {
    this.stopped = stop;
    this.onStop(stop);
  }
}
