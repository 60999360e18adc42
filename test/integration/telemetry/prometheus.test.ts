// The Prometheus endpoint of a long-lived process (the extension, `patchpilot serve`), scraped by a
// real Prometheus server (Debian's `prometheus`, started on loopback): the telemetry is fed the
// events of a real `patchpilot run --json` and Prometheus's query API returns its token counts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../../../src/core/config';
import { startTelemetry } from '../../../src/core/telemetry';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { BUGGY } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo } from '../agent/support';

const PROMETHEUS = '/usr/bin/prometheus';
const skipWithoutPrometheus = spawnSync(PROMETHEUS, ['--version']).status === 0 ? false : "Debian's prometheus package is not installed";
const USAGE = [
  { promptTokens: 900, completionTokens: 40 },
  { promptTokens: 1100, completionTokens: 60 },
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function recordedRun(): Promise<AgentEvent[]> {
  let out: AgentEvent[] = [];
  await withRepo(
    [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })], usage: USAGE[0] } },
      { reply: { toolCalls: [call('finish', { summary: 'read it' })], usage: USAGE[1] } },
    ],
    async (root, server) => {
      const r = await runCli([
        '--goal',
        'read add',
        '--workspace',
        root,
        '--approve',
        'auto-edit',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      out = events(r.stdout) as unknown as AgentEvent[];
    },
    BUGGY,
  );
  return out;
}

async function query(base: string, promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  assert.equal(body.status, 'success');
  return body.data.result;
}

describe('telemetry: a Prometheus server scrapes the endpoint', { skip: skipWithoutBuild || skipWithoutPrometheus }, () => {
  test('the token usage of a real run, by gen_ai.token.type, through the query API', async () => {
    const recorded = await recordedRun();
    const endpointPort = await freePort();
    const telemetry = await startTelemetry(
      { ...DEFAULT_SETTINGS.telemetry, enabled: true, prometheusEndpoint: `127.0.0.1:${endpointPort}` },
      { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' },
      (m) => assert.fail(m),
    );
    assert.ok(telemetry);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-prometheus-'));
    const promPort = await freePort();
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: patchpilot\n    static_configs:\n      - targets: ['127.0.0.1:${endpointPort}']\n`,
    );
    const prometheus = spawn(
      PROMETHEUS,
      [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${promPort}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    prometheus.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
    try {
      for (const e of recorded) telemetry.onEvent(e);
      // The endpoint itself: Prometheus's text format.
      const text = await (await fetch(`http://127.0.0.1:${endpointPort}/metrics`)).text();
      assert.match(text, /^# TYPE gen_ai_client_token_usage\S* histogram$/m);

      const base = `http://127.0.0.1:${promPort}`;
      const expected = { input: USAGE[0]!.promptTokens + USAGE[1]!.promptTokens, output: USAGE[0]!.completionTokens + USAGE[1]!.completionTokens };
      let got: Record<string, number> = {};
      for (let i = 0; i < 60 && Object.keys(got).length < 2; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const result = await query(base, '{__name__=~"gen_ai_client_token_usage.*_sum"}').catch(() => []);
        got = Object.fromEntries(result.map((s) => [s.metric.gen_ai_token_type!, Number(s.value[1])]));
      }
      assert.deepEqual(got, expected, `Prometheus log:\n${log.slice(-2000)}`);
      const runs = await query(base, '{__name__=~"patchpilot_runs.*"}');
      assert.equal(runs[0]?.metric.patchpilot_run_status, 'finished');
      assert.equal(Number(runs[0]?.value[1]), 1);
    } finally {
      prometheus.kill('SIGTERM');
      await new Promise((r) => prometheus.once('close', r));
      await telemetry.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
