/**
 * The history panel: a search box with time and type filters over a virtualised list (runs grouped
 * by day, or search hits), and the opened run's timeline beside it. It holds nothing the store does
 * not have: it asks the host in pages, re-asks when told something changed, and keeps only its
 * filters and the open run in the webview state (a reload shows the same view).
 *
 * Search runs as you type, coalesced: one request in flight at a time, and when it returns the
 * latest text is sent if it changed meanwhile (so a keystroke never waits for a timer, and a fast
 * typist never queues stale searches).
 */
import '../chat/styles.css';
import './history.css';
import type { HistoryBoot, HistoryStatusView, HitView, SearchTypeName, TimeRange } from '../../src/protocol/history';
import { banner, button, checkbox, el, input, select } from '../shared/components';
import { HistoryClient } from './client';
import { ListPane } from './listPane';
import { installPanelPerf } from './panelPerf';
import { problemBanners, statusLineContent } from './statusView';
import { TIME_CHOICES, timeRange, type TimeChoice } from './timeFilter';
import { renderRun, type TimelineActions } from './timelineView';
import { RestoreControls } from '../shared/restorePreview';
import { renderUsageDays } from './usageView';

interface Saved {
  query: string;
  time: TimeChoice;
  from: string;
  to: string;
  types: SearchTypeName[];
  runId?: string;
}

const TYPES: ReadonlyArray<{ value: SearchTypeName; label: string }> = [
  { value: 'runs', label: 'Runs' },
  { value: 'observations', label: 'Observations' },
  { value: 'patches', label: 'Patches' },
  { value: 'tests', label: 'Tests' },
];

const client = new HistoryClient();
const saved = (client.api.getState() as Saved | undefined) ?? { query: '', time: 'all', from: '', to: '', types: TYPES.map((t) => t.value) };
const state: Saved = { ...saved, types: [...saved.types] };

let openRunId: string | undefined = state.runId;
let searching = false;
let searchDirty = false;
/** Keystroke times by query text, for the benchmark's "keystroke to rendered results". */
const typedAt = new Map<string, number>();
const perf = installPanelPerf();

// --- layout ---------------------------------------------------------------------------------
const app = document.getElementById('app')!;
const header = el('div', 'pp-filters');
header.setAttribute('role', 'search');
const searchBox = input({
  name: 'Search history',
  type: 'search',
  placeholder: 'Search goals, messages, tool results, patches, tests…',
  value: state.query,
  onInput: (v) => onQuery(v),
});
const timeSelect = select({ name: 'Time filter', options: TIME_CHOICES, value: state.time, onChange: (v) => ((state.time = v), onFilters()) });
const fromBox = input({ name: 'From date', type: 'date', value: state.from, onInput: (v) => ((state.from = v), onFilters()) });
const toBox = input({ name: 'To date', type: 'date', value: state.to, onInput: (v) => ((state.to = v), onFilters()) });
const range = el('span', 'pp-range');
range.append(fromBox, document.createTextNode(' to '), toBox);
const typeSet = el('fieldset', 'pp-types');
typeSet.append(el('legend', undefined, 'Search in'));
for (const t of TYPES) {
  typeSet.append(
    checkbox({
      label: t.label,
      checked: state.types.includes(t.value),
      onChange: (on) => {
        state.types = on ? [...new Set([...state.types, t.value])] : state.types.filter((x) => x !== t.value);
        onFilters();
      },
    }).root,
  );
}
const refresh = button({ label: 'Refresh', name: 'Refresh history', variant: 'secondary', onClick: () => void refreshAll() });
const usageButton = button({ label: 'Usage', name: 'Show model usage by day', variant: 'secondary', onClick: () => void showUsageDays() });
header.append(searchBox, timeSelect, range, typeSet, refresh, usageButton);

const bannerSlot = el('div', 'pp-banner-slot');
const statusLine = el('div', 'pp-status');
const toast = el('div', 'pp-toast');
toast.setAttribute('role', 'status');

const body = el('div', 'pp-body');
const list = new ListPane({
  client,
  perf,
  range: () => currentRange(),
  searching: () => !!state.query.trim(),
  openRunId: () => openRunId,
  openRun: (runId) => void openRun(runId, undefined, true),
  openHit: (hit) => void openHit(hit),
});
const detail = el('section', 'pp-detail');
detail.setAttribute('aria-label', 'Run details');
detail.append(el('p', 'pp-note', 'Choose a run to see its timeline.'));
body.append(list.root, detail);
app.replaceChildren(header, bannerSlot, statusLine, body, toast);

