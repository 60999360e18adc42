import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { MEMORY_FILE, MEMORY_NOTES_DIR, cleanFact, factKey, journalStamp, readMemoryFile, rememberFact } from '../../../src/core/context/memory/memoryFiles';
import { rememberTool } from '../../../src/core/tools/remember';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { ScriptedApprover, tempWorkspace } from '../tools/helpers';
import { fakeToolContext } from '../../support/fakes';

const now = new Date(2025, 2, 4, 9, 5);
const read = (root: string, rel: string) => readFileSync(path.join(root, rel), 'utf8');

test("remember appends to MEMORY.md (created with a header) and to the day's journal with the goal", async () => {
  const ws = tempWorkspace();
  try {
    assert.deepEqual(await rememberFact(ws.root, 'Tests run with `npm test -- --runInBand`.', { goal: 'fix the flaky test', now }), {
      status: 'added',
      notesFile: `${MEMORY_NOTES_DIR}/2025-03-04.md`,
    });
    await rememberFact(ws.root, '- The API client lives in src/api/client.ts\n(generated).', { now });
    const memory = read(ws.root, MEMORY_FILE);
    assert.match(memory, /^# Memory\n/);
    assert.ok(memory.endsWith('- Tests run with `npm test -- --runInBand`.\n- The API client lives in src/api/client.ts (generated).\n'), memory);
    assert.equal(
      read(ws.root, `${MEMORY_NOTES_DIR}/2025-03-04.md`),
      '# Memory notes 2025-03-04\n\n- [09:05] Tests run with `npm test -- --runInBand`.\n  - while working on: fix the flaky test\n- [09:05] The API client lives in src/api/client.ts (generated).\n',
    );
    // The same fact again (other case, spacing, final dot): nothing written.
    assert.deepEqual(await rememberFact(ws.root, 'the api client lives in  src/api/client.ts (generated)', { now }), { status: 'present' });
    assert.equal(read(ws.root, MEMORY_FILE), memory);
  } finally {
    ws.cleanup();
  }
});

test("the user's edits stay as they are; a fact the user deleted is not added back, even on another day", async () => {
  const ws = tempWorkspace();
  try {
    await rememberFact(ws.root, 'Use pnpm, not npm.', { now });
    await rememberFact(ws.root, 'The docs build with mkdocs.', { now });
    // The user rewrites the file: deletes one fact, rewords the header, adds their own line without a newline at the end.
    writeFileSync(path.join(ws.root, MEMORY_FILE), '# Notes for the agent\n\n- The docs build with mkdocs.\nAsk before touching migrations/');
    const day2 = new Date(2025, 2, 5, 14, 30);
    assert.deepEqual(await rememberFact(ws.root, 'use pnpm, not npm', { now: day2 }), { status: 'deleted-by-user', day: '2025-03-04' });
    assert.equal((await rememberFact(ws.root, 'CI runs on Node 20.', { now: day2 })).status, 'added');
    assert.equal(
      read(ws.root, MEMORY_FILE),
      '# Notes for the agent\n\n- The docs build with mkdocs.\nAsk before touching migrations/\n- CI runs on Node 20.\n',
    );
    assert.equal(await readMemoryFile(ws.root), read(ws.root, MEMORY_FILE));
    assert.deepEqual(readdirSync(path.join(ws.root, MEMORY_NOTES_DIR)).sort(), ['2025-03-04.md', '2025-03-05.md']);
    // Deleting the whole file deletes every fact in it.
    rmSync(path.join(ws.root, MEMORY_FILE));
    assert.equal((await rememberFact(ws.root, 'The docs build with mkdocs', { now: day2 })).status, 'deleted-by-user');
    assert.equal(existsSync(path.join(ws.root, MEMORY_FILE)), false);
  } finally {
    ws.cleanup();
  }
});

test('bad facts are refused with the reason; nothing is written', () => {
  assert.throws(() => cleanFact('   \n '), /empty/);
  assert.throws(() => cleanFact('x'.repeat(501)), /501 characters/);
  assert.equal(factKey('- Use PNPM,  not npm.'), 'use pnpm, not npm');
  assert.deepEqual(journalStamp(now), { day: '2025-03-04', time: '09:05' });
});

test('the state folder or MEMORY.md replaced by a link: refused, nothing written outside', async () => {
  const outside = mkdtempSync(path.join(tmpdir(), 'pp-outside-'));
  const a = tempWorkspace();
  const b = tempWorkspace();
  try {
    symlinkSync(outside, path.join(a.root, '.patchpilot'));
    await assert.rejects(rememberFact(a.root, 'a fact', { now }), /symbolic link/);
    mkdirSync(path.join(b.root, '.patchpilot', 'memory'), { recursive: true });
    writeFileSync(path.join(outside, 'MEMORY.md'), 'outside\n');
    symlinkSync(path.join(outside, 'MEMORY.md'), path.join(b.root, MEMORY_FILE));
    await assert.rejects(rememberFact(b.root, 'a fact', { now }), /symlink|link/);
    assert.deepEqual(readdirSync(outside), ['MEMORY.md']);
    assert.equal(readFileSync(path.join(outside, 'MEMORY.md'), 'utf8'), 'outside\n');
  } finally {
    a.cleanup();
    b.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test('the remember tool: a write like any other (ask mode asks, plan mode refuses), results for the model', async () => {
  const ws = tempWorkspace();
  try {
    const registry = new ToolRegistry([rememberTool]);
    const declined = fakeToolContext(ws.root, { mode: 'ask', approver: new ScriptedApprover({ action: () => ({ approved: false }) }) });
    const refused = await registry.invoke('remember', { fact: 'Deploys go through make release.' }, declined);
    assert.equal(refused.ok, false);
    assert.match(refused.output, /the user declined: remember: Deploys go through make release\./);
    assert.equal(existsSync(path.join(ws.root, MEMORY_FILE)), false);
    assert.match((await registry.invoke('remember', { fact: 'x' }, fakeToolContext(ws.root, { mode: 'plan' }))).output, /plan mode/);

    const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
    const ctx = fakeToolContext(ws.root, { mode: 'ask', approver });
    ctx.state.goal = 'ship it';
    const added = await registry.invoke('remember', { fact: 'Deploys go through make release.' }, ctx);
    assert.equal(added.ok, true, added.output);
    assert.match(added.output, /^remembered in \.patchpilot\/MEMORY\.md \(journal: \.patchpilot\/memory\/\d{4}-\d{2}-\d{2}\.md\)$/);
    assert.equal(approver.actionRequests[0]!.kind, 'write');
    assert.ok(ctx.events.some((e) => e.type === 'policy' && e.decision.rule === 'allow:memory'));
    // auto-edit: no question.
    assert.match(
      (await registry.invoke('remember', { fact: 'deploys go through make release' }, fakeToolContext(ws.root, { mode: 'auto-edit' }))).output,
      /already in/,
    );
    writeFileSync(path.join(ws.root, MEMORY_FILE), '# Memory\n');
    const again = await registry.invoke('remember', { fact: 'Deploys go through make release.' }, fakeToolContext(ws.root, { mode: 'auto-edit' }));
    assert.equal(again.ok, false);
    assert.match(again.output, /the user deleted this fact .* so it stays deleted/);
    assert.match((await registry.invoke('remember', { fact: ' ' }, fakeToolContext(ws.root, { mode: 'auto-edit' }))).output, /the fact is empty/);
  } finally {
    ws.cleanup();
  }
});
