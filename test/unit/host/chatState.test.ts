// Where the chat survives a window reload: a file in the workspace storage folder, there as soon as
// save() returns; workspace state only without a folder, or read once from an older version.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ChatState, type SavedChat } from '../../../src/host/vscode/chat/persistence/chatState';

function memento(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    values,
    keys: () => [...values.keys()],
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: async (key: string, value: unknown) => void values.set(key, value),
  };
}

const chat = (id: string): SavedChat => ({
  chatId: id,
  entries: [
    { kind: 'user', text: 'Fix the parser' },
    { kind: 'event', event: { type: 'run/started', runId: 'r1', goal: 'Fix the parser', mode: 'ask', model: 'm', contextWindow: 8000 } },
  ] as SavedChat['entries'],
  transcript: [{ role: 'user', content: 'Fix the parser' }],
  transcriptRunId: 'r1',
});

test('the chat is written to chat.json in the storage folder and read back whole, with no temp file left', () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pp-chatstate-')), 'not-yet-created');
  const state = new ChatState(memento(), dir, (m) => assert.fail(m));
  state.save(chat('a'));
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'chat.json'), 'utf8')), chat('a'));
  assert.deepEqual(new ChatState(memento(), dir, (m) => assert.fail(m)).load(), chat('a'));
  state.save(chat('b'));
  assert.equal(new ChatState(memento(), dir, () => undefined).load()?.chatId, 'b');
  assert.deepEqual(readdirSync(dir), ['chat.json']);
});

test("an older version's chat in workspace state is read while no file exists; the file wins once written", () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-chatstate-'));
  const old = memento({ 'patchpilot.chat.v1': chat('from-memento') });
  const state = new ChatState(old, dir, (m) => assert.fail(m));
  assert.equal(state.load()?.chatId, 'from-memento');
  state.save(chat('from-file'));
  assert.equal(new ChatState(old, dir, () => undefined).load()?.chatId, 'from-file');
});

test('without a storage folder (no folder open) workspace state is the place', async () => {
  const m = memento();
  const state = new ChatState(m, undefined, (msg) => assert.fail(msg));
  state.save(chat('c'));
  await Promise.resolve();
  assert.equal((m.values.get('patchpilot.chat.v1') as SavedChat).chatId, 'c');
  assert.equal(state.load()?.chatId, 'c');
});

test('a damaged or foreign chat file is moved aside and reported, and a new chat starts; nothing throws', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-chatstate-'));
  for (const text of ['{"chatId": "x", "entr', '[1, 2, 3]', '{"chatId": 7, "entries": [], "transcript": []}']) {
    writeFileSync(path.join(dir, 'chat.json'), text);
    const warnings: string[] = [];
    assert.equal(new ChatState(memento({ 'patchpilot.chat.v1': chat('stale') }), dir, (m) => warnings.push(m)).load(), undefined, text);
    assert.equal(warnings.length, 1, text);
    const aside = readdirSync(dir).filter((f) => f.startsWith('chat.json.corrupt-'));
    assert.match(warnings[0]!, /moved to .*chat\.json\.corrupt-/);
    // Each damaged file kept, none written over: the newest is this one.
    assert.ok(aside.map((f) => readFileSync(path.join(dir, f), 'utf8')).includes(text), text);
    assert.equal(existsSync(path.join(dir, 'chat.json')), false);
  }
});

test('a storage folder that cannot be written: the save is reported, not thrown', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-chatstate-'));
  const blocker = path.join(dir, 'file');
  writeFileSync(blocker, 'not a folder');
  const warnings: string[] = [];
  new ChatState(memento(), path.join(blocker, 'storage'), (m) => warnings.push(m)).save(chat('d'));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /chat not saved/);
});
