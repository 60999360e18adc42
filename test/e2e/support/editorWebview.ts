// A webview panel in the editor area (the history panel), found by its document's <title>: VS Code
// renders it as an outer iframe.webview holding the extension's page in an inner frame; the one
// shown is the one whose outer iframe has a size on screen.
import type { Frame, Page } from 'playwright-core';
import { E2E_TIMEOUT } from './workbench';

export async function editorWebviewFrame(page: Page, documentTitle: string, timeout = E2E_TIMEOUT * 2): Promise<Frame> {
  const deadline = Date.now() + timeout;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if ((await frame.title().catch(() => '')) !== documentTitle) continue;
      const outer = frame.parentFrame();
      const box = await (await outer?.frameElement().catch(() => null))?.boundingBox().catch(() => null);
      const ready = await frame.evaluate('document.readyState === "complete" && !!document.getElementById("app")').catch(() => false);
      if (box && box.width > 2 && box.height > 2 && ready) return frame;
    }
    await page.waitForTimeout(250); // polling a condition
  }
  throw new Error(`no visible webview titled "${documentTitle}" within ${timeout} ms`);
}
