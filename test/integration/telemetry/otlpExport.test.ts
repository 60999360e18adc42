// Telemetry of a real `patchpilot run` (the built CLI against the scripted model server) received by
// a local OTLP/HTTP receiver: the GenAI spans and metrics with token counts equal to the history's,
// PatchPilot's own counters, both encodings (JSON and protobuf), and nothing sent when it is off.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY, FIX, TEST_CMD } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo } from '../agent/support';
import { OtlpReceiver, metricsOf, pointsOf, spansOf } from './otlpReceiver';

const MODEL = 'scripted-model';
const RESPONSE_MODEL = 'scripted-model-2026-11';
const USAGE = [
  { promptTokens: 1200, completionTokens: 30, cachedTokens: 400 },
  { promptTokens: 1500, completionTokens: 80, cachedTokens: 1000 },
  { promptTokens: 1700, completionTokens: 20 },
  { promptTokens: 1800, completionTokens: 25, cachedTokens: 1500 },
];
const TURNS: ScriptedTurn[] = [
  { reply: { text: 'Let me look.', toolCalls: [call('read_file', { path: 'add.js' })], usage: USAGE[0] } },
  { reply: { toolCalls: [call('propose_patch', { patch: FIX })], usage: USAGE[1] } },
  { reply: { toolCalls: [call('run_tests', {})], usage: USAGE[2] } },
  { reply: { toolCalls: [call('finish', { summary: 'Fixed add(): it subtracted.' })], usage: USAGE[3] } },
];
/** $1 per million tokens in and out (a trusted workspace may set prices). */
const FILES = { ...BUGGY, '.vscode/settings.json': JSON.stringify({ 'patchpilot.llm.prices': { [MODEL]: { input: 1, output: 1 } } }) };

async function telemetryRun(receiver: OtlpReceiver, env: Record<string, string>, after?: (root: string) => Promise<void>) {
  let result: { stdout: string; stderr: string; code: number | null; root: string; history: any } | undefined;
  await withRepo(
    { turns: TURNS, responseModel: RESPONSE_MODEL },
    async (root, server) => {
      const r = await runCli(
        [
          '--goal',
          'make the add test pass',
          '--workspace',
          root,
          '--approve',
          'auto-edit',
          '--test-cmd',
          TEST_CMD,
          '--base-url',
          server.baseUrl,
          '--model',
          MODEL,
          '--trust-workspace',
          '--json',
        ],
        { env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'patchpilot-under-test', ...env } },
      );
      const show = await runCli(['show', 'last', '--cwd', root, '--json'], { command: 'history' });
      assert.equal(show.code, 0, show.stderr);
      result = { ...r, root, history: JSON.parse(show.stdout) };
      await after?.(root);
    },
    FILES,
  );
  return result!;
}