searchBox.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowDown') {
    e.preventDefault();
    list.focus();
  } else if (e.key === 'Escape' && searchBox.value) {
    e.preventDefault();
    searchBox.value = '';
    onQuery('');
  }
});
searchBox.addEventListener('input', () => typedAt.set(searchBox.value, performance.now()), { capture: true });

client.listen({
  'history/changed': ({ runIds }) => void onChanged(runIds),
  'history/status': (s) => showStatus(s),
  'history/focus': () => searchBox.focus(),
});

// --- behaviour ------------------------------------------------------------------------------
function save(): void {
  state.runId = openRunId;
  client.api.setState(state);
}

function currentRange(): TimeRange {
  return timeRange(state.time, Date.now(), state.from, state.to);
}

function showMode(): void {
  list.showMode();
  range.hidden = state.time !== 'range';
}

function onQuery(value: string): void {
  state.query = value;
  save();
  if (!value.trim()) {
    list.clearHits();
    return;
  }
  if (searching) {
    searchDirty = true;
    return;
  }
  void runSearch();
}

async function runSearch(): Promise<void> {
  searching = true;
  const query = state.query;
  try {
    // No type chosen finds nothing (the store reads an empty list as "every type", as the CLI does).
    const r = state.types.length
      ? await client.request('history/search', { query, types: state.types, prefix: true, ...currentRange() })
      : { hits: [], terms: [] };
    if (state.query.trim()) {
      const t0 = performance.now();
      const hits = r.hits;
      list.showHits(hits, r.terms, state.types.length ? 'No matches in this time range and these types.' : 'Choose at least one type to search in.');
      say(
        !state.types.length
          ? 'Choose at least one type to search in.'
          : hits.length
            ? `${hits.length}${hits.length >= 100 ? ' or more' : ''} result${hits.length === 1 ? '' : 's'} for "${query}".`
            : `No matches for "${query}".`,
      );
      perf.drawHits.push(performance.now() - t0);
      perf.lastRendered = query;
      const typed = typedAt.get(query);
      if (typed !== undefined && query === state.query) perf.search.push(performance.now() - typed);
      // Keystrokes whose text was overtaken are not timed; the current text's keystroke waits for its own results.
      for (const text of [...typedAt.keys()]) if (text === query || text !== state.query) typedAt.delete(text);
    }
  } catch (err) {
    say(`Search failed: ${(err as Error).message}`);
  } finally {
    searching = false;
    if (searchDirty) {
      searchDirty = false;
      if (state.query.trim()) void runSearch();
    }
  }
}

function onFilters(): void {
  save();
  showMode();
  void list.loadRuns();
  if (state.query.trim()) onQuery(state.query);
}

/** Days the usage view covers. */
const USAGE_DAYS = 14;

/** The workspace's usage per day and source, in the detail pane (a run opened later replaces it). */
async function showUsageDays(): Promise<void> {
  openRunId = undefined;
  save();
  const { days } = await client.request('history/usage', { days: USAGE_DAYS });
  if (openRunId !== undefined) return;
  detail.replaceChildren(renderUsageDays(days, USAGE_DAYS));
  detail.scrollTop = 0;
  detail.querySelector<HTMLElement>('.pp-goal')?.focus({ preventScroll: true });
}

/** `focusHeading`: the user opened it (Enter in the list): the focus moves to its heading, read out. */
async function openRun(runId: string, focusId?: string, focusHeading = false): Promise<void> {
  openRunId = runId;
  save();
  const { timeline } = await client.request('history/run', { runId });
  if (openRunId !== runId) return;
  if (!timeline) {
    detail.replaceChildren(el('p', 'pp-note', 'This run is no longer in the history (it was deleted or pruned).'));
    return;
  }
  const shownTerms = state.query.trim() ? list.terms : [];
  // Drawn again while the run works: what the reader had opened stays open.
  const opened = new Set([...detail.querySelectorAll<HTMLElement>('[data-id]')].filter((li) => li.querySelector('details[open]')).map((li) => li.dataset.id));
  detail.replaceChildren(renderRun(timeline, actions(runId), shownTerms));
  for (const li of detail.querySelectorAll<HTMLElement>('[data-id]')) {
    if (opened.has(li.dataset.id)) li.querySelectorAll('details').forEach((d) => (d.open = true));
  }
  if (focusId) {
    const target = detail.querySelector<HTMLElement>(`[data-id="${CSS.escape(focusId)}"]`);
    if (target) {
      target.querySelectorAll('details').forEach((d) => (d.open = true));
      target.classList.add('pp-focus');
      target.scrollIntoView({ block: 'center' });
      target.focus({ preventScroll: true });
    }
  } else {
    detail.scrollTop = 0;
    if (focusHeading) detail.querySelector<HTMLElement>('.pp-goal')?.focus({ preventScroll: true });
  }
}

