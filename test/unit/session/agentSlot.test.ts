// The agent has a lifetime: a chat keeps one agent across messages while nothing it was made from
// changed, and replacing it disposes the old one (its history closed, its MCP servers stopped)
// before the new one opens the same files. Real agents (createAgent) on a temporary workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import type { ResolvedConfig } from '../../../src/core/config';
import { MutableDisposable } from '../../../src/core/base';
import { AgentSlot, createAgent, type Agent } from '../../../src/core/session';
import { tempWorkspace } from '../tools/helpers';
import { fakeHost } from '../../support/fakes';

function configWith(maxSteps: number): ResolvedConfig {
  const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  settings.llm.baseUrl = 'http://127.0.0.1:9/v1';
  settings.llm.model = 'm';
  settings.history.path = '.patchpilot/history.db';
  settings.limits.maxSteps = maxSteps;
  return { settings, sources: {}, values: {}, ignored: [], warnings: [] };
}

function slotOn(root: string) {
  const made: Agent[] = [];
  const disposed: Agent[] = [];
  const slot = new AgentSlot<ResolvedConfig>(
    async (config) => {
      const agent = await createAgent(fakeHost(root), config, { historyMode: 'in-process' });
      const dispose = agent.dispose;
      agent.dispose = () => (disposed.push(agent), dispose());
      made.push(agent);
      return agent;
    },
    (config) => JSON.stringify(config.settings),
  );
  return { slot, made, disposed };
}

test('the same agent serves every message while its configuration is the same', async () => {
  const ws = tempWorkspace({ 'a.txt': 'one\n' });
  const { slot, made, disposed } = slotOn(ws.root);
  try {
    const first = await slot.get(configWith(10));
    const second = await slot.get(configWith(10));
    assert.equal(second, first);
    assert.equal(second.deps.calibration, first.deps.calibration, 'what runs learned carries over');
    assert.equal(made.length, 1);
    assert.equal(disposed.length, 0);
  } finally {
    slot.dispose();
    await made.at(-1)?.dispose();
    ws.cleanup();
  }
});

test('a changed configuration or an invalidation replaces the agent, and the old one is closed first', async () => {
  const ws = tempWorkspace({ 'a.txt': 'one\n' });
  const { slot, made, disposed } = slotOn(ws.root);
  try {
    const first = await slot.get(configWith(10));
    const second = await slot.get(configWith(4));
    assert.notEqual(second, first);
    assert.equal(second.deps.settings.limits.maxSteps, 4);
    assert.deepEqual(disposed, [first]);
    await assert.rejects(first.history!.listRuns({ limit: 1 }), /closed/, 'the replaced agent closed its history');
    // The new agent opened the same history file and works.
    assert.deepEqual(await second.history!.listRuns({ limit: 1 }), []);

    slot.invalidate();
    const third = await slot.get(configWith(4));
    assert.notEqual(third, second);
    assert.deepEqual(disposed, [first, second]);
  } finally {
    slot.dispose();
    await made.at(-1)?.dispose();
    ws.cleanup();
  }
});

test('disposing the slot disposes its agent; a failed creation is tried again at the next get', async () => {
  const ws = tempWorkspace({ 'a.txt': 'one\n' });
  let fail = true;
  const real = slotOn(ws.root);
  const slot = new AgentSlot<ResolvedConfig>(
    (config) => (fail ? Promise.reject(new Error('no key')) : real.slot.get(config)),
    () => 'same',
  );
  try {
    await assert.rejects(slot.get(configWith(10)), /no key/);
    fail = false;
    const agent = await slot.get(configWith(10));
    slot.dispose();
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(real.disposed.includes(agent), 'the held agent was disposed with the slot');
  } finally {
    real.slot.dispose();
    ws.cleanup();
  }
});

test('MutableDisposable disposes what a new value replaces, once, and everything after its own disposal', () => {
  const log: string[] = [];
  const d = (name: string) => ({ dispose: () => void log.push(name) });
  const holder = new MutableDisposable<{ dispose(): void }>();
  const a = d('a');
  holder.value = a;
  holder.value = a;
  assert.deepEqual(log, []);
  holder.value = d('b');
  assert.deepEqual(log, ['a']);
  holder.clear();
  assert.deepEqual(log, ['a', 'b']);
  holder.value = d('c');
  holder.dispose();
  holder.value = d('late');
  assert.deepEqual(log, ['a', 'b', 'c', 'late']);
  assert.equal(holder.value, undefined);
});
