import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../../src/core/config';
import { startTelemetry } from '../../../src/core/telemetry';
import type { AgentEvent } from '../../../src/protocol/agentEvents';
import { OtlpReceiver, spansOf } from '../../integration/telemetry/otlpReceiver';

const RUN: AgentEvent[] = [
  { type: 'run/started', runId: 'r1', goal: 'fix add() in add.js', mode: 'auto-edit', model: 'm', git: { isRepo: true, head: null, branch: null, dirty: [] } },
  { type: 'step/started', step: 1 },
  { type: 'text/delta', text: 'Let me ' },
  { type: 'text/delta', text: 'look.' },
  { type: 'usage', role: 'reasoning', model: 'm', promptTokens: 10, completionTokens: 3, totalPromptTokens: 10, totalCompletionTokens: 3, durationMs: 250 },
  { type: 'tool/started', callId: 'c1', name: 'read_file', args: { path: 'add.js' } },
  { type: 'tool/finished', callId: 'c1', name: 'read_file', ok: false, output: 'exports.add = (a, b) => a - b;', durationMs: 5 },
  { type: 'run/finished', runId: 'r1', status: 'finished', reason: 'done', steps: 1, summary: 'Fixed it.' },
];

async function exportedSpans(includeContent: boolean) {
  const receiver = await OtlpReceiver.start();
  try {
    const telemetry = await startTelemetry(
      { ...DEFAULT_SETTINGS.telemetry, enabled: true, includeContent },
      { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_METRICS_EXPORTER: 'none' },
      assert.fail,
    );
    for (const e of RUN) telemetry!.onEvent(e);
    await telemetry!.shutdown();
    return new Map(spansOf(receiver.json('/v1/traces')).map((s) => [s.name, s]));
  } finally {
    await receiver.close();
  }
}

describe('telemetry content: prompts, replies and file contents only with includeContent', () => {
  test('off: no goal, reply, arguments or output in any span', async () => {
    const spans = await exportedSpans(false);
    assert.equal(spans.size, 3);
    const text = JSON.stringify([...spans.values()]);
    for (const secret of ['fix add()', 'Let me look.', 'add.js', 'a - b', 'Fixed it.']) assert.ok(!text.includes(secret), secret);
  });

  test('on: the GenAI content attributes', async () => {
    const spans = await exportedSpans(true);
    const agent = spans.get('invoke_agent patchpilot')!.attributes;
    assert.deepEqual(JSON.parse(String(agent['gen_ai.input.messages'])), [{ role: 'user', parts: [{ type: 'text', content: 'fix add() in add.js' }] }]);
    assert.deepEqual(JSON.parse(String(agent['gen_ai.output.messages'])), [{ role: 'assistant', parts: [{ type: 'text', content: 'Fixed it.' }] }]);
    const chat = spans.get('chat m')!.attributes;
    assert.deepEqual(JSON.parse(String(chat['gen_ai.output.messages'])), [{ role: 'assistant', parts: [{ type: 'text', content: 'Let me look.' }] }]);
    const tool = spans.get('execute_tool read_file')!.attributes;
    assert.equal(tool['gen_ai.tool.call.arguments'], '{"path":"add.js"}');
    assert.equal(tool['gen_ai.tool.call.result'], 'exports.add = (a, b) => a - b;');
  });
});
