// One real VS Code for one test: code-server + Chromium + the workbench page, cleaned up always.
//
//   e2eTest(name, fn, options?)   a node:test test that skips (with the reason) when the real VS
//                                 Code cannot run, else runs fn(vs) inside withVsCode; a failure
//                                 is printed and retried once in a fresh VS Code
//   withVsCode(options, fn, name) start, run fn(vs), on failure save a screenshot
//                                 (test-results/<name>.png) and add code-server's log to the
//                                 error; always stop Chromium and code-server (no orphan processes)
//   launchVsCode(options)         the same without the try/finally: returns a VsCodeSession
//   beforeRetry(fn)               fn runs before a failed e2eTest's second attempt (a scripted
//                                 model back to its first turn, a shared workspace made again)
//
// VsCodeSession: { server: CodeServer, browser, page, workspace,
//                  runCommand(title), waitForNotification(text), webviewFrame(title),
//                  openViewContainer(title), readFile(rel), writeFile(rel, text), screenshot(name),
//                  reload(), close() }
// Options: everything of startCodeServer (settings, workspaceTrust, workspace, extension,
// extraExtensions, env) plus `files` (a fresh workspace with these files) and `payload` (extra
// URL payload entries, e.g. extensionDevelopmentPath, or a function of the running CodeServer).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Browser, Frame, Locator, Page } from 'playwright-core';
import { createWorkspace, e2eAvailability, startCodeServer, type CodeServer, type CodeServerOptions } from './codeServer';
import * as wb from './workbench';

export interface VsCodeOptions extends CodeServerOptions {
  files?: Record<string, string>;
  /** Extra URL payload entries; a function gets the running server (for its remoteUri). */
  payload?: [string, string][] | ((server: CodeServer) => [string, string][]);
}

export interface VsCodeSession {
  readonly server: CodeServer;
  readonly browser: Browser;
  readonly page: Page;
  readonly workspace: string;
  runCommand(title: string): Promise<void>;
  waitForNotification(text: string | RegExp, timeout?: number): Promise<Locator>;
  openViewContainer(title: string): Promise<void>;
  webviewFrame(title: string, timeout?: number): Promise<Frame>;
  readFile(rel: string): string;
  writeFile(rel: string, text: string): void;
  screenshot(name: string): Promise<string>;
  /** Reload the window (as "Developer: Reload Window" would) and wait for the workbench. */
  reload(): Promise<void>;
  close(): Promise<void>;
}

export async function launchVsCode(options: VsCodeOptions = {}): Promise<VsCodeSession> {
  const ownWorkspace = options.workspace === undefined && options.files !== undefined;
  const workspace = ownWorkspace ? createWorkspace(options.files) : options.workspace;
  const removeOwnWorkspace = (): void => {
    if (ownWorkspace && process.env.PATCHPILOT_E2E_KEEP !== '1') rmSync(workspace!, { recursive: true, force: true });
  };
  let server: CodeServer;
  try {
    server = await startCodeServer({ ...options, workspace });
  } catch (err) {
    removeOwnWorkspace();
    throw err;
  }
  let browser: Browser | undefined;
  try {
    browser = await wb.openBrowser();
    const page = await wb.openWorkbench(browser, server.workbenchUrl(typeof options.payload === 'function' ? options.payload(server) : options.payload));
    const b = browser;
    return {
      server,
      browser: b,
      page,
      workspace: server.workspace,
      runCommand: (title) => wb.runCommand(page, title),
      waitForNotification: (text, timeout) => wb.waitForNotification(page, text, timeout),
      openViewContainer: (title) => wb.openViewContainer(page, title),
      webviewFrame: (title, timeout) => wb.webviewFrame(page, title, timeout),
      readFile: (rel) => readFileSync(path.join(server.workspace, rel), 'utf8'),
      writeFile: (rel, text) => {
        mkdirSync(path.dirname(path.join(server.workspace, rel)), { recursive: true });
        writeFileSync(path.join(server.workspace, rel), text);
      },
      screenshot: (name) => wb.screenshot(page, name),
      async reload() {
        await page.reload();
        await page.locator('#workbench\\.parts\\.statusbar').waitFor({ state: 'visible' });
      },
      async close() {
        await b.close().catch(() => undefined);
        await server.stop();
        removeOwnWorkspace();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    const logs = server.logs();
    await server.stop();
    removeOwnWorkspace();
    throw new Error(`${(err as Error).message}\n--- code-server output ---\n${logs.slice(-4000)}`);
  }
}

export async function withVsCode<T>(options: VsCodeOptions, fn: (vs: VsCodeSession) => Promise<T>, name = 'vscode'): Promise<T> {
  const vs = await launchVsCode(options);
  try {
    return await fn(vs);
  } catch (err) {
    const shot = await vs.screenshot(`${name}-failure`).catch((e: Error) => `(no screenshot: ${e.message})`);
    const e = err as Error;
    throw new Error(
      `${e.message}\nscreenshot: ${shot}\n--- code-server output (tail) ---\n${vs.server.logs().slice(-4000)}\n--- PatchPilot log (tail) ---\n${vs.server.extensionLog()}`,
      { cause: err },
    );
  } finally {
    await vs.close();
  }
}

const retryHooks: (() => unknown)[] = [];

/** Runs before the second attempt of a failed e2eTest in this file: put back what the first attempt used up. */
export function beforeRetry(fn: () => unknown): void {
  retryHooks.push(fn);
}

/** A node:test test in a real VS Code; skipped with the reason when code-server is not installed. */
export function e2eTest(name: string, fn: (vs: VsCodeSession, t: TestContext) => Promise<void>, options: VsCodeOptions = {}): void {
  const availability = e2eAvailability();
  if (!availability.run) {
    test(name, { skip: availability.reason }, () => undefined);
    return;
  }
  test(name, { timeout: 8 * 60_000 }, async (t) => {
    try {
      await withVsCode(options, (vs) => fn(vs, t), name);
    } catch (first) {
      // One retry in a fresh VS Code: a workbench on a loaded 2-core CI machine sometimes drops a
      // click or a frame. The first failure is printed whole, so a flaky test stays visible, and a
      // real bug fails twice.
      const message = first instanceof Error ? (first.stack ?? first.message) : String(first);
      t.diagnostic(`first attempt failed, retrying once in a fresh VS Code: ${message.split('\n')[0]}`);
      process.stderr.write(`\n[e2e retry] "${name}" failed once; retrying in a fresh VS Code.\n${message}\n`);
      for (const hook of retryHooks) await hook();
      await withVsCode(options, (vs) => fn(vs, t), `${name}-retry`);
    }
  });
}