describe('telemetry: OTLP export of a real run', { skip: skipWithoutBuild }, () => {
  test('http/json: invoke_agent -> chat / execute_tool spans and the GenAI metrics, token counts equal to the history', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const r = await telemetryRun(receiver, { PATCHPILOT_TELEMETRY: '1', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
      assert.equal(r.code, 0, r.stderr);
      const traces = receiver.json('/v1/traces');
      assert.ok(traces.length > 0, 'spans were exported');
      assert.ok(receiver.requests.every((q) => q.contentType.startsWith('application/json')));
      const resource = traces[0].resourceSpans[0].resource.attributes.find((a: any) => a.key === 'service.name');
      assert.equal(resource.value.stringValue, 'patchpilot-under-test');

      const spans = spansOf(traces);
      const agent = spans.filter((s) => s.name === 'invoke_agent patchpilot');
      assert.equal(agent.length, 1);
      const root = agent[0]!;
      const runStarted = events(r.stdout).find((e) => e.type === 'run/started') as any;
      assert.equal(root.attributes['gen_ai.operation.name'], 'invoke_agent');
      assert.equal(root.attributes['gen_ai.conversation.id'], runStarted.runId);
      assert.equal(root.attributes['patchpilot.run.status'], 'finished');
      assert.equal(root.attributes['patchpilot.tests.outcome'], 'passed');
      assert.equal(root.attributes['gen_ai.input.messages'], undefined, 'no prompt without includeContent');

      const chats = spans.filter((s) => s.name === `chat ${MODEL}`);
      assert.equal(chats.length, 4);
      for (const [i, chat] of chats.entries()) {
        assert.equal(chat.parentSpanId, root.spanId);
        assert.equal(chat.attributes['gen_ai.operation.name'], 'chat');
        assert.equal(chat.attributes['gen_ai.request.model'], MODEL);
        assert.equal(chat.attributes['gen_ai.response.model'], RESPONSE_MODEL);
        assert.equal(chat.attributes['gen_ai.usage.input_tokens'], USAGE[i]!.promptTokens);
        assert.equal(chat.attributes['gen_ai.usage.output_tokens'], USAGE[i]!.completionTokens);
        assert.equal(chat.attributes['gen_ai.usage.cache_read.input_tokens'], USAGE[i]!.cachedTokens);
        assert.equal(chat.attributes['gen_ai.output.messages'], undefined);
      }
      const tools = spans.filter((s) => s.name.startsWith('execute_tool '));
      assert.deepEqual(
        tools.map((t) => t.attributes['gen_ai.tool.name']),
        ['read_file', 'propose_patch', 'run_tests', 'finish'],
      );
      for (const t of tools) {
        assert.equal(t.parentSpanId, root.spanId);
        assert.equal(t.attributes['gen_ai.tool.call.arguments'], undefined, 'no file contents without includeContent');
      }

      // The history's usage of the run, summed over its sources.
      const history = r.history.usage as { promptTokens: number; completionTokens: number; cachedTokens?: number; costUsd: number | null }[];
      const historyIn = history.reduce((n, u) => n + u.promptTokens, 0);
      const historyOut = history.reduce((n, u) => n + u.completionTokens, 0);
      assert.equal(
        historyIn,
        USAGE.reduce((n, u) => n + u.promptTokens, 0),
      );
      assert.equal(root.attributes['gen_ai.usage.input_tokens'], historyIn);
      assert.equal(root.attributes['gen_ai.usage.output_tokens'], historyOut);

      const metrics = metricsOf(receiver.json('/v1/metrics'));
      const tokens = pointsOf(metrics.get('gen_ai.client.token.usage'));
      const byType = (type: string) => tokens.filter((p) => p.attributes['gen_ai.token.type'] === type);
      assert.equal(
        byType('input').reduce((n, p) => n + p.value, 0),
        historyIn,
      );
      assert.equal(
        byType('output').reduce((n, p) => n + p.value, 0),
        historyOut,
      );
      assert.equal(byType('input')[0]!.attributes['gen_ai.response.model'], RESPONSE_MODEL);
      assert.equal(
        byType('input').reduce((n, p) => n + p.count!, 0),
        4,
        'one record per request',
      );
      const durations = pointsOf(metrics.get('gen_ai.client.operation.duration'));
      assert.equal(durations.find((p) => p.attributes['gen_ai.operation.name'] === 'chat')?.count, 4);
      assert.equal(durations.find((p) => p.attributes['gen_ai.operation.name'] === 'invoke_agent')?.count, 1);

      const sumOf = (name: string, attrs: Record<string, unknown> = {}) =>
        pointsOf(metrics.get(name))
          .filter((p) => Object.entries(attrs).every(([k, v]) => p.attributes[k] === v))
          .reduce((n, p) => n + p.value, 0);
      assert.equal(sumOf('patchpilot.patches.proposed', { 'patchpilot.outcome': 'valid' }), 1);
      assert.equal(sumOf('patchpilot.patches.applied', { 'patchpilot.outcome': 'applied' }), 1);
      assert.equal(sumOf('patchpilot.hunks', { 'patchpilot.hunk.decision': 'accepted' }), 1);
      assert.ok(sumOf('patchpilot.test_runs', { 'patchpilot.outcome': 'passed' }) >= 1);
      assert.equal(sumOf('patchpilot.runs', { 'patchpilot.run.status': 'finished' }), 1);
      const historyCost = history.reduce((n, u) => n + (u.costUsd ?? 0), 0);
      assert.ok(historyCost > 0);
      assert.ok(Math.abs(sumOf('patchpilot.cost') - historyCost) < 1e-9, `cost ${sumOf('patchpilot.cost')} vs history ${historyCost}`);
    } finally {
      await receiver.close();
    }
  });

  test('http/protobuf (the default protocol): protobuf bodies on /v1/traces and /v1/metrics', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const r = await telemetryRun(receiver, { PATCHPILOT_TELEMETRY: '1' });
      assert.equal(r.code, 0, r.stderr);
      for (const path of ['/v1/traces', '/v1/metrics']) {
        const sent = receiver.requests.filter((q) => q.path === path);
        assert.ok(sent.length > 0, `${path} received`);
        assert.ok(sent.every((q) => q.contentType === 'application/x-protobuf' && q.body.length > 0));
      }
      // Protobuf keeps strings as they are: the span and metric names are in the bytes.
      const traces = Buffer.concat(receiver.requests.filter((q) => q.path === '/v1/traces').map((q) => q.body)).toString('latin1');
      for (const name of ['invoke_agent patchpilot', `chat ${MODEL}`, 'execute_tool propose_patch', 'gen_ai.usage.input_tokens'])
        assert.ok(traces.includes(name), name);
      const metrics = Buffer.concat(receiver.requests.filter((q) => q.path === '/v1/metrics').map((q) => q.body)).toString('latin1');
      for (const name of ['gen_ai.client.token.usage', 'gen_ai.client.operation.duration', 'patchpilot.cost']) assert.ok(metrics.includes(name), name);
    } finally {
      await receiver.close();
    }
  });

  test('off by default, and OTEL_SDK_DISABLED=true wins: the OTLP endpoint set, nothing is sent', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const unset = await telemetryRun(receiver, {});
      assert.equal(unset.code, 0, unset.stderr);
      const disabled = await telemetryRun(receiver, { PATCHPILOT_TELEMETRY: '1', OTEL_SDK_DISABLED: 'true' });
      assert.equal(disabled.code, 0, disabled.stderr);
      assert.deepEqual(receiver.requests, []);
    } finally {
      await receiver.close();
    }
  });

  test('patchpilot restore counts the restore in patchpilot.checkpoints.restored', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      await telemetryRun(receiver, {}, async (root) => {
        const r = await runCli(['--workspace', root, '--run', 'last', '--before-step', '2', '--yes'], {
          command: 'restore',
          env: { PATCHPILOT_TELEMETRY: '1', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_EXPORTER: 'none' },
        });
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stderr, /restored 1 file\(s\)/);
      });
      const restored = pointsOf(metricsOf(receiver.json('/v1/metrics')).get('patchpilot.checkpoints.restored'));
      assert.deepEqual(restored, [{ attributes: { 'patchpilot.files': 1 }, value: 1 }]);
    } finally {
      await receiver.close();
    }
  });

  test('a wrong protocol is a settings error before the run (exit 2)', async () => {
    const r = await runCli(['--goal', 'x', '--base-url', 'http://127.0.0.1:9/v1', '--model', MODEL, '--json'], {
      env: { PATCHPILOT_TELEMETRY: '1', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /telemetry: OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" is not supported; use http\/protobuf or http\/json/);
  });
});
