// The in-host test entry (VS Code's `extensionTestsPath`): runs every suite/*.inhost.ts (built to
// out/inhost/suite/*.inhost.js by test/e2e/support/inhost.ts) with mocha inside the real extension
// host, so the suites `import * as vscode from 'vscode'` and drive the real API.
//
// Writing a suite: test/inhost/suite/<area>.inhost.ts, with `import { describe, it } from 'mocha'`
// (bdd) and node:assert. Files must not end in .test.ts (that is the node:test runner's pattern).
//
// Results: when PATCHPILOT_INHOST_REPORT_URL is set (the code-server runner sets it), each finished
// test and the final report are POSTed there as JSON, since a browser-hosted workbench never exits
// on its own. run() also rejects when a test failed, which is what @vscode/test-electron reads.
// PATCHPILOT_INHOST_GREP (a regular expression) runs only the matching tests.
import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Mocha from 'mocha';

export interface InhostFailure {
  title: string;
  error: string;
  stack?: string;
}
export interface InhostReport {
  kind: 'report';
  total: number;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  failures: InhostFailure[];
  vscodeVersion: string;
  /** Added by the runner outside the host when something failed: a screenshot, PatchPilot's log. */
  diagnostics?: string;
}

function post(body: unknown): Promise<void> {
  const url = process.env.PATCHPILOT_INHOST_REPORT_URL;
  if (!url) return Promise.resolve();
  return new Promise((resolve) => {
    const data = JSON.stringify(body);
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    });
    req.on('error', () => resolve()); // reporting must never break the run; the runner times out instead
    req.end(data);
  });
}

function suiteFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...suiteFiles(full));
    else if (entry.name.endsWith('.inhost.js')) out.push(full);
  }
  return out.sort();
}

export async function run(): Promise<void> {
  // Required lazily so that this module loads even where 'vscode' is not (never the case in the host).
  const vscode = (await import('vscode')) as typeof import('vscode');
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (process.env.PATCHPILOT_INHOST_GREP) mocha.grep(new RegExp(process.env.PATCHPILOT_INHOST_GREP));
  for (const file of suiteFiles(path.join(__dirname, 'suite'))) mocha.addFile(file);
  const failures: InhostFailure[] = [];
  let passed = 0;
  let pending = 0;
  const started = Date.now();
  const pendingPosts: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (t) => {
      passed++;
      pendingPosts.push(post({ kind: 'test', state: 'passed', title: t.fullTitle(), durationMs: t.duration }));
    });
    runner.on('pending', (t) => {
      pending++;
      pendingPosts.push(post({ kind: 'test', state: 'pending', title: t.fullTitle() }));
    });
    runner.on('fail', (t, err: Error) => {
      failures.push({ title: t.fullTitle(), error: String(err?.message ?? err), stack: err?.stack });
      pendingPosts.push(post({ kind: 'test', state: 'failed', title: t.fullTitle(), error: String(err?.message ?? err) }));
    });
  });
  await Promise.all(pendingPosts);
  const report: InhostReport = {
    kind: 'report',
    total: passed + failures.length + pending,
    passed,
    failed: failures.length,
    pending,
    durationMs: Date.now() - started,
    failures,
    vscodeVersion: vscode.version,
  };
  await post(report);
  if (failures.length > 0) throw new Error(`${failures.length} in-host test(s) failed`);
}