async function openHit(hit: HitView): Promise<void> {
  if (hit.runId) return openRun(hit.runId, hit.kind === 'run' ? undefined : hit.id);
  detail.replaceChildren(el('h2', 'pp-goal', hit.title), el('pre', 'pp-code', hit.snippet), el('p', 'pp-note', 'This row belongs to no run.'));
}

const restores = new RestoreControls({
  preview: (r) => client.request('history/restorePreview', r),
  diff: (r, path) => client.request('history/restoreDiff', { ...r, path }),
  apply: (r, restoreRest) => client.request('history/restoreApply', { ...r, restoreRest }),
});

function actions(runId: string): TimelineActions {
  const run = async <R extends { ok: boolean; message: string }>(p: Promise<R>, after?: () => void) => {
    // A dialog (save, confirm) or a diff review takes the focus away: it comes back to the button pressed.
    const pressed = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    try {
      const r = await p;
      say(r.message);
      if (r.ok) after?.();
    } catch (err) {
      say((err as Error).message);
    }
    if (pressed?.isConnected && (document.activeElement === document.body || !document.activeElement)) pressed.focus();
  };
  return {
    restores,
    openLink: (url) => void client.request('history/openLink', { url }),
    openPatch: (patchId) => void run(client.request('history/openPatch', { runId, patchId })),
    applyAgain: (patchId) => void run(client.request('history/applyAgain', { runId, patchId })),
    revert: (patchId) => {
      say('Reverting the patch. When PatchPilot asks first, the change waits for you in the diff editor: Accept or Reject it there.');
      void run(client.request('history/revert', { runId, patchId }));
    },
    exportRun: (format) => void run(client.request('history/export', { runId, format })),
    continueInChat: () => void run(client.request('history/continueInChat', { runId })),
    deleteRun: () =>
      void run(client.request('history/delete', { runId }), () => {
        openRunId = undefined;
        save();
        detail.replaceChildren(el('p', 'pp-note', 'The run was deleted.'));
        list.focus();
        void list.loadRuns();
        if (state.query.trim()) onQuery(state.query);
      }),
  };
}

function say(message: string): void {
  toast.textContent = message;
}

async function onChanged(runIds: string[]): Promise<void> {
  await list.loadRuns();
  if (openRunId && (runIds.length === 0 || runIds.includes(openRunId))) {
    const scroll = detail.scrollTop;
    await openRun(openRunId);
    detail.scrollTop = scroll;
  }
}

function showStatus(s: HistoryStatusView): void {
  restores.setRunning(s.running === true);
  const statusActions = {
    applyRetention: () => void client.request('history/applyRetention', {}).then((x) => (say(x.message), list.loadRuns())),
    openSettings: () => void client.request('history/openSettings', {}),
    retry: () => void refreshAll(),
  };
  statusLine.replaceChildren(...statusLineContent(s, statusActions));
  bannerSlot.replaceChildren(...problemBanners(s, statusActions));
}

/** Status and the first page are asked at once: the first rows do not wait for the status round trip. */
async function refreshAll(): Promise<void> {
  const status = client.request('history/ready', {});
  const first = list.loadRuns().then(
    () => true,
    () => false,
  );
  const s = await status;
  showStatus(s);
  if (!s.available || !(await first)) return;
  if (state.query.trim()) onQuery(state.query);
  if (openRunId) await openRun(openRunId);
}

/** The first page the host put into the HTML (when its store was open): drawn without a round trip. */
function bootData(): HistoryBoot | undefined {
  const text = document.getElementById('pp-boot')?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as HistoryBoot;
  } catch {
    return undefined;
  }
}

showMode();
searchBox.focus(); // the first thing to do here, and what Show History focuses when shown again
const boot = bootData();
if (boot && state.time === 'all') {
  showStatus(boot.status);
  list.setRuns(boot.runs, boot.total);
  if (state.query.trim()) onQuery(state.query);
  if (openRunId) void openRun(openRunId);
} else {
  void refreshAll().catch((err: Error) => bannerSlot.replaceChildren(banner(`The history could not be loaded: ${err.message}`, 'error')));
}
