// The Prometheus endpoint of a long-lived process (the extension, `patchpilot serve`), scraped by a
// real Prometheus server (Debian's `prometheus`, started on loopback): the telemetry is fed the
// events of a real `patchpilot run --json` and Prometheus's query API returns its token counts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../../../src/core/config';
import { startTelemetry } from '../../../src/core/telemetry';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { BUGGY } from '../../unit/orchestrator/harness';
import { CLI, call, cliEnv, events, runCli, skipWithoutBuild, withRepo } from '../agent/support';
import { FakeTelegramBotApi } from '../../support/fakeTelegramBotApi';

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

/** A Prometheus server on loopback scraping `target` every second; stop() ends it and removes its data. */
async function startPrometheus(target: string): Promise<{ base: string; log: () => string; stop(): Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-prometheus-'));
  const port = await freePort();
  writeFileSync(
    path.join(dir, 'prometheus.yml'),
    `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: patchpilot\n    static_configs:\n      - targets: ['${target}']\n`,
  );
  const child = spawn(
    PROMETHEUS,
    [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
  const closed = new Promise((r) => child.once('close', r));
  return {
    base: `http://127.0.0.1:${port}`,
    log: () => log.slice(-2000),
    stop: async () => {
      child.kill('SIGTERM');
      await closed;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The token sums by gen_ai.token.type once Prometheus has scraped both (up to 30 s). */
async function tokenSums(base: string): Promise<Record<string, number>> {
  let got: Record<string, number> = {};
  for (let i = 0; i < 60 && Object.keys(got).length < 2; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const result = await query(base, '{__name__=~"gen_ai_client_token_usage.*_sum"}').catch(() => []);
    got = Object.fromEntries(result.map((s) => [s.metric.gen_ai_token_type!, Number(s.value[1])]));
  }
  return got;
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
    const prometheus = await startPrometheus(`127.0.0.1:${endpointPort}`);
    try {
      for (const e of recorded) telemetry.onEvent(e);
      // The endpoint itself: Prometheus's text format.
      const text = await (await fetch(`http://127.0.0.1:${endpointPort}/metrics`)).text();
      assert.match(text, /^# TYPE gen_ai_client_token_usage\S* histogram$/m);

      const expected = { input: USAGE[0]!.promptTokens + USAGE[1]!.promptTokens, output: USAGE[0]!.completionTokens + USAGE[1]!.completionTokens };
      assert.deepEqual(await tokenSums(prometheus.base), expected, `Prometheus log:\n${prometheus.log()}`);
      const runs = await query(prometheus.base, '{__name__=~"patchpilot_runs.*"}');
      assert.equal(runs[0]?.metric.patchpilot_run_status, 'finished');
      assert.equal(Number(runs[0]?.value[1]), 1);
    } finally {
      await prometheus.stop();
      await telemetry.shutdown();
    }
  });

  test("patchpilot serve (a long-lived process) offers the endpoint from the user settings; Prometheus reads a goal's tokens", async () => {
    const ALLOWED = 111;
    const endpointPort = await freePort();
    const api = await FakeTelegramBotApi.start();
    const home = mkdtempSync(path.join(os.tmpdir(), 'pp-serve-home-'));
    mkdirSync(path.join(home, 'patchpilot'));
    writeFileSync(
      path.join(home, 'patchpilot', 'settings.json'),
      JSON.stringify({
        'patchpilot.channels.telegram.allowedChatIds': [String(ALLOWED)],
        'patchpilot.telemetry.enabled': true,
        'patchpilot.telemetry.prometheusEndpoint': `127.0.0.1:${endpointPort}`,
      }),
    );
    const prometheus = await startPrometheus(`127.0.0.1:${endpointPort}`);
    try {
      await withRepo(
        [
          { reply: { toolCalls: [call('read_file', { path: 'add.js' })], usage: USAGE[0] } },
          { reply: { toolCalls: [call('finish', { summary: 'read it' })], usage: USAGE[1] } },
        ],
        async (root, server) => {
          const env = cliEnv({
            XDG_CONFIG_HOME: home,
            PATCHPILOT_TELEGRAM_TOKEN: api.token,
            PATCHPILOT_TELEGRAM_API_ROOT: api.apiRoot,
            OTEL_METRICS_EXPORTER: 'none',
            OTEL_TRACES_EXPORTER: 'none',
          });
          const args = ['serve', '--telegram', '--workspace', root, '--approve', 'auto-edit', '--base-url', server.baseUrl, '--model', 'scripted-model'];
          const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
          let stderr = '';
          child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
          const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
          try {
            await api.waitForCall((c) => c.method === 'deleteWebhook', 30_000, 'the bot to start polling');
            api.sendText(ALLOWED, 'read add.js');
            await api.waitForCall((c) => c.method === 'sendMessage' && /read it/.test(String(c.body.text)), 60_000, 'the summary');
            const expected = { input: USAGE[0]!.promptTokens + USAGE[1]!.promptTokens, output: USAGE[0]!.completionTokens + USAGE[1]!.completionTokens };
            assert.deepEqual(await tokenSums(prometheus.base), expected, `serve:\n${stderr}\nPrometheus:\n${prometheus.log()}`);
          } finally {
            child.kill('SIGTERM');
            assert.equal(await exited, 0, stderr);
          }
        },
        BUGGY,
      );
    } finally {
      await prometheus.stop();
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
