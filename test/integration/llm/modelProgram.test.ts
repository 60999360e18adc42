// patchpilot.llm.command: a real node script as the model, through the OpenAI-compatible client's
// own parser, retries and timeouts (the program is reached by a fetch of its own).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createChatModel, ModelApiError, type ChatModelConfig } from '../../../src/core/llm';
import { splitCommandLine, toSseText } from '../../../src/core/llm/localProgram/programFetch';
import type { ChatModel } from '../../../src/core/ports/chatModel';
import { collectEvents, rejectsWith, userAsks } from './helpers';

const TINY = path.resolve(__dirname, '../../support/modelProgram/tinyModel.js');
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const programLine = (...args: string[]) => [process.execPath, TINY, ...args].map(q).join(' ');

function programModel(line: string, config: Partial<ChatModelConfig> = {}): ChatModel {
  // Generous timeouts: a node program starts slowly on a loaded machine; the hang test sets its own.
  return createChatModel(
    { model: 'local-model', command: { line, origin: '--llm-command' }, idleTimeoutMs: 10_000, firstChunkTimeoutMs: 10_000, ...config },
    { random: () => 0 },
  );
}

const readFile = { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } };

describe('a model served by a local program (patchpilot.llm.command)', () => {
  for (const mode of ['sse', 'tight', 'jsonl', 'pretty'] as const) {
    test(`${mode}: text and a tool call stream through; the program got the chat-completions request on stdin`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'pp-program-'));
      try {
        const log = path.join(dir, 'requests.jsonl');
        const { events, onEvent } = collectEvents();
        const turn = await programModel(programLine(mode, log), { apiKey: 'sk-secret' }).streamChatWithRecovery({
          role: 'reasoning',
          messages: userAsks('fix add.js'),
          tools: [readFile],
          onEvent,
        });
        assert.equal(turn.text, 'Reading the file.');
        assert.deepEqual(turn.toolCalls, [{ id: 'call_1', name: 'read_file', argumentsJson: '{"path":"add.js"}' }]);
        assert.equal(turn.finishReason, 'tool_calls');
        assert.deepEqual([turn.usage.promptTokens, turn.usage.completionTokens, turn.usage.estimated], [42, 7, false]);
        if (mode !== 'pretty')
          assert.deepEqual(
            events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text),
            ['Reading ', 'the file.'],
          );
        const request = JSON.parse(readFileSync(log, 'utf8').trim());
        assert.equal(request.model, 'local-model');
        assert.equal(request.stream, true);
        assert.deepEqual(request.messages, [{ role: 'user', content: 'fix add.js' }]);
        assert.equal(request.tools[0].function.name, 'read_file');
        // The endpoint's key is not the program's business.
        assert.ok(!readFileSync(log, 'utf8').includes('sk-secret'));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  test('a non-zero exit is a clear error with the end of its stderr, not retried', async () => {
    const err = await rejectsWith(programModel(programLine('fail')).streamChatWithRecovery({ role: 'reasoning', messages: userAsks('hi') }));
    assert.ok(err instanceof ModelApiError);
    assert.equal(err.retryable, false);
    assert.match(
      err.message,
      /^the model program `.*tinyModel\.js' 'fail'` exited with code 3; its stderr ends with: tinyModel: cannot reach the upstream model$/,
    );
    assert.equal(err.attempts, 1);
  });

  test('a program that does not exist: named, with what to do and where it was set', async () => {
    const err = await rejectsWith(programModel('/nonexistent/model-program --serve').streamChatWithRecovery({ role: 'reasoning', messages: userAsks('hi') }));
    assert.equal(err.kind, 'bad-request');
    assert.match(err.message, /the program "\/nonexistent\/model-program" was not found: give its full path or put it on PATH \(set by --llm-command\)/);
    assert.equal(err.attempts, 1);
  });

  test('a hang: the first-chunk timeout ends it, the program is killed, the error names the program', async () => {
    const started = Date.now();
    const err = await rejectsWith(
      programModel(programLine('hang'), { firstChunkTimeoutMs: 400, maxAttempts: 1 }).streamChatWithRecovery({ role: 'reasoning', messages: userAsks('hi') }),
    );
    assert.equal(err.kind, 'timeout');
    assert.match(err.message, /no reply from the model program `.*hang'` within 400 ms/);
    assert.ok(Date.now() - started < 5_000);
    // Nothing left running: no tinyModel.js hang process survives the timeout.
    await sleep(300);
    assert.deepEqual(survivors('hang'), []);
  });

  test('a stall after output began: the idle timeout ends it, the step is re-run once, then reported interrupted; no program left', async () => {
    const { events, onEvent } = collectEvents();
    const err = await rejectsWith(
      programModel(programLine('stall'), { idleTimeoutMs: 400 }).streamChatWithRecovery({ role: 'reasoning', messages: userAsks('hi'), onEvent }),
    );
    assert.equal(err.kind, 'interrupted');
    assert.match(err.message, /the reply from the model program `.*stall'` stalled: no data for 400 ms/);
    assert.equal(events.filter((e) => e.type === 'restart').length, 1);
    await sleep(300);
    assert.deepEqual(survivors('stall'), []);
  });

  test('a line that is neither SSE nor JSON is an error quoting it, never a silent empty reply', async () => {
    const err = await rejectsWith(programModel(programLine('garbage')).streamChatWithRecovery({ role: 'reasoning', messages: userAsks('hi') }));
    assert.match(err.message, /wrote a line that is neither SSE \("data: \{\.\.\.\}"\) nor a JSON chunk: "Loading weights\.\.\. done"/);
  });

  test('command lines split like a shell without running one; stdout lines become SSE', () => {
    assert.deepEqual(splitCommandLine(`node "/my models/run.js" --name 'a b' c\\ d`), ['node', '/my models/run.js', '--name', 'a b', 'c d']);
    assert.deepEqual(splitCommandLine('model; rm -rf ~'), ['model;', 'rm', '-rf', '~']);
    assert.equal(toSseText('data: {"a":1}'), 'data: {"a":1}\n\n');
    assert.equal(toSseText('data: {"a":1}\r'), 'data: {"a":1}\n\n');
    assert.equal(toSseText(''), '');
    assert.equal(toSseText('event: error'), 'event: error\n');
    assert.equal(toSseText('{"a":1}'), 'data: {"a":1}\n\n');
    assert.equal(toSseText('[DONE]'), 'data: [DONE]\n\n');
    assert.equal(toSseText('hello'), undefined);
    const whole = JSON.parse(toSseText('{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]}')!.slice(6));
    assert.deepEqual(whole.choices[0], { index: 0, delta: { role: 'assistant', content: 'hi' }, finish_reason: 'stop' });
  });
});

/** Live tinyModel.js processes in MODE (a hang that outlived its request). */
function survivors(mode: string): string[] {
  const found: string[] = [];
  for (const pid of require('node:fs')
    .readdirSync('/proc')
    .filter((d: string) => /^\d+$/.test(d))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (argv.some((a) => a.endsWith('tinyModel.js')) && argv.includes(mode) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8')))
        found.push(pid);
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}
