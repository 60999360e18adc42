// The chat's persistence: a run the window lost ends as interrupted, a streamed line is saved a moment
// later and anything else at once, New Chat archives the shown lines under a new chat id, and
// disposing writes what the chat shows. Real files in a temp storage folder.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ModelMessage } from '../../../src/core/llm';
import { ChatPersistence } from '../../../src/host/vscode/chat/persistence/chatPersistence';
import { ChatState, type SavedChat } from '../../../src/host/vscode/chat/persistence/chatState';

function memento() {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (k: string, v: unknown) => void values.set(k, v),
  };
}

const started = {
  kind: 'event',
  event: { type: 'run/started', runId: 'r1', goal: 'Fix it', mode: 'ask', model: 'm', contextWindow: 8000 },
} as SavedChat['entries'][number];
const savedOnDisk = (dir: string): SavedChat => JSON.parse(readFileSync(path.join(dir, 'chat.json'), 'utf8')) as SavedChat;

test('a run the window lost while it worked ends as interrupted; the saved conversation is offered back', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-persist-'));
  new ChatState(memento(), dir, assert.fail).save({
    chatId: 'c1',
    entries: [started],
    transcript: [{ role: 'user', content: 'Fix it' }],
    transcriptRunId: 'r0',
  });
  const p = new ChatPersistence(memento(), dir, assert.fail, () => []);
  assert.equal(p.chatId, 'c1');
  assert.equal(p.transcriptRunId, 'r0');
  assert.deepEqual(p.savedTranscript, [{ role: 'user', content: 'Fix it' }]);
  const last = p.log.entries.at(-1);
  assert.ok(last?.kind === 'event' && last.event.type === 'run/finished' && last.event.status === 'interrupted');
});

test('a streamed line is saved shortly after, any other line at once; disposing saves what is shown', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-persist-'));
  let transcript: ModelMessage[] = [
    { role: 'assistant', content: 'cut here' },
    { role: 'user', content: 'Fix it' },
  ];
  const p = new ChatPersistence(memento(), dir, assert.fail, () => transcript);
  const delta = { kind: 'event', event: { type: 'text/delta', text: 'Hel' } } as SavedChat['entries'][number];
  p.log.add(delta);
  p.entryAdded(delta);
  assert.throws(() => savedOnDisk(dir), /ENOENT/, 'a streamed piece waits for the next ones');
  p.log.add({ kind: 'user', text: 'Fix it' });
  p.entryAdded({ kind: 'user', text: 'Fix it' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(savedOnDisk(dir).entries.length, 2);
  assert.deepEqual(savedOnDisk(dir).transcript, [{ role: 'user', content: 'Fix it' }], 'the saved conversation starts at a user turn');
  transcript = [...transcript, { role: 'assistant', content: 'Done.' }];
  p.dispose();
  assert.equal(savedOnDisk(dir).transcript.length, 2);
});

test('New Chat archives the shown lines (a reopened run finds them) and starts a new chat id', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-persist-'));
  const p = new ChatPersistence(memento(), dir, assert.fail, () => []);
  const first = p.chatId;
  p.log.add({ kind: 'user', text: 'Fix it' });
  p.log.add(started);
  p.transcriptRunId = 'r1';
  p.startNewChat();
  assert.notEqual(p.chatId, first);
  assert.equal(p.log.entries.length, 0);
  assert.equal(p.transcriptRunId, undefined);
  assert.equal(p.shownLinesOf('r1')?.length, 2);
  p.dispose();
});
