import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  chmodSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { Checkpointer, planRestore, restore, planRedo, redo, resolveRun } from '../../../src/core/checkpoint';
import { HashIndex } from '../../../src/core/checkpoint/hashIndex';
import { tempWorkspace } from '../tools/helpers';

function setup(files: Record<string, string>, maxBytes = 1024 ** 3, ignored: (rel: string) => boolean = () => false, watch = true) {
  const ws = tempWorkspace(files);
  const cp = new Checkpointer({ root: ws.root, stateDir: path.join(ws.root, '.patchpilot'), maxBytes, ignored: () => (rel) => ignored(rel), watch });
  return { ws, cp, abs: (rel: string) => path.join(ws.root, rel) };
}

describe('Checkpointer', () => {
  for (const watch of [true, false]) {
    test(`a workspace capture records edits, creations, deletions, renames, links and modes; restore undoes them, redo redoes them (${watch ? 'change feed' : 'walk'})`, async () => {
      const { ws, cp, abs } = setup({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.sh': 'echo\n', 'keep.txt': 'k\n', 'dir/x.txt': 'x\n' }, 1024 ** 3, () => false, watch);
      try {
        // A change between steps (the user's) is not the step's.
        await (await cp.begin({ runId: 'r0', step: 1, tool: 'run_command', scope: 'workspace' }))!.end();
        writeFileSync(abs('dir/x.txt'), 'user\n');
        const open = await cp.begin({ runId: 'r1', step: 1, tool: 'run_command', scope: 'workspace' });
        writeFileSync(abs('a.txt'), 'A\n');
        unlinkSync(abs('b.txt'));
        renameSync(abs('keep.txt'), abs('moved.txt'));
        chmodSync(abs('c.sh'), 0o755);
        symlinkSync('a.txt', abs('link'));
        renameSync(abs('dir'), abs('dir2'));
        mkdirSync(abs('made/deeper'), { recursive: true });
        writeFileSync(abs('made/deeper/f.txt'), 'f\n');
        const record = await open!.end();
        assert.equal(cp.lastMode, watch ? 'feed' : 'walk');
        assert.deepEqual(
          record!.changes.map((c) => c.path),
          ['a.txt', 'b.txt', 'c.sh', 'dir', 'dir/x.txt', 'dir2', 'dir2/x.txt', 'keep.txt', 'link', 'made', 'made/deeper', 'made/deeper/f.txt', 'moved.txt'],
        );
        assert.equal(record!.changes.find((c) => c.path === 'dir/x.txt')!.before!.size, 5, "the user's bytes, seen before the step");

        const plan = planRestore(cp.store, ws.root, 'r1', 1);
        assert.deepEqual(plan.blocked, []);
        assert.equal(restore(cp.store, ws.root, plan).ok, true);
        assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'a\n');
        assert.equal(readFileSync(abs('b.txt'), 'utf8'), 'b\n');
        assert.equal(readFileSync(abs('keep.txt'), 'utf8'), 'k\n');
        assert.equal(existsSync(abs('moved.txt')) || existsSync(abs('link')) || existsSync(abs('made')) || existsSync(abs('dir2')), false);
        assert.equal(readFileSync(abs('dir/x.txt'), 'utf8'), 'user\n');
        assert.equal(statSync(abs('c.sh')).mode & 0o777, 0o644 & ~process.umask() & 0o777);

        const again = planRedo(cp.store, ws.root)!;
        assert.equal(redo(cp.store, ws.root, again).ok, true);
        assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'A\n');
        assert.equal(readFileSync(abs('moved.txt'), 'utf8'), 'k\n');
        assert.equal(statSync(abs('c.sh')).mode & 0o777, 0o755);
        // Two notes for the agent's next turn, taken once.
        assert.equal(cp.takeNotes().length, 2);
        assert.deepEqual(cp.takeNotes(), []);
      } finally {
        cp.dispose();
        ws.cleanup();
      }
    });
  }

  test('a path capture removes the folders a write created; ignored paths and the state folder are left out of a workspace capture', async () => {
    const { ws, cp, abs } = setup({ 'x.txt': 'x\n' }, 1024 ** 3, (rel) => rel === 'build' || rel.startsWith('build/'));
    try {
      const open = await cp.begin({ runId: 'r', step: 1, tool: 'write_file', scope: ['deep/er/new.txt'] });
      mkdirSync(abs('deep/er'), { recursive: true });
      writeFileSync(abs('deep/er/new.txt'), 'new\n');
      await open!.end();
      const cmd = await cp.begin({ runId: 'r', step: 2, tool: 'run_command', scope: 'workspace' });
      mkdirSync(abs('build'));
      writeFileSync(abs('build/out.js'), 'ignored\n');
      assert.equal(await cmd!.end(), undefined, 'only ignored output: nothing recorded');
      assert.equal(restore(cp.store, ws.root, planRestore(cp.store, ws.root, 'r', 1)).ok, true);
      assert.equal(existsSync(abs('deep')), false);
      assert.equal(existsSync(abs('build/out.js')), true);
    } finally {
      ws.cleanup();
    }
  });

  test('a file changed since the step blocks the restore, which then changes nothing', async () => {
    const { ws, cp, abs } = setup({ 'a.txt': '1\n', 'b.txt': '1\n' });
    try {
      const open = await cp.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace' });
      writeFileSync(abs('a.txt'), '2\n');
      writeFileSync(abs('b.txt'), '2\n');
      await open!.end();
      writeFileSync(abs('b.txt'), 'user\n');
      const plan = planRestore(cp.store, ws.root, 'r', 1);
      assert.deepEqual(
        plan.blocked.map((b) => b.path),
        ['b.txt'],
      );
      const result = restore(cp.store, ws.root, plan);
      assert.equal(result.ok, false);
      assert.equal(readFileSync(abs('a.txt'), 'utf8'), '2\n');
      assert.equal(restore(cp.store, ws.root, plan, { restoreRest: true }).ok, true);
      assert.deepEqual([readFileSync(abs('a.txt'), 'utf8'), readFileSync(abs('b.txt'), 'utf8')], ['1\n', 'user\n']);
    } finally {
      ws.cleanup();
    }
  });

  test('a folder the run created that now holds ignored files blocks its removal; a run id prefix is enough', async () => {
    const { ws, cp, abs } = setup({}, 1024 ** 3, (rel) => rel.endsWith('.log'));
    try {
      const open = await cp.begin({ runId: 'run-abc', step: 1, tool: 'run_command', scope: 'workspace' });
      mkdirSync(abs('out'));
      writeFileSync(abs('out/a.js'), 'a');
      writeFileSync(abs('out/build.log'), 'ignored');
      await open!.end();
      const plan = planRestore(cp.store, ws.root, resolveRun(cp.store, 'run-a'), 1);
      assert.deepEqual(
        plan.blocked.map((b) => b.path),
        ['out'],
      );
      assert.match(plan.blocked[0]!.reason, /build\.log/);
      assert.equal(restore(cp.store, ws.root, plan).ok, false);
      assert.equal(existsSync(abs('out/a.js')), true);
    } finally {
      cp.dispose();
      ws.cleanup();
    }
  });

  test('same bytes are stored once; restore points over maxBytes: the oldest run goes first', async () => {
    // The copy of the workspace as it is now (y, 40 bytes) does not count: the restore points hold 'same' and x, 45 bytes.
    const { ws, cp, abs } = setup({ 'a.txt': 'same\n', 'b.txt': 'same\n' }, 40);
    try {
      for (const [run, content] of [
        ['old', 'x'.repeat(40)],
        ['new', 'y'.repeat(40)],
      ] as const) {
        const open = await cp.begin({ runId: run, step: 1, tool: 'write_file', scope: ['a.txt', 'b.txt'] });
        writeFileSync(abs('a.txt'), content);
        writeFileSync(abs('b.txt'), content);
        await open!.end();
      }
      assert.deepEqual(
        cp.store.runs().map((r) => r.runId),
        ['new'],
      );
      const blobs = cp.store.blobs.list();
      // 'same' (5 bytes) went with the old run; x (the new run's before) and y stay, once each for two files.
      assert.equal(
        blobs.reduce((n, b) => n + b.size, 0),
        80,
        JSON.stringify(blobs),
      );
      assert.throws(() => planRestore(cp.store, ws.root, 'old', 1), /no checkpoints/);
      assert.equal(readdirSync(path.join(ws.root, '.patchpilot/checkpoints')).includes('.gitignore'), true);
    } finally {
      ws.cleanup();
    }
  });

  test('the stat cache survives a torn last line (a kill -9 mid-append)', () => {
    const ws = tempWorkspace({});
    try {
      const file = path.join(ws.root, 'index.jsonl');
      const index = new HashIndex(file);
      index.set('a', 's1', 'h1');
      index.flush();
      appendFileSync(file, '["b","s2","h');
      const reloaded = new HashIndex(file);
      assert.equal(reloaded.lookup('a', 's1'), 'h1');
      assert.equal(reloaded.lookup('b', 's2'), undefined);
      reloaded.set('c', 's3', 'h3');
      reloaded.flush();
      assert.equal(new HashIndex(file).lookup('c', 's3'), undefined, 'appended to the torn line: lost, a cache miss only');
    } finally {
      ws.cleanup();
    }
  });
});
