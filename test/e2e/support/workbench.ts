// Driving the VS Code workbench in Chromium (playwright-core + Debian's chromium).
//
//   openBrowser()                          launch Chromium with the flags of REAL_VSCODE.md
//   openWorkbench(browser, url)            a new page on `url`, resolved once the workbench is up
//   focusWorkbench(page)                   click the workbench so the page has keyboard focus
//   runCommand(page, title)                F1, type the command's title, wait for its row, Enter
//   waitForNotification(page, text)        the toast (a Locator) whose message contains `text`
//   openViewContainer(page, title)         click the activity-bar item titled `title` (e.g. "PatchPilot")
//   webviewFrame(page, title)              the Frame holding the DOM of the webview view titled
//                                          `title` (the inner #active-frame of VS Code's nested iframes)
//   getByRoleIn(frame, role, name)         frame.getByRole(role, { name }) (the accessible names
//                                          of the issue: "Message PatchPilot", "Send", "Approve" ...)
//   screenshot(page, name)                 a PNG in test-results/<name>.png; returns its path
//
// Every wait is on a condition with a generous time limit (`E2E_TIMEOUT`, default 60 s; scale it
// with PATCHPILOT_E2E_TIMEOUT_MS on a slow machine); none is a fixed sleep.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';
import { CHROMIUM, repoRoot } from './codeServer';

export const E2E_TIMEOUT = Number(process.env.PATCHPILOT_E2E_TIMEOUT_MS ?? 60_000);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function openBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: E2E_TIMEOUT });
}

export async function openWorkbench(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(E2E_TIMEOUT);
  await page.goto(url, { timeout: E2E_TIMEOUT });
  await page.locator('.monaco-workbench').waitFor({ state: 'visible' });
  // The status bar is rendered once the workbench has restored its parts.
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible' });
  return page;
}

export async function focusWorkbench(page: Page): Promise<void> {
  // The editor area is always there (empty when startupEditor is none) and clicking it opens nothing.
  await page.locator('#workbench\\.parts\\.editor').click({ position: { x: 200, y: 200 } });
}

export async function runCommand(page: Page, title: string, timeout = E2E_TIMEOUT * 2): Promise<void> {
  // The palette lists the commands known when it opened: right after startup the extension host may
  // not have registered ours yet, so close and reopen it until the command's row shows up.
  const input = page.locator('.quick-input-widget input.input');
  const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).first();
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = deadline - Date.now();
    try {
      if (!(await input.isVisible())) {
        await focusWorkbench(page);
        await page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: Math.min(10_000, Math.max(left, 1)) });
      }
      await input.fill(`>${title}`);
      // Enter only once this exact command is the focused row, never on a stale first row.
      await row.waitFor({ state: 'visible', timeout: Math.min(10_000, Math.max(left, 1)) });
      break;
    } catch (err) {
      if (Date.now() >= deadline) throw new Error(`command "${title}" not found in the palette within ${timeout} ms`, { cause: err });
      await page.keyboard.press('Escape').catch(() => undefined);
      await input.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }
  await input.press('Enter');
  // The palette is done once it closed, or once the command reused the quick input for its own
  // question (Run Goal's input box, a quick pick): that can happen before a poll ever sees it hidden.
  await page.waitForFunction(
    () => {
      const box = document.querySelector<HTMLInputElement>('.quick-input-widget input.input');
      return !box || !box.checkVisibility() || !box.value.startsWith('>');
    },
    undefined,
    { timeout: E2E_TIMEOUT },
  );
}

export async function waitForNotification(page: Page, text: string | RegExp, timeout = E2E_TIMEOUT): Promise<Locator> {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
  await toast.waitFor({ state: 'visible', timeout });
  return toast;
}

export async function openViewContainer(page: Page, title: string): Promise<void> {
  const item = page.locator(`#workbench\\.parts\\.activitybar .action-item a[aria-label^="${title}"]`).first();
  await item.waitFor({ state: 'visible' });
  const heading = page.locator('#workbench\\.parts\\.sidebar .composite.title .title-label');
  const shown = async (): Promise<boolean> =>
    ((await heading.textContent().catch(() => '')) ?? '').trim().toLowerCase().startsWith(title.toLowerCase()) &&
    (await heading.isVisible().catch(() => false));
  // A click while the workbench is still restoring (after a reload, on a loaded machine) can be lost,
  // so an unanswered click is repeated; never sooner than 3 s, since a click on an open one closes it.
  const deadline = Date.now() + E2E_TIMEOUT;
  let clickedAt = 0;
  while (!(await shown())) {
    if (Date.now() > deadline) throw new Error(`the view container "${title}" did not open`);
    if (Date.now() - clickedAt > 3_000) {
      await item.click();
      clickedAt = Date.now();
    }
    await page.waitForTimeout(100); // polling a condition
  }
}

