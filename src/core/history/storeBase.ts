/**
 * The async HistoryStore surface, written once over a `call(method, args)` transport: the worker
 * client posts messages, the in-process store calls the engine directly.
 */
import { Emitter, type Event } from '../base';
import type { Notifier } from '../ports';
import type { EngineArgs, EngineMethod, EngineResult } from './worker/protocol';
import type { UsageDayView, UsageInput, UsageTotalsView } from './usage';
import {
  HISTORY_TABLES,
  type AuditRecord,
  type DeleteRunResult,
  type HistoryReport,
  type HistoryStats,
  type HistoryStore,
  type ListRunsOptions,
  type MemoryFactInput,
  type MemoryFactRecord,
  type ObservationInput,
  type ObservationOutcome,
  type PatchInput,
  type PolicyDecisionInput,
  type PruneResult,
  type RunDetail,
  type RetentionOptions,
  type RunFinish,
  type RunPage,
  type RunPageOptions,
  type RunStart,
  type RunSummary,
  type StepInput,
  type TestRunInput,
} from './types';
import { type HistorySearchOptions, type HistorySearchResult, type SearchHit, type SearchOptions } from './searchTypes';

const AUDIT_PAGE = 1_000;

export abstract class StoreBase implements HistoryStore {
  protected readonly reports = new Emitter<HistoryReport>();
  readonly onDidReport: Event<HistoryReport> = this.reports.event;
  warnings: readonly HistoryReport[] = [];
  protected closed = false;
  private readonly exitHook = () => this.flushOnExit();

  constructor(
    readonly path: string,
    private readonly notifier: Notifier | undefined,
    installExitHook: boolean,
  ) {
    if (installExitHook) process.on('exit', this.exitHook);
  }

  protected abstract call<M extends EngineMethod>(method: M, args: EngineArgs<M>): Promise<EngineResult<M>>;
  /** Synchronous last-chance save from process.on('exit'). */
  protected abstract flushOnExit(): void;
  protected abstract shutdown(): Promise<void>;

  /** Reports go to listeners and, if given, to the host's Notifier (a VS Code warning, a CLI stderr line). */
  protected emit(report: HistoryReport): void {
    this.reports.fire(report);
    if (!this.notifier) return;
    if (report.kind === 'persist-recovered') this.notifier.info(report.message);
    else if (report.kind === 'persist-failed') this.notifier.error(report.message);
    else this.notifier.warn(report.message);
  }

  startRun(input: RunStart): Promise<string> {
    return this.call('startRun', [input]);
  }
  finishRun(runId: string, input: RunFinish): Promise<void> {
    return this.call('finishRun', [runId, input]);
  }
  addStep(runId: string, input: StepInput): Promise<{ id: string; seq: number }> {
    return this.call('addStep', [runId, input]);
  }
  addPatch(runId: string, input: PatchInput): Promise<string> {
    return this.call('addPatch', [runId, input]);
  }
  addTestRun(input: TestRunInput): Promise<string> {
    return this.call('addTestRun', [input]);
  }
  recordObservation(input: ObservationInput): Promise<ObservationOutcome> {
    return this.call('recordObservation', [input]);
  }
  recordQaSummary(runId: string | null, question: string, answer: string): Promise<string> {
    return this.call('recordQaSummary', [runId, question, answer]);
  }
  addPolicyDecision(input: PolicyDecisionInput): Promise<string> {
    return this.call('addPolicyDecision', [input]);
  }
  addUsage(input: UsageInput): Promise<string> {
    return this.call('addUsage', [input]);
  }
  runUsage(runId: string): Promise<UsageTotalsView[]> {
    return this.call('runUsage', [runId]);
  }
  usageByDay(days: number): Promise<UsageDayView[]> {
    return this.call('usageByDay', [days]);
  }
  costSince(since: number): Promise<number> {
    return this.call('costSince', [since]);
  }
  rememberFact(input: MemoryFactInput): Promise<void> {
    return this.call('rememberFact', [input]);
  }
  listFacts(scope?: string): Promise<MemoryFactRecord[]> {
    return this.call('listFacts', [scope]);
  }
  listRuns(options?: ListRunsOptions): Promise<RunSummary[]> {
    return this.call('listRuns', [options]);
  }
  getRun(runId: string): Promise<RunDetail | undefined> {
    return this.call('getRun', [runId]);
  }
  listRunPage(options?: RunPageOptions): Promise<RunPage> {
    return this.call('listRunPage', [options]);
  }
  search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.call('search', [query, options]);
  }
  searchHistory(query: string, options?: HistorySearchOptions): Promise<HistorySearchResult> {
    return this.call('searchHistory', [query, options]);
  }
  deleteRun(runId: string): Promise<DeleteRunResult> {
    return this.call('deleteRun', [runId]);
  }
  prune(retention?: RetentionOptions): Promise<PruneResult> {
    return this.call('prune', [retention]);
  }
  stats(): Promise<HistoryStats> {
    return this.call('stats', []);
  }
  async *exportAll(): AsyncIterable<AuditRecord> {
    for (const table of HISTORY_TABLES) {
      for (let offset = 0; ; offset += AUDIT_PAGE) {
        const page = await this.call('auditPage', [table, offset, AUDIT_PAGE]);
        yield* page;
        if (page.length < AUDIT_PAGE) break;
      }
    }
  }
  flush(): Promise<void> {
    return this.call('flush', []);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.call('close', []); // throws (and stays open) if the last save fails
    this.closed = true;
    process.off('exit', this.exitHook);
    this.reports.dispose();
    await this.shutdown();
  }
}
