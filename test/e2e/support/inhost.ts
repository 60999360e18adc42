// Running the in-host mocha suites (test/inhost) inside code-server's real extension host.
//
//   buildInhostTests()          esbuild test/inhost/index.ts and suite/**/*.inhost.ts to out/inhost/
//                               (vscode and mocha stay external: the host provides one, node_modules the other)
//   runInhostSuite(options?)    build, start code-server (extension loaded from the repo through the
//                               URL payload's extensionDevelopmentPath, tests through
//                               extensionTestsPath), open the workbench in Chromium, collect the
//                               results POSTed to a local HTTP endpoint; resolves with the
//                               InhostReport (failures included), always cleans up. Options: those
//                               of launchVsCode plus `grep` (a regex on test titles), `timeoutMs`
//                               and `onTest` (a callback per finished test, for live output)
//                               With failures, the report carries a screenshot and the tail of
//                               PatchPilot's log (`diagnostics`).
//   formatReport(report)        the report as text (one line per failure with its error)
import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import type { InhostReport } from '../../inhost/index';
import { repoRoot } from './codeServer';
import { launchVsCode, type VsCodeOptions } from './session';
import { E2E_TIMEOUT } from './workbench';

export type { InhostReport };
export const INHOST_OUT = path.join(repoRoot, 'out', 'inhost');

/**
 * A fixture extension that registers a language model the way Copilot does (the chatProvider
 * proposal in VS Code 1.100), for the suites that drive provider "vscode" (vscodeModels.inhost.ts).
 */
export const FAKE_LANGUAGE_MODEL = { dir: path.join(repoRoot, 'test', 'inhost', 'fixtures', 'fake-language-model'), id: 'patchpilot-test.fake-language-model' };

function suites(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...suites(full));
    else if (entry.name.endsWith('.inhost.ts')) out.push(full);
  }
  return out;
}

export async function buildInhostTests(): Promise<string> {
  const src = path.join(repoRoot, 'test', 'inhost');
  await build({
    entryPoints: [path.join(src, 'index.ts'), ...suites(path.join(src, 'suite'))],
    outdir: INHOST_OUT,
    outbase: src,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return INHOST_OUT;
}

export interface TestEvent {
  kind: 'test';
  state: 'passed' | 'failed' | 'pending';
  title: string;
  error?: string;
  durationMs?: number;
}

export interface InhostOptions extends VsCodeOptions {
  grep?: string;
  timeoutMs?: number;
  onTest?: (event: TestEvent) => void;
}

export async function runInhostSuite(options: InhostOptions = {}): Promise<InhostReport> {
  const testsPath = await buildInhostTests();
  let resolveReport!: (r: InhostReport) => void;
  const reportArrived = new Promise<InhostReport>((resolve) => (resolveReport = resolve));
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      res.end('ok');
      try {
        const msg = JSON.parse(body) as TestEvent | InhostReport;
        if (msg.kind === 'report') resolveReport(msg);
        else options.onTest?.(msg);
      } catch {
        /* not ours */
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const reportUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/report`;
  const env: Record<string, string> = { ...options.env, PATCHPILOT_INHOST_REPORT_URL: reportUrl };
  if (options.grep) env.PATCHPILOT_INHOST_GREP = options.grep;

  // The payload names paths as vscode-remote URIs of the server, so it is computed once it runs.
  const vs = await launchVsCode({
    ...options,
    extension: 'development',
    extraExtensions: [...(options.extraExtensions ?? []), FAKE_LANGUAGE_MODEL.dir],
    enableProposedApi: [...(options.enableProposedApi ?? []), FAKE_LANGUAGE_MODEL.id],
    env,
    payload: (server) => [
      ['extensionDevelopmentPath', server.remoteUri(repoRoot)],
      ['extensionTestsPath', server.remoteUri(testsPath)],
    ],
  });
  try {
    // 8 minutes: the suites take 3-5 on a loaded machine, the first checkpoint of 20,000 files (firstCheckpoint.inhost.ts) one more.
    const timeoutMs = options.timeoutMs ?? Math.max(8 * 60_000, E2E_TIMEOUT * 8);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no in-host test report within ${timeoutMs} ms`)), timeoutMs);
    });
    const exited = new Promise<never>((_, reject) =>
      vs.server.process.once('exit', (code) => reject(new Error(`code-server exited (${code}) before the report`))),
    );
    try {
      const report = await Promise.race([reportArrived, timeout, exited]);
      if (report.failed > 0) {
        const shot = await vs.screenshot('inhost-failure').catch(() => '(none)');
        report.diagnostics = `screenshot: ${shot}\n--- PatchPilot log (tail) ---\n${vs.server.extensionLog()}`;
      }
      return report;
    } catch (err) {
      const shot = await vs.screenshot('inhost-failure').catch(() => '(none)');
      throw new Error(
        `${(err as Error).message}\nscreenshot: ${shot}\n--- code-server output (tail) ---\n${vs.server.logs().slice(-4000)}\n--- PatchPilot log (tail) ---\n${vs.server.extensionLog()}`,
      );
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await vs.close();
    server.close();
  }
}

export function formatReport(r: InhostReport): string {
  const lines = [`in-host (VS Code ${r.vscodeVersion}): ${r.passed} passed, ${r.failed} failed, ${r.pending} pending in ${r.durationMs} ms`];
  for (const f of r.failures) lines.push(`  ✖ ${f.title}\n    ${(f.stack ?? f.error).split('\n').slice(0, 8).join('\n    ')}`);
  if (r.diagnostics) lines.push(r.diagnostics);
  return lines.join('\n');
}
