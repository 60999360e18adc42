import assert from 'node:assert/strict';
/** Shared set-up for the model client's integration tests: a real scripted server, a real client. */
import { ModelClient, type ModelClientConfig, type ModelStreamEvent } from '../../../src/core/llm';
import { ScriptedModelServer, type Script, type ScriptedTurn } from '../../support/scriptedModel';
import { lazyChunk } from '../../../src/core/base/lazyChunks';

/**
 * The OpenAI SDK loads at first use (a lazy chunk); from the sources, under tsx, on a busy machine
 * that load takes seconds. These tests time requests, not that load: it happens here, at import.
 */
export function loadModelSdks(): void {
  lazyChunk.openai();
}
loadModelSdks();

/** Runs `fn` against a fresh scripted server and always closes it. */
export async function withServer<T>(script: Script | ScriptedTurn[], fn: (server: ScriptedModelServer) => Promise<T>): Promise<T> {
  const server = await ScriptedModelServer.start(script);
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

/** A client on the server; short backoff steps (20 ms) and zero jitter unless a test wants real backoff, short timeouts for speed. */
export function clientFor(server: { baseUrl: string }, config: Partial<ModelClientConfig> = {}, random: () => number = () => 0): ModelClient {
  return new ModelClient(
    { baseUrl: server.baseUrl, model: 'scripted-model', idleTimeoutMs: 2_000, firstChunkTimeoutMs: 2_000, ...config },
    { random, backoff: { baseDelayMs: 20 } },
  );
}

export function collectEvents(): { events: ModelStreamEvent[]; onEvent: (e: ModelStreamEvent) => void } {
  const events: ModelStreamEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

export const userAsks = (text: string) => [{ role: 'user' as const, content: text }];

export async function rejectsWith(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

/** A replay suite's fixtures and its expectations match one to one: a recording added without an expectation, or the reverse, fails. */
export function assertEveryFixtureExpected(files: readonly string[], expected: Record<string, unknown>): void {
  assert.deepEqual(
    files.filter((f) => !expected[f]),
    [],
    'fixtures without an expectation',
  );
  assert.deepEqual(
    Object.keys(expected).filter((f) => !files.includes(f)),
    [],
    'expectations without a fixture',
  );
}
