/**
 * History panel benchmark: `npm run bench:history-panel`. Prints a table (copied into README).
 *
 * A workspace history of 5,000 runs and 100,000 observations (plus each run's steps, patch, test run,
 * policy verdict and Q&A summary), then:
 *  - the store: opening the file in its worker (what the first "Show History" of a window pays when
 *    nothing opened the history yet), the first page of runs, one run's timeline, search round trips
 *    through the worker;
 *  - the built panel (dist/webview/history.js) in Chromium, answered by the panel's own handlers over
 *    that store: navigation to the first rows drawn (first paint), keystroke to rendered results
 *    while typing at ~10 characters a second (search round trip), and scrolling the virtualised list
 *    through all 5,000 runs (frame times, rows in the DOM);
 *  - the same in a real VS Code (code-server, inVsCode.ts): Show History to first rows, cold and
 *    warm, and keystroke to results through VS Code's message relay (BENCH_NO_VSCODE=1 skips it).
 * BENCH_RUNS and BENCH_OBSERVATIONS change the size; BENCH_DB=FILE starts from a copy of a history
 * seeded before (the seed takes minutes). Times vary with the machine's load (printed).
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerHistoryStore } from '../../src/core/history/workerStore';
import { measureInVsCode, type PaintTime } from './inVsCode';
import { openPanelPage } from './pageHarness';
import { seedHistory, words } from './seed';

const RUNS = Number(process.env.BENCH_RUNS ?? 5_000);
const OBSERVATIONS = Number(process.env.BENCH_OBSERVATIONS ?? 100_000);
const SEARCHES = 200;
const TYPED_QUERIES = 30;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const table: Array<[string, string, string]> = [];
const add = (what: string, value: string, note = '') => {
  table.push([what, value, note]);
  process.stderr.write(`  ${what}: ${value} ${note}\n`);
};

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-panel-'));
  const db = path.join(dir, 'history.db');
  try {
    process.stderr.write(`history panel benchmark: ${RUNS} runs, ${OBSERVATIONS} observations in ${dir}\n`);
    // Each run records one Q&A summary too: the per-run observations make up the rest.
    let runIds: string[];
    if (process.env.BENCH_DB) {
      copyFileSync(process.env.BENCH_DB, db);
      runIds = [];
    } else {
      const seeded = await seedHistory({ path: db, runs: RUNS, observations: OBSERVATIONS - RUNS, days: 180 });
      runIds = seeded.runIds;
      add('seed (engine direct)', `${seeded.seconds.toFixed(0)} s`, `file ${(statSync(db).size / 1024 / 1024).toFixed(0)} MB`);
    }

    const t0 = performance.now();
    const store = await WorkerHistoryStore.open({ path: db, exitHook: false });
    add('store open in its worker (cold)', ms(performance.now() - t0), 'load, quick_check, migrate; paid once per window');
    const stats = await store.stats();
    add(
      'rows',
      `${stats.rows.runs.toLocaleString('en')} runs, ${stats.rows.observations.toLocaleString('en')} observations, ${stats.rows.steps.toLocaleString('en')} steps`,
      `file ${(statSync(db).size / 1024 / 1024).toFixed(0)} MB`,
    );
    if (runIds.length === 0) runIds = (await store.listRunPage({ limit: 1000 })).runs.map((r) => r.id);

    const page: number[] = [];
    for (let i = 0; i < 20; i++) page.push(await timed(() => store.listRunPage({ offset: 0, limit: 100 })));
    add('first page of runs (100, with counts), worker round trip p50', ms(pct(page, 50)), `p95 ${ms(pct(page, 95))}`);
    const deep = await timed(() => store.listRunPage({ offset: stats.rows.runs - 200, limit: 200 }));
    add(`last page of runs (offset ${(stats.rows.runs - 200).toLocaleString('en')})`, ms(deep));
    const one: number[] = [];
    for (let i = 0; i < 20; i++) one.push(await timed(() => store.getRun(runIds[(i * 997) % runIds.length]!)));
    add("one run's timeline rows, p50", ms(pct(one, 50)));

    const queries = Array.from({ length: SEARCHES }, (_, i) => (i % 3 === 0 ? `${words(1)} ${words(1)}` : words(1)));
    const all: number[] = [];
    const month: number[] = [];
    for (const q of queries) {
      all.push(await timed(() => store.searchHistory(q, { limit: 100, prefixLast: true })));
      month.push(await timed(() => store.searchHistory(q, { limit: 100, prefixLast: true, since: Date.now() - 30 * 86_400_000 })));
    }
    add(
      'search everything, worker round trip p50 / p95',
      `${ms(pct(all, 50))} / ${ms(pct(all, 95))}`,
      `${SEARCHES} queries, all types, top 100, last word as prefix`,
    );
    add('search, last 30 days, p50 / p95', `${ms(pct(month, 50))} / ${ms(pct(month, 95))}`);

    const panel = await openPanelPage(store);
    try {
      const paints: Array<{ fromNavigation: number; fromScript: number }> = [];
      for (let i = 0; i < 8; i++) paints.push(await panel.load());
      const warm = paints.slice(1);
      const hostBoot = panel.hostMs.get('boot')!.slice(1);
      const drawRuns = (await panel.page.evaluate(
        () => (window as unknown as { __ppHistoryPerf: { drawRuns: number[] } }).__ppHistoryPerf.drawRuns,
      )) as number[];
      add('first paint, host: status and first page put into the HTML, p50', ms(pct(hostBoot, 50)), "the window's store open; 100 runs with their counts");
      add('first paint, panel: drawing the first page, p50', ms(pct(drawRuns, 50)), 'virtualised: about 30 rows built');
      add(
        'first paint, panel script start to rows drawn, p50',
        ms(
          pct(
            warm.map((p) => p.fromScript),
            50,
          ),
        ),
        'no round trip: the first page came with the HTML',
      );
      add(
        'first paint, navigation to rows drawn, p50',
        ms(
          pct(
            warm.map((p) => p.fromNavigation),
            50,
          ),
        ),
        `parsing the HTML and inline CSS, evaluating the 129 KB script (highlight.js included), drawing; first load ${ms(paints[0]!.fromNavigation)} (browser cold)`,
      );

      // Typing: each keystroke's time to its rendered results (coalesced keystrokes are not timed).
      const box = panel.page.getByRole('searchbox', { name: 'Search history' });
      for (let i = 0; i < TYPED_QUERIES; i++) {
        const word = words(1);
        await box.fill('');
        await box.pressSequentially(word, { delay: 100 });
        await panel.page.waitForFunction(
          (w) => (window as unknown as { __ppHistoryPerf: { lastRendered?: string } }).__ppHistoryPerf.lastRendered === w,
          word,
          { timeout: 120_000 },
        );
        await panel.page.waitForTimeout(300);
      }
      const perfNow = (await panel.page.evaluate(
        () => (window as unknown as { __ppHistoryPerf: { search: number[]; drawHits: number[] } }).__ppHistoryPerf,
      )) as { search: number[]; drawHits: number[] };
      const hostSearch = panel.hostMs.get('history/search') ?? [];
      add('search, host: handler + worker, p50 / p95', `${ms(pct(hostSearch, 50))} / ${ms(pct(hostSearch, 95))}`, `${hostSearch.length} searches while typing`);
      add('search, panel: drawing the results, p50', ms(pct(perfNow.drawHits, 50)));
      add(
        'search round trip in this harness (keystroke to rendered results) p50 / p95',
        `${ms(pct(perfNow.search, 50))} / ${ms(pct(perfNow.search, 95))}`,
        `${perfNow.search.length} keystrokes timed, typing 10 chars/s; requests cross Playwright (CDP)`,
      );

      await box.fill('');
      const scroll = await panel.page.evaluate(async () => {
        const list = document.querySelector('[role=listbox][aria-label=Runs]') as HTMLElement;
        const frames: number[] = [];
        let maxRows = 0;
        let last = performance.now();
        for (let i = 0; i < 400; i++) {
          list.scrollTop += 800;
          await new Promise((r) => requestAnimationFrame(r));
          const now = performance.now();
          frames.push(now - last);
          last = now;
          maxRows = Math.max(maxRows, list.querySelectorAll('.pp-vrow').length);
        }
        const sorted = frames.sort((a, b) => a - b);
        return {
          p50: sorted[Math.floor(sorted.length / 2)]!,
          p95: sorted[Math.floor(sorted.length * 0.95)]!,
          maxRows,
          heading: document.querySelector('.pp-list-heading')?.textContent ?? '',
        };
      });
      add(
        'scrolling the runs list, frame time p50 / p95',
        `${ms(scroll.p50)} / ${ms(scroll.p95)}`,
        `400 frames of 800 px; at most ${scroll.maxRows} rows in the DOM; ${scroll.heading}`,
      );
    } finally {
      await panel.close();
    }
    await store.close();
    if (process.env.BENCH_NO_VSCODE !== '1') {
      const real = await measureInVsCode(db, () => words(1));
      if (typeof real === 'string') add('in VS Code (code-server)', 'skipped', real);
      else {
        const mid = (f: (p: PaintTime) => number) => ms(pct(real.warm.map(f), 50));
        add(
          'in VS Code: Show History to first rows, warm, p50',
          mid((p) => p.totalMs),
          `code-server + Chromium, ${real.warm.length} times, the window's store open (a run, a test or the chat opened it)`,
        );
        add(
          '  of which VS Code: command to the panel HTML received',
          mid((p) => p.vscodeMs + p.htmlMs),
          `command dispatch, extension host, webview iframe and its loader (${mid((p) => p.vscodeMs)} before the document starts)`,
        );
        add(
          '  of which the panel: HTML received to script running',
          mid((p) => p.loadMs - p.htmlMs),
          'parsing the HTML and inline CSS, evaluating the script (129 KB with highlight.js)',
        );
        add(
          '  of which the panel: script running to first rows',
          mid((p) => p.panelMs - p.loadMs),
          'the first page came with the HTML: drawing it',
        );
        add(
          'in VS Code, the baseline: Markdown: Open Preview to its heading drawn, p50',
          ms(pct(real.markdownPreviewMs, 50)),
          `VS Code's own webview of a one-line README, same window, ${real.markdownPreviewMs.length} times (its heading polled every 10 ms)`,
        );
        add(
          'in VS Code: Show History to first rows, cold',
          ms(real.cold.totalMs),
          `the window's store not open yet: it loads the file in its worker first (panel part ${ms(real.cold.panelMs)})`,
        );
        add(
          'in VS Code: keystroke to rendered results p50 / p95',
          `${ms(pct(real.searchMs, 50))} / ${ms(pct(real.searchMs, 95))}`,
          `${real.searchMs.length} keystrokes timed, typing 10 chars/s, through VS Code's message relay`,
        );
      }
    }
    add('machine', `${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}`);
    console.log('\n| measure | value | note |\n|---|---|---|');
    for (const [a, b, c] of table) console.log(`| ${a} | ${b} | ${c} |`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
