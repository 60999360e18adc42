// Attack: a repository commits `.patchpilot` (or a folder below it) as a symlink, and PatchPilot's own
// writes (imported rules, checkpoints, restores, memory) land outside the workspace. Invariant: every
// write goes through one confined writer (src/core/fs/confinedWrite.ts; the agent's file edits
// through its async twin, confinedCommit.ts): no folder on the way may be a symlink. For every writer,
// a symlink out of the workspace is planted at each depth of its path; the write must be refused
// with a clear error and nothing may appear outside. A restore's removals go the same way: with a
// link planted at each depth (before the restore is planned, or between the plan and its writing),
// nothing outside is removed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Checkpointer, planRestore, restore } from '../../../../src/core/checkpoint';
import { hashBytes } from '../../../../src/core/checkpoint/blobStore';
import { CheckpointStore } from '../../../../src/core/checkpoint/checkpointStore';
import { MEMORY_FILE, rememberFact } from '../../../../src/core/context/memory/memoryFiles';
import { nodeFs } from '../../../../src/core/fs/fsLayer';
import { moveAside } from '../../../../src/core/fs/moveAside';
import { FileLock } from '../../../../src/core/history/fileLock';
import { CLI, cliEnv } from '../../agent/support';

const ROO_SETTINGS = path.resolve(__dirname, '../../../fixtures/import/roo-code-settings.json');

interface Writer {
  name: string;
  /** The file it writes, relative to the workspace. */
  target: string;
  write(root: string): Promise<unknown> | unknown;
}

const RECORD = { runId: 'r1', seq: 1, step: 1, items: [] };
const BLOB = Buffer.from('bytes');
const BLOB_HASH = hashBytes(BLOB);

const LOCK_TIMING = { timeoutMs: 200, staleMs: 30_000 };
/** The history database's lock, as the store takes it (its root the workspace), at `target`. */
const historyLock = (root: string, target: string) => new FileLock(nodeFs, path.join(root, target), LOCK_TIMING, root);

