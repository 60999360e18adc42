// In-host suite for the chat's host side: a follow-up continues the same conversation (also after a
// reload that lost the last save: from the history store), and the API
// key lives in VS Code's real SecretStorage (never in settings). The model is the scripted
// OpenAI-compatible server, started inside the extension host; the client talks to it over HTTP.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import * as vscode from 'vscode';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/host/vscode/chat/controller/chatController';
import type { PatchPilotApi } from '../../../src/host/vscode/extension';
import { ScriptedModelServer, type ScriptedTurn } from '../../support/scriptedModel';

const api = async () => (await vscode.extensions.getExtension('patchpilot.patchpilot')!.activate()) as PatchPilotApi;

/** Waits until the chat shows `text` (a slow scripted reply has started streaming). */
async function chatShows(text: string, timeoutMs = 30_000): Promise<void> {
  const { host } = await api();
  const deadline = Date.now() + timeoutMs;
  while (!JSON.stringify(host.snapshot().entries).includes(text)) {
    if (Date.now() > deadline) throw new Error(`the chat never showed "${text}"`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const settings = () => vscode.workspace.getConfiguration('patchpilot');

/**
 * A scripted model for one describe block: the settings point at it before the tests; afterwards
 * the runs they recorded are deleted (other suites count the workspace's runs) and the settings reset.
 */
function useScriptedModel(turns: ScriptedTurn[]): { model: () => ScriptedModelServer; runIds: string[] } {
  let model: ScriptedModelServer | undefined;
  const runIds: string[] = [];
  before(async () => {
    model = await ScriptedModelServer.start(turns);
    await settings().update('llm.baseUrl', model.baseUrl, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', 'scripted-model', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    const { historyPanel } = await api();
    for (const id of runIds) await historyPanel.runs.deleteRun(id, true);
    await settings().update('llm.baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('llm.model', undefined, vscode.ConfigurationTarget.Global);
    await model?.close();
  });
  return { model: () => model!, runIds };
}

describe('chat host', () => {
  const { model: scripted, runIds } = useScriptedModel([
    { reply: { text: 'The first answer mentions zebras.' } },
    { reply: { text: 'Yes, zebras again.' }, expect: { anyMessageContains: 'The first answer mentions zebras.' } },
  ]);

  it('a follow-up message continues the same conversation (the model sees the earlier turn)', async () => {
    const { host } = await api();
    host.newChat();
    const first = await host.send('Tell me about stripes');
    assert.equal(first.delivered, 'started', first.reason);
    const firstOutcome = await first.outcome!;
    if (firstOutcome.runId) runIds.push(firstOutcome.runId);
    assert.equal(firstOutcome.status, 'finished');
    const second = await host.send('Again?');
    assert.equal(second.delivered, 'started', second.reason);
    const secondOutcome = await second.outcome!;
    if (secondOutcome.runId) runIds.push(secondOutcome.runId);
    assert.equal(secondOutcome.status, 'finished');
    assert.deepEqual(scripted().mismatches, []);
    const users = (scripted().chatRequests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content);
    assert.ok(users.some((u) => u.includes('Tell me about stripes')) && users.some((u) => u.includes('Again?')), JSON.stringify(users));
    // The chat lines the view draws hold both turns.
    const texts = JSON.stringify(host.snapshot().entries);
    assert.match(texts, /Tell me about stripes/);
    assert.match(texts, /Again\?/);
  });

  it('the API key is kept in SecretStorage, sent to the endpoint, and never written to settings', async () => {
    const { host, keys } = await api();
    await keys.set('sk-inhost-secret');
    try {
      scripted().requests.length = 0;
      const run = await host.send('one more');
      // The script is used up: the run fails at the model, which is fine here; the request is what counts.
      const outcome = await run.outcome?.catch(() => undefined);
      if (outcome?.runId) runIds.push(outcome.runId);
      const auth = scripted().chatRequests.at(-1)?.headers.authorization ?? '';
      assert.equal(auth, 'Bearer sk-inhost-secret');
      const inspected = JSON.stringify(vscode.workspace.getConfiguration().inspect('patchpilot') ?? {});
      assert.doesNotMatch(inspected, /sk-inhost-secret/);
    } finally {
      await keys.delete();
    }
    assert.equal(await keys.get(), undefined);
  });
});

describe('chat host after a reload that lost the last save', () => {
  // A follow-up must carry the first turn although the window's saved copy of it was lost.
  // (As an assistant message: the system prompt's relevant history may quote it too.)
  const carriesFirstTurn = ({ body }: { body: Record<string, unknown> }): string | void => {
    const turns = body.messages as { role: string; content: unknown }[];
    if (!turns.some((m) => m.role === 'assistant' && String(m.content).includes('three okapis'))) return 'the earlier assistant turn is missing';
  };
  const { model: scripted, runIds } = useScriptedModel([
    { reply: { text: 'The ledger lists three okapis.' } },
    { reply: { text: 'Yes: three okapis.' }, check: carriesFirstTurn },
    { reply: { text: 'Still three okapis.' }, check: carriesFirstTurn },
  ]);

  /** A second ChatController as a reloaded window builds it, from this saved chat, on the window's real services. */
  async function reloadedHost(saved: { chatId: string; entries: unknown[]; transcript: unknown[] }): Promise<ChatController & { close(): void }> {
    const { config, history, testService } = await api();
    const state: vscode.Memento = {
      keys: () => [],
      get: <T>(key: string) => (key === 'patchpilot.chat.v1' ? (saved as T) : undefined),
      update: async () => undefined,
    };
    const storage = mkdtempSync(path.join(tmpdir(), 'pp-reloaded-'));
    const context = {
      workspaceState: state,
      globalStorageUri: vscode.Uri.file(storage),
      extensionPath: vscode.extensions.getExtension('patchpilot.patchpilot')!.extensionPath,
    } as unknown as vscode.ExtensionContext;
    const log = vscode.window.createOutputChannel('PatchPilot reloaded (test)', { log: true });
    const host = new ChatController(context, config, log, { tasks: (o) => testService()!.runnerFor(o), history: () => history.get() });
    return Object.assign(host, { close: () => (host.dispose(), log.dispose(), rmSync(storage, { recursive: true, force: true })) });
  }

  async function followUp(host: ChatController, text: string): Promise<void> {
    const sent = await host.send(text);
    assert.equal(sent.delivered, 'started', sent.reason);
    const next = await sent.outcome!;
    if (next.runId) runIds.push(next.runId);
    assert.equal(next.status, 'finished');
    assert.deepEqual(scripted().mismatches, []);
    const users = (scripted().chatRequests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'user').map((m) => m.content);
    assert.ok(users.some((u) => u.includes('Count the okapis')) && users.some((u) => u.includes(text)), JSON.stringify(users));
  }

  let firstRun: unknown[] = [];

  it('a follow-up continues from the history store when the saved chat shows a run its transcript does not hold', async () => {
    const { host } = await api();
    host.newChat();
    const first = await host.send('Count the okapis in the ledger');
    const outcome = await first.outcome!;
    if (outcome.runId) runIds.push(outcome.runId);
    assert.equal(outcome.status, 'finished');
    assert.ok(outcome.runId, 'the run was recorded');
    firstRun = host.snapshot().entries;

    // The window as a reload finds it when only an earlier save landed: the run shows, its turn is missing.
    const reloaded = await reloadedHost({ chatId: 'reloaded', entries: firstRun, transcript: [] });
    try {
      await followUp(reloaded, 'Are there three?');
    } finally {
      reloaded.close();
    }
  });

  it('a run the window saved as still working ends as interrupted, and a follow-up continues it', async () => {
    const cut = firstRun.findIndex((e) => (e as { event?: { type: string } }).event?.type === 'run/finished');
    assert.ok(cut > 0, 'the first run ended in the log');
    const reloaded = await reloadedHost({ chatId: 'reloaded', entries: firstRun.slice(0, cut), transcript: [] });
    try {
      const last = reloaded.snapshot().entries.at(-1);
      assert.ok(last?.kind === 'event' && last.event.type === 'run/finished' && last.event.status === 'interrupted', JSON.stringify(last));
      assert.match(last.event.reason, /window closed or reloaded/);
      await followUp(reloaded, 'Count them again?');
    } finally {
      reloaded.close();
    }
  });
});

describe('chat host: New Chat while a run works', () => {
  const { model: scripted, runIds } = useScriptedModel([
    { reply: { text: 'Thinking about the walrus ledger very slowly. '.repeat(4), textChunkSize: 4, chunkDelayMs: 100 } },
    {
      reply: { text: 'A fresh answer.' },
      check: ({ body }) => {
        const text = JSON.stringify(body.messages);
        if (text.includes('walrus')) return 'the old chat leaked into the new one';
      },
    },
  ]);

  it('the stopped run stays out of the new chat, and a message sent at once starts it; Stop then reads idle', async () => {
    const { host } = await api();
    host.newChat();
    const statuses: boolean[] = [];
    const listening = host.onPush((type, payload) => type === 'chat/status' && statuses.push((payload as { running: boolean }).running));
    try {
      const first = await host.send('Count the walrus entries');
      assert.equal(first.delivered, 'started', first.reason);
      first.outcome!.then((o) => o.runId && runIds.push(o.runId)).catch(() => undefined);
      await chatShows('Thinking about');
      host.newChat();
      const second = await host.send('Something else entirely');
      assert.equal(second.delivered, 'queued', 'the stopped run is still winding down');
      await host.whenIdle();
      await new Promise((r) => setTimeout(r, 100)); // the settled status is pushed after the session is idle
      assert.deepEqual(scripted().mismatches, []);
      for (const e of host.snapshot().entries) if (e.kind === 'event' && e.event.type === 'run/started' && e.event.runId) runIds.push(e.event.runId);
      const entries = JSON.stringify(host.snapshot().entries);
      assert.doesNotMatch(entries, /walrus|Thinking about/, 'no line of the old chat in the new one');
      assert.match(entries, /A fresh answer/);
      assert.doesNotMatch(entries, /"queued":true/, "the new chat's first message is not a note for a step");
      assert.equal(host.running, false);
      assert.equal(statuses.at(-1), false, 'the view heard that nothing runs');
    } finally {
      listening.dispose();
    }
  });
});

describe('chat host: Stop with a message waiting for the next step', () => {
  const { model: scripted, runIds } = useScriptedModel([
    { reply: { text: 'Counting the narwhals one by one. '.repeat(6), textChunkSize: 4, chunkDelayMs: 100 } },
  ]);

  it("the chat's Stop gives the waiting message back for the message box and says so; nothing reaches the model", async () => {
    const { host } = await api();
    host.newChat();
    const first = await host.send('Count the narwhals');
    assert.equal(first.delivered, 'started', first.reason);
    first.outcome!.then((o) => o.runId && runIds.push(o.runId)).catch(() => undefined);
    await chatShows('Counting the narwhals');
    assert.equal((await host.send('Actually, count the walruses too')).delivered, 'queued');
    const stopped = host.stopRun(true);
    assert.deepEqual(stopped, { stopped: true, unsent: ['Actually, count the walruses too'] });
    await host.whenIdle();
    assert.match(JSON.stringify(host.snapshot().entries), /was not sent; it is back in the message box/);
    assert.equal(scripted().chatRequests.length, 1, 'the waiting message never reached the model');
    assert.doesNotMatch(JSON.stringify(scripted().requests), /walruses/);
    assert.deepEqual(host.stopRun(true), { stopped: false, unsent: [] }, 'nothing runs: nothing to give back');
  });
});
