/**
 * The history panel in a real VS Code (code-server + Chromium, the e2e harness) on a workspace holding
 * the benchmark's history: "PatchPilot: Show History" from the palette to the first rows drawn
 * (the browser's clock on both ends: the Enter key and the panel's first rows), cold (the window's
 * store not open yet) and warm (panel closed and shown again), and keystroke to rendered results
 * through VS Code's own message relay.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { createWorkspace, e2eAvailability } from '../../test/e2e/support/codeServer';
import { editorWebviewFrame } from '../../test/e2e/support/editorWebview';
import { launchVsCode } from '../../test/e2e/support/session';
import { focusWorkbench } from '../../test/e2e/support/workbench';

/** Enter to first rows, split at the panel document's start: before it VS Code's part (command, extension host, webview iframe), after it the panel's (script, requests, drawing). */
export interface PaintTime {
  totalMs: number;
  vscodeMs: number;
  panelMs: number;
  /** Of panelMs: from the document's start to its HTML received (VS Code's webview loader). */
  htmlMs: number;
  /** Of panelMs: from the document's start to the panel's script running (HTML received and parsed, inline CSS, the script evaluated). */
  loadMs: number;
}

export interface InVsCodeResult {
  cold: PaintTime;
  warm: PaintTime[];
  searchMs: number[];
  /** The baseline a user knows: VS Code's own Markdown preview of a one-line file, Enter to its heading drawn. */
  markdownPreviewMs: number[];
}

type Perf = { scriptStart: number; firstRows?: number; search: number[]; lastRendered?: string };

/** Opens the palette on the command's row (reopening it until the extension registered the command), then returns the browser time of the Enter that runs it. */
async function pressCommand(page: Page, title: string): Promise<number> {
  const input = page.locator('.quick-input-widget input.input');
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first();
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      if (!(await input.isVisible())) {
        // F1 from wherever the focus is (a webview forwards the workbench's keybindings); a click on
        // the editor area only when nothing covers it.
        await page.keyboard.press('F1');
        if (
          !(await input.waitFor({ state: 'visible', timeout: 3_000 }).then(
            () => true,
            () => false,
          ))
        ) {
          await focusWorkbench(page);
          await page.keyboard.press('F1');
          await input.waitFor({ state: 'visible', timeout: 10_000 });
        }
      }
      await input.fill(`>${title}`);
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      break;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await page.keyboard.press('Escape').catch(() => undefined);
    }
  }
  const at = (await page.evaluate('Date.now()')) as number;
  await input.press('Enter');
  return at;
}

/** Go to File on `name`, then "Markdown: Open Preview": the browser time from the key to the preview's heading drawn (polled every 10 ms). */
async function markdownPreviewTime(page: Page, name: string, heading: string): Promise<number> {
  await pressCommand(page, 'View: Close All Editors');
  const input = page.locator('.quick-input-widget input.input');
  await pressCommand(page, 'Go to File...');
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor({ state: 'visible', timeout: 30_000 });
  await input.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor({ state: 'visible', timeout: 30_000 });
  // Its keybinding (Ctrl+Shift+V) in the focused editor: the palette lists it only once VS Code knows the editor's language.
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
  const pressed = (await page.evaluate('Date.now()')) as number;
  await page.keyboard.press('Control+Shift+V');
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const drawn = await frame.evaluate((h) => document.querySelector('.markdown-body h1')?.textContent === h, heading).catch(() => false);
      if (drawn) return ((await page.evaluate('Date.now()')) as number) - pressed;
    }
    await page.waitForTimeout(10); // polling a condition
  }
  throw new Error('the Markdown preview did not draw its heading');
}

async function paintTime(frame: Frame, pressed: number): Promise<PaintTime> {
  // Functions, not strings: the panel's CSP has no unsafe-eval, so string predicates would be refused.
  await frame.waitForFunction(() => (window as unknown as { __ppHistoryPerf?: Perf }).__ppHistoryPerf?.firstRows !== undefined, undefined, {
    timeout: 300_000,
  });
  const { origin, rows, script, html } = await frame.evaluate(() => {
    const p = (window as unknown as { __ppHistoryPerf: Perf }).__ppHistoryPerf;
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    return { origin: performance.timeOrigin, rows: p.firstRows!, script: p.scriptStart, html: nav?.responseEnd ?? 0 };
  });
  return { totalMs: origin + rows - pressed, vscodeMs: origin - pressed, panelMs: rows, htmlMs: html, loadMs: script };
}

export async function measureInVsCode(db: string, words: () => string, warmRounds = 5, typed = 15): Promise<InVsCodeResult | string> {
  const available = e2eAvailability();
  if (!available.run) return available.reason;
  const workspace = createWorkspace({ 'README.md': '# bench\n' });
  mkdirSync(path.join(workspace, '.patchpilot'), { recursive: true });
  copyFileSync(db, path.join(workspace, '.patchpilot', 'history.db'));
  const vs = await launchVsCode({ workspace });
  try {
    // Cold: nothing opened the window's history yet; the command opens the store (a 122 MB file) first.
    const coldPressed = await pressCommand(vs.page, 'PatchPilot: Show History');
    let frame = await editorWebviewFrame(vs.page, 'PatchPilot History', 300_000);
    const cold = await paintTime(frame, coldPressed);
    const warm: PaintTime[] = [];
    for (let i = 0; i < warmRounds; i++) {
      await pressCommand(vs.page, 'View: Close All Editors');
      await vs.page
        .locator('iframe.webview')
        .first()
        .waitFor({ state: 'detached', timeout: 60_000 })
        .catch(() => undefined);
      const pressed = await pressCommand(vs.page, 'PatchPilot: Show History');
      frame = await editorWebviewFrame(vs.page, 'PatchPilot History');
      warm.push(await paintTime(frame, pressed));
    }
    const box = frame.getByRole('searchbox', { name: 'Search history' });
    for (let i = 0; i < typed; i++) {
      const word = words();
      await box.fill('');
      await box.pressSequentially(word, { delay: 100 });
      await frame.waitForFunction((w) => (window as unknown as { __ppHistoryPerf: Perf }).__ppHistoryPerf.lastRendered === w, word, { timeout: 120_000 });
    }
    const searchMs = await frame.evaluate(() => (window as unknown as { __ppHistoryPerf: Perf }).__ppHistoryPerf.search);
    const markdownPreviewMs: number[] = [];
    for (let i = 0; i < warmRounds; i++) markdownPreviewMs.push(await markdownPreviewTime(vs.page, 'README.md', 'bench'));
    return { cold, warm, searchMs, markdownPreviewMs };
  } finally {
    await vs.close();
  }
}
