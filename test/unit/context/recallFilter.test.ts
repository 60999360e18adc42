import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { searchUnderCurrentIgnoreRules } from '../../../src/core/context/recallFilter';
import type { SearchHit } from '../../../src/core/history/searchTypes';
import { createIgnoreFilter } from '../../../src/core/policy/path';
import { ignoredNow } from '../../../src/core/tools/policyAdapters';
import { tempWorkspace } from '../tools/helpers';

const SECRET = 'PP-RECALL-SECRET-4242';
const hit = (id: string, fields: Partial<SearchHit>): SearchHit => ({
  id,
  type: 'observation',
  runId: 'r',
  tool: 'read_file',
  text: '',
  detail: '',
  path: null,
  time: 0,
  score: 1,
  ...fields,
});

test('recall drops hits that an ignore rule added since would hide: by path, by name in the text, by content', async () => {
  const ws = tempWorkspace({ 'notes.txt': `token: ${SECRET}\n`, 'src/a.ts': 'export {}\n', 'vault/key.pem': 'BEGIN-KEY-MATERIAL-123\n' });
  try {
    const hits = [
      hit('by-path', { path: 'notes.txt', text: 'the notes hold a token', detail: 'token: (elided)' }),
      hit('by-content', { tool: 'run_command', text: 'grep found the token', detail: `src/x: ${SECRET}` }),
      hit('by-name', { type: 'qa', tool: null, text: 'where is the token?', detail: 'in notes.txt, line 1' }),
      hit('in-folder', { path: 'vault/key.pem', text: 'a key' }),
      hit('folder-content', { tool: 'run_command', text: 'cat', detail: 'BEGIN-KEY-MATERIAL-123' }),
      hit('kept', { path: 'src/a.ts', text: 'a.ts exports nothing', detail: 'export {}' }),
      hit('similar-name', { text: 'mynotes.txt.bak is a backup', detail: '' }),
    ];
    const history = { search: async () => hits };
    const filter = createIgnoreFilter(ws.root);
    const recall = searchUnderCurrentIgnoreRules(history, { root: ws.root, ignored: ignoredNow(filter, []) });
    assert.deepEqual(
      (await recall.search('token', { limit: 10 })).map((h) => h.id),
      hits.map((h) => h.id),
      'nothing ignored yet: everything comes back',
    );

    writeFileSync(path.join(ws.root, '.patchpilotignore'), 'notes.txt\nvault/\n');
    assert.deepEqual(
      (await recall.search('token', { limit: 10 })).map((h) => h.id),
      ['kept', 'similar-name'],
    );

    const denied = searchUnderCurrentIgnoreRules(history, { root: ws.root, ignored: ignoredNow(createIgnoreFilter(ws.root), ['src/**']) });
    assert.ok(!(await denied.search('x', { limit: 10 })).some((h) => h.id === 'kept'), 'denyPaths count as ignored');
  } finally {
    ws.cleanup();
  }
});

test('hits left out are replaced by the next best, up to the limit', async () => {
  const ws = tempWorkspace({ 'secret.txt': `${SECRET}\n`, '.patchpilotignore': 'secret.txt\n' });
  try {
    let asked = 0;
    const all = [hit('a', { path: 'secret.txt' }), hit('b', { text: 'b' }), hit('c', { text: 'c' })];
    const history = { search: async (_q: string, o?: { limit?: number }) => ((asked = o?.limit ?? 0), all.slice(0, o?.limit)) };
    const recall = searchUnderCurrentIgnoreRules(history, { root: ws.root, ignored: ignoredNow(createIgnoreFilter(ws.root), []) });
    assert.deepEqual(
      (await recall.search('q', { limit: 2 })).map((h) => h.id),
      ['b', 'c'],
    );
    assert.ok(asked > 2);
  } finally {
    ws.cleanup();
  }
});