const WRITERS: Writer[] = [
  { name: 'history lock', target: '.patchpilot/history.db.lock', write: (root) => historyLock(root, '.patchpilot/history.db.lock').acquire() },
  {
    name: 'history lock (history.path in a subfolder)',
    target: '.patchpilot/state/history.db.lock',
    write: (root) => historyLock(root, '.patchpilot/state/history.db.lock').acquire(),
  },
  {
    name: 'checkpoint record',
    target: '.patchpilot/checkpoints/runs/r1/000001.json',
    write: (root) => new CheckpointStore(path.join(root, '.patchpilot')).save(RECORD as never),
  },
  {
    name: 'checkpoint blob',
    target: `.patchpilot/checkpoints/blobs/${BLOB_HASH.slice(0, 2)}/${BLOB_HASH}`,
    write: (root) => new CheckpointStore(path.join(root, '.patchpilot')).blobs.put(BLOB),
  },
  { name: 'checkpoint folder', target: '.patchpilot/checkpoints/.gitignore', write: (root) => new CheckpointStore(path.join(root, '.patchpilot')).ensure() },
  {
    name: 'checkpoint index',
    target: '.patchpilot/checkpoints/index.jsonl',
    write: (root) => {
      const index = new CheckpointStore(path.join(root, '.patchpilot')).index;
      index.set('a.txt', 'sig', 'hash');
      index.flush();
    },
  },
  { name: 'memory', target: MEMORY_FILE, write: (root) => rememberFact(root, 'a fact') },
  {
    name: 'import --yes (rules file)',
    target: '.patchpilot/rules/imported-roo.md',
    write: (root) => {
      const env = cliEnv({ HOME: path.join(root, '..', 'home'), XDG_CONFIG_HOME: path.join(root, '..', 'home', '.config') });
      const r = spawnSync(process.execPath, [CLI, 'import', '--from', 'roo', ROO_SETTINGS, '--workspace', root, '--yes'], { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      // Loses nothing: refused before the user's settings file was written either.
    },
  },
];

/** Every folder on the way to `target` (".patchpilot", ".patchpilot/checkpoints", ...). */
const foldersOf = (target: string) =>
  path
    .dirname(target)
    .split('/')
    .map((_, i, parts) => parts.slice(0, i + 1).join('/'));

function arena() {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-writers-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  mkdirSync(path.join(base, 'home'));
  return { base, root, outside, done: () => rmSync(base, { recursive: true, force: true }) };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

describe('every write goes through the one confined writer: a symlinked folder at each depth is refused', () => {
  for (const writer of WRITERS) {
    test(`${writer.name}: ${writer.target}`, async (t) => {
      if (writer.name.startsWith('import') && !existsSync(CLI)) return t.skip('run npm run build first');
      for (const folder of foldersOf(writer.target)) {
        const a = arena();
        try {
          // The folders above the link are real; the link points at a folder outside, the rest of the way made there.
          mkdirSync(path.dirname(path.join(a.root, folder)), { recursive: true });
          const rest = path.relative(folder, path.dirname(writer.target));
          mkdirSync(path.join(a.outside, rest), { recursive: true });
          symlinkSync(a.outside, path.join(a.root, folder));
          await assert.rejects(
            async () => writer.write(a.root),
            /symlink|link|refused|left the workspace|outside/i,
            `${writer.name} with ${folder} a link: must be refused`,
          );
          assert.deepEqual(filesUnder(a.outside), [], `${writer.name} with ${folder} a link wrote outside the workspace`);
        } finally {
          a.done();
        }
      }
      // Control: without a link the writer writes its file.
      const a = arena();
      try {
        await writer.write(a.root);
        assert.ok(existsSync(path.join(a.root, path.dirname(writer.target))), `${writer.name} wrote nothing without a link`);
      } finally {
        a.done();
      }
    });
  }
});

describe("the history lock's later steps go through real folders only", () => {
  const target = '.patchpilot/state/history.db.lock';
  for (const folder of foldersOf(target)) {
    test(`a lock held, then ${folder} swapped for a link out holding a copy of the lock: heartbeat, fencing and release reach nothing outside`, () => {
      const a = arena();
      try {
        const lock = historyLock(a.root, target);
        lock.acquire();
        const lockText = readFileSync(path.join(a.root, target), 'utf8');
        // A command moves the real folder away and links its name to a folder outside, where it copied the lock.
        const real = path.join(a.root, folder);
        renameSync(real, `${real}.moved`);
        const copy = path.join(a.outside, path.relative(folder, target));
        mkdirSync(path.dirname(copy), { recursive: true });
        writeFileSync(copy, lockText);
        const old = new Date(Date.now() - 60_000);
        utimesSync(copy, old, old);
        symlinkSync(a.outside, real);
        lock.touch();
        assert.ok(Math.abs(statSync(copy).mtimeMs - old.getTime()) < 1, 'the heartbeat touched the copy outside');
        assert.throws(() => lock.verifyHeld(), /lost the history lock/, 'the fencing check believed the copy outside');
        lock.release();
        assert.equal(readFileSync(copy, 'utf8'), lockText, 'the release removed the copy outside');
        assert.throws(() => lock.acquire(), /symlink|link/i, 'a new lock through the link must be refused');
        assert.deepEqual(filesUnder(a.outside), [copy], 'something was written outside');
      } finally {
        a.done();
      }
    });
  }
});

describe('a restore writes through real folders only', () => {
  test('a folder of the workspace swapped for a link out after the checkpoint: the restore is refused, nothing lands outside', async () => {
    for (const depth of [1, 2]) {
      const a = arena();
      try {
        const folders = ['src', 'src/lib'].slice(0, depth);
        const file = `${folders.at(-1)}/a.txt`;
        mkdirSync(path.join(a.root, folders.at(-1)!), { recursive: true });
        writeFileSync(path.join(a.root, file), 'kept\n');
        const cp = new Checkpointer({ root: a.root, stateDir: path.join(a.root, '.patchpilot'), maxBytes: 1024 ** 3, ignored: () => () => false });
        const open = await cp.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace' });
        rmSync(path.join(a.root, file));
        await open!.end();
        // The link replaces the deepest folder; the restore would put a.txt back through it.
        const linked = path.join(a.root, folders.at(-1)!);
        rmSync(linked, { recursive: true, force: true });
        symlinkSync(a.outside, linked);
        const result = restore(cp.store, a.root, planRestore(cp.store, a.root, 'r', 1));
        assert.equal(result.ok, false, `depth ${depth}: ${JSON.stringify(result)}`);
        assert.deepEqual(filesUnder(a.outside), [], `depth ${depth}: the restore wrote outside the workspace`);
      } finally {
        a.done();
      }
    }
  });
});

/** What a run created (and a restore to before it removes): a file, an empty folder, a link. */
const CREATED: { name: string; entry: string; make(abs: string): void }[] = [
  { name: 'a file', entry: 'new.txt', make: (abs) => writeFileSync(abs, 'made by the run\n') },
  { name: 'an empty folder', entry: 'made', make: (abs) => mkdirSync(abs) },
  { name: 'a link', entry: 'ln', make: (abs) => symlinkSync('new.txt', abs) },
];
const FOLDERS = ['src', 'src/lib', 'src/lib/deep'];

describe("a restore's removals go through real folders only", () => {
  for (const created of CREATED)
    for (const when of ['before the plan', 'between the plan and its writing'] as const)
      test(`a run made ${created.name}; a folder on the way swapped for a link out ${when}: nothing outside is removed`, async () => {
        const deepest = FOLDERS.at(-1)!;
        for (const folder of FOLDERS) {
          const a = arena();
          try {
            mkdirSync(path.join(a.root, deepest), { recursive: true });
            const cp = new Checkpointer({ root: a.root, stateDir: path.join(a.root, '.patchpilot'), maxBytes: 1024 ** 3, ignored: () => () => false });
            const open = await cp.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace' });
            created.make(path.join(a.root, deepest, created.entry));
            await open!.end();
            // Outside: the same rest of the path, holding the same entry (so a restore that followed the link would find it as the run left it).
            const rest = path.relative(folder, deepest);
            mkdirSync(path.join(a.outside, rest), { recursive: true });
            created.make(path.join(a.outside, rest, created.entry));
            const plant = () => {
              rmSync(path.join(a.root, folder), { recursive: true, force: true });
              symlinkSync(a.outside, path.join(a.root, folder));
            };
            if (when === 'before the plan') plant();
            const plan = planRestore(cp.store, a.root, 'r', 1);
            if (when !== 'before the plan') plant();
            const result = restore(cp.store, a.root, plan);
            const kept = path.join(a.outside, rest, created.entry);
            assert.ok(lstatOrUndefined(kept), `${folder} a link (${when}): the restore removed ${kept} outside the workspace (${JSON.stringify(result)})`);
            if (plan.items.some((i) => i.path.endsWith(created.entry)))
              assert.equal(result.ok, false, `${folder} a link: a removal through it is refused, not skipped silently: ${JSON.stringify(result)}`);
          } finally {
            a.done();
          }
        }
        // Control: through real folders the restore removes what the run made.
        const a = arena();
        try {
          mkdirSync(path.join(a.root, deepest), { recursive: true });
          const cp = new Checkpointer({ root: a.root, stateDir: path.join(a.root, '.patchpilot'), maxBytes: 1024 ** 3, ignored: () => () => false });
          const open = await cp.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace' });
          created.make(path.join(a.root, deepest, created.entry));
          await open!.end();
          const result = restore(cp.store, a.root, planRestore(cp.store, a.root, 'r', 1));
          assert.equal(result.ok, true, JSON.stringify(result));
          assert.equal(lstatOrUndefined(path.join(a.root, deepest, created.entry)), undefined, 'removed');
        } finally {
          a.done();
        }
      });
});

function lstatOrUndefined(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return undefined;
  }
}

describe('a damaged file is moved aside only through real folders', () => {
  for (const target of ['.patchpilot/history.db', '.patchpilot/state/history.db']) {
    test(`moveAside of ${target}: a link at each depth leaves the outside file where it is`, () => {
      for (const folder of foldersOf(target)) {
        const a = arena();
        try {
          mkdirSync(path.dirname(path.join(a.root, folder)), { recursive: true });
          const rest = path.relative(folder, path.dirname(target));
          mkdirSync(path.join(a.outside, rest), { recursive: true });
          writeFileSync(path.join(a.outside, rest, path.basename(target)), 'not a database');
          symlinkSync(a.outside, path.join(a.root, folder));
          const before = filesUnder(a.outside);
          assert.equal(moveAside(path.join(a.root, target), Date.now(), nodeFs, a.root), undefined, `${folder} a link: nothing moved`);
          assert.deepEqual(filesUnder(a.outside), before, `${folder} a link: the file outside was renamed`);
        } finally {
          a.done();
        }
      }
      // Control: through real folders it is renamed next to itself.
      const a = arena();
      try {
        mkdirSync(path.join(a.root, path.dirname(target)), { recursive: true });
        writeFileSync(path.join(a.root, target), 'not a database');
        const moved = moveAside(path.join(a.root, target), Date.now(), nodeFs, a.root);
        assert.ok(moved?.startsWith(path.join(a.root, `${target}.corrupt-`)), `moved to ${moved}`);
        assert.ok(existsSync(moved!) && !existsSync(path.join(a.root, target)));
      } finally {
        a.done();
      }
    });
  }
});
