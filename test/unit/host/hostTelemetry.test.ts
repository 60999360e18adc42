import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config';
import { HostTelemetry } from '../../../src/host/vscode/telemetry/hostTelemetry';
import { OtlpReceiver, spansOf } from '../../integration/telemetry/otlpReceiver';

function settingsWith(telemetry: Partial<PatchPilotSettings['telemetry']>): PatchPilotSettings {
  return { ...structuredClone(DEFAULT_SETTINGS), telemetry: { ...DEFAULT_SETTINGS.telemetry, ...telemetry } } as PatchPilotSettings;
}

describe("the extension's telemetry follows the user's settings", () => {
  test('off: nothing starts; turned on: a run goes out; a bad value: a warning and off', async () => {
    const receiver = await OtlpReceiver.start();
    const logged: string[] = [];
    let settings = settingsWith({});
    const telemetry = new HostTelemetry(() => settings, { info: (m) => logged.push(`info ${m}`), warn: (m) => logged.push(`warn ${m}`) }, {});
    try {
      await telemetry.reload();
      telemetry.onEvent({ type: 'run/started', runId: 'r0', goal: 'g', mode: 'ask', model: 'm', git: { isRepo: false, head: null, branch: null, dirty: [] } });
      assert.deepEqual(logged, []);

      settings = settingsWith({ enabled: true, otlpEndpoint: receiver.url, otlpProtocol: 'http/json' });
      await telemetry.reload();
      assert.match(logged.join('\n'), new RegExp(`info telemetry on: traces to ${receiver.url}/v1/traces \\(http/json\\)`));
      telemetry.onEvent({ type: 'run/started', runId: 'r1', goal: 'g', mode: 'ask', model: 'm', git: { isRepo: false, head: null, branch: null, dirty: [] } });
      telemetry.onEvent({ type: 'run/finished', runId: 'r1', status: 'finished', reason: 'done', steps: 1 });
      // A change elsewhere in the settings keeps the same pipeline; a bad value stops it (flushing what it had).
      await telemetry.reload();
      assert.equal(receiver.requests.length, 0, 'still batching: not restarted');
      settings = settingsWith({ enabled: true, otlpProtocol: 'grpc' });
      await telemetry.reload();
      assert.match(logged.at(-1)!, /^warn telemetry is off: patchpilot\.telemetry\.otlpProtocol: "grpc" is not supported/);
      const spans = spansOf(receiver.json('/v1/traces'));
      assert.deepEqual(
        spans.map((s) => [s.name, s.attributes['gen_ai.conversation.id']]),
        [['invoke_agent patchpilot', 'r1']],
      );
    } finally {
      await telemetry.dispose();
      await receiver.close();
    }
  });
});
