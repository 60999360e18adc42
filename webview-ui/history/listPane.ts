/**
 * The panel's list pane: the runs grouped by day (asked from the host in pages as the list scrolls)
 * or, while the search box has text, the search results, under a heading with their count.
 */
import type { HitView, RunRowView, TimeRange } from '../../src/protocol/history';
import type { QueryTerm } from '../../src/protocol/historyMatch';
import { el } from '../shared/components';
import type { HistoryClient } from './client';
import { hitRows, renderRow, RUN_ROW_HEIGHT, runRows, type ListRow } from './listRows';
import type { PanelPerf } from './panelPerf';
import { VirtualList } from './virtualList';

/** Runs per request: a screen shows about 15; the list asks for more as it scrolls. */
const PAGE = 100;

export interface ListPaneOptions {
  client: HistoryClient;
  perf: PanelPerf;
  /** The time filter's range now: the runs are asked within it. */
  range: () => TimeRange;
  /** Whether the search box has text (the search results are shown instead of the runs). */
  searching: () => boolean;
  /** The run open in the detail pane: selected in the runs list when it is drawn. */
  openRunId: () => string | undefined;
  openRun: (runId: string) => void;
  openHit: (hit: HitView) => void;
}

export class ListPane {
  readonly root = el('section', 'pp-list-pane');
  private readonly heading = el('h2', 'pp-list-heading', 'Runs');
  private readonly runList: VirtualList<ListRow>;
  private readonly hitList: VirtualList<ListRow>;
  private runs: RunRowView[] = [];
  private total = 0;
  private loadingMore = false;
  private hits: HitView[] = [];
  private shownTerms: QueryTerm[] = [];

  constructor(private readonly o: ListPaneOptions) {
    this.heading.id = 'pp-list-heading';
    this.runList = new VirtualList<ListRow>({
      label: 'Runs',
      render: renderRow,
      onOpen: (row) => row.kind === 'run' && o.openRun(row.run.id),
      onNearEnd: () => void this.loadMore(),
      empty: 'No runs recorded yet. Run a goal from the chat, then they appear here.',
    });
    this.hitList = new VirtualList<ListRow>({
      label: 'Search results',
      render: renderRow,
      onOpen: (row) => row.kind === 'hit' && o.openHit(row.hit),
      empty: 'No matches.',
    });
    this.root.setAttribute('aria-labelledby', this.heading.id);
    this.root.append(this.heading, this.runList.root, this.hitList.root);
  }

  /** The words the shown search results matched (the opened run's timeline marks them too). */
  get terms(): QueryTerm[] {
    return this.shownTerms;
  }

  /** Shows the runs list or the search results (as the search box has text), and the heading's count. */
  showMode(): void {
    const searchingNow = this.o.searching();
    this.runList.root.hidden = searchingNow;
    this.hitList.root.hidden = !searchingNow;
    const hits = this.hits.length;
    this.heading.textContent = searchingNow ? `Search results (${hits}${hits >= 100 ? '+' : ''})` : `Runs (${this.total.toLocaleString()})`;
  }

  /** The keyboard goes to the list shown (or about to be: the search box has text). */
  focus(): void {
    (this.o.searching() ? this.hitList : this.runList).root.focus();
  }

  /** Asks the first pages again (as many runs as are shown, up to 1,000), as after a change. */
  async loadRuns(): Promise<void> {
    const limit = Math.min(1_000, Math.max(PAGE, this.runs.length));
    const page = await this.o.client.request('history/runs', { offset: 0, limit, ...this.o.range() });
    this.setRuns(page.runs, page.total);
  }

  /** Draws runs the panel already has (the host's first page in the HTML). */
  setRuns(runs: RunRowView[], total: number): void {
    this.runs = runs;
    this.total = total;
    this.drawRuns();
  }

  private async loadMore(): Promise<void> {
    if (this.loadingMore || this.runs.length >= this.total) return;
    this.loadingMore = true;
    try {
      const page = await this.o.client.request('history/runs', { offset: this.runs.length, limit: PAGE, ...this.o.range() });
      const have = new Set(this.runs.map((x) => x.id));
      this.runs = [...this.runs, ...page.runs.filter((x) => !have.has(x.id))];
      this.total = Math.max(page.total, this.runs.length);
      this.drawRuns();
    } finally {
      this.loadingMore = false;
    }
  }

  private drawRuns(): void {
    const t0 = performance.now();
    const rows = runRows(this.runs, Date.now());
    const range = this.o.range();
    this.runList.setItems(
      rows,
      // The runs not yet asked for take their room, so the scrollbar shows the whole list.
      Math.max(0, this.total - this.runs.length) * RUN_ROW_HEIGHT,
      range.since !== undefined || range.until !== undefined ? 'No runs in this time range.' : undefined,
    );
    const openRunId = this.o.openRunId();
    if (openRunId) this.runList.select(openRunId);
    this.showMode();
    this.o.perf.firstRows ??= performance.now();
    this.o.perf.drawRuns.push(performance.now() - t0);
  }

  /** Shows a search's results from the top; `empty` says why there are none. */
  showHits(hits: HitView[], terms: QueryTerm[], empty: string): void {
    this.hits = hits;
    this.shownTerms = terms;
    this.hitList.setItems(hitRows(hits), 0, empty);
    this.hitList.scrollToTop();
    this.showMode();
  }

  /** The search box was emptied: the results are forgotten and the runs shown. */
  clearHits(): void {
    this.hits = [];
    this.shownTerms = [];
    this.showMode();
  }
}