/**
 * The frame with the extension's DOM for the webview view titled `title`. VS Code renders a
 * webview as an outer iframe (its host page) holding an inner iframe `#active-frame` (the
 * extension's HTML); the outer one is positioned over the view's pane. We find the visible pane
 * whose header or container title is `title`, then the webview iframe laid over it.
 */
export async function webviewFrame(page: Page, title: string, timeout = E2E_TIMEOUT * 2): Promise<Frame> {
  const deadline = Date.now() + timeout;
  let last = 'no webview iframe found';
  while (Date.now() < deadline) {
    const frame = await findWebviewFrame(page, title).catch((e: Error) => {
      last = e.message;
      return undefined;
    });
    if (frame) return frame;
    await page.waitForTimeout(250); // polling a condition, not a fixed wait for something to happen
  }
  throw new Error(`webview view "${title}" not found within ${timeout} ms: ${last}`);
}

async function findWebviewFrame(page: Page, title: string): Promise<Frame | undefined> {
  const target = await paneBox(page, title);
  if (!target) throw new Error(`no visible view or view container titled "${title}"`);
  for (const iframe of await page.locator('iframe.webview').all()) {
    const box = await iframe.boundingBox();
    if (!box || box.width < 2 || box.height < 2) continue;
    const overlap =
      Math.max(0, Math.min(box.x + box.width, target.x + target.width) - Math.max(box.x, target.x)) *
      Math.max(0, Math.min(box.y + box.height, target.y + target.height) - Math.max(box.y, target.y));
    if (overlap < (box.width * box.height) / 2) continue;
    const outer = await (await iframe.elementHandle())?.contentFrame();
    if (!outer) continue;
    for (const child of outer.childFrames()) {
      // pre/index.html loads the extension's HTML into a 'pending-frame' and renames it 'active-frame'.
      const id = await (await child.frameElement()).getAttribute('id').catch(() => null);
      if (id !== 'active-frame') continue;
      const ready = await child.evaluate('document.readyState === "complete" && !!document.body && document.body.childElementCount > 0').catch(() => false);
      if (ready) return child;
    }
  }
  return undefined;
}

/** The screen box of the body of the view (or single-view container) titled `title`. */
async function paneBox(page: Page, title: string): Promise<{ x: number; y: number; width: number; height: number } | null> {
  const lower = title.toLowerCase();
  // A view among several: its pane header's title; the webview sits in that pane's body.
  for (const pane of await page.locator('.pane').all()) {
    const header = pane.locator('.pane-header .title').first();
    if ((await header.count()) === 0) continue;
    const text = ((await header.textContent()) ?? '').trim().toLowerCase();
    if (text !== lower) continue;
    const body = pane.locator('.pane-body').first();
    if (await body.isVisible()) return body.boundingBox();
  }
  // The only view of a container: the header is hidden and the container's title shows instead
  // ("PATCHPILOT" or "PATCHPILOT: CHAT").
  for (const part of ['#workbench\\.parts\\.sidebar', '#workbench\\.parts\\.auxiliarybar', '#workbench\\.parts\\.panel']) {
    const el = page.locator(part);
    if (!(await el.isVisible().catch(() => false))) continue;
    const heading = (
      (await el
        .locator('.composite.title .title-label')
        .first()
        .textContent()
        .catch(() => '')) ?? ''
    )
      .trim()
      .toLowerCase();
    if (heading === lower || heading.startsWith(`${lower}:`) || heading.endsWith(`: ${lower}`)) {
      return el.locator('.content').first().boundingBox();
    }
  }
  return null;
}

export function getByRoleIn(frame: Frame, role: Parameters<Frame['getByRole']>[0], name: string | RegExp): Locator {
  return frame.getByRole(role, { name });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = path.join(repoRoot, 'test-results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name.replace(/[^\w.-]+/g, '_').slice(0, 120)}.png`);
  await page.screenshot({ path: file, fullPage: true, timeout: 15_000 });
  return file;
}
