// The agent's state folder is created as a real folder when the store opens (before any command
// of the agent runs) and is never written through a link, even when a link replaces it between saves.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { openHistoryStore, prepareStateFolder } from '../../../src/core/history';
import { ensureRealFolderChain } from '../../../src/core/history/stateFolder';
import { withHistoryWorkspace } from '../../support/historyWorkspace';

for (const mode of ['in-process', 'worker'] as const) {
  describe(`history state folder (${mode})`, () => {
    test('opening for a run creates .patchpilot as a real folder before anything is written', () =>
      withHistoryWorkspace(async (ws) => {
        const store = await openHistoryStore({ workspace: ws.dir, mode, exitHook: false, createStateFolder: true });
        try {
          assert.ok(lstatSync(path.join(ws.dir, '.patchpilot')).isDirectory());
        } finally {
          await store.close();
        }
      }));

    test('opened only to read (the window at activation), no .patchpilot appears until something is written', () =>
      withHistoryWorkspace(async (ws) => {
        const stateDir = path.join(ws.dir, '.patchpilot');
        const store = await openHistoryStore({ workspace: ws.dir, mode, exitHook: false, persistDelayMs: 0 });
        try {
          assert.deepEqual(await store.listRuns(), []);
          await store.flush();
          assert.equal(existsSync(stateDir), false, 'reading made the state folder');
          await store.startRun({ goal: 'first' });
          await store.flush();
          assert.ok(lstatSync(stateDir).isDirectory(), 'the first write makes the folder');
          assert.ok(existsSync(path.join(stateDir, 'history.db')));
        } finally {
          await store.close();
        }
      }));

    test('prepareStateFolder makes the folder of a lent store for a run, and only with create', () =>
      withHistoryWorkspace(async (ws) => {
        const stateDir = path.join(ws.dir, '.patchpilot');
        assert.equal(prepareStateFolder({ workspace: ws.dir }, false).dbPath, path.join(stateDir, 'history.db'));
        assert.equal(existsSync(stateDir), false);
        prepareStateFolder({ workspace: ws.dir }, true);
        assert.ok(lstatSync(stateDir).isDirectory());
      }));

    test('a .patchpilot that is a link to an outside folder is refused at open; nothing is written there', () =>
      withHistoryWorkspace(async (ws) => {
        const outside = path.join(ws.dir, '..', `${path.basename(ws.dir)}-outside`);
        mkdirSync(outside);
        try {
          symlinkSync(outside, path.join(ws.dir, '.patchpilot'));
          await assert.rejects(
            openHistoryStore({ workspace: ws.dir, mode, exitHook: false }),
            /is a symbolic link; PatchPilot never writes its state through a link/,
          );
          assert.deepEqual(readdirSync(outside), []);
        } finally {
          rmrf(outside);
        }
      }));

    test('a link swapped in between saves: the save is refused (data kept in memory), nothing lands outside', () =>
      withHistoryWorkspace(async (ws) => {
        const outside = path.join(ws.dir, '..', `${path.basename(ws.dir)}-outside`);
        mkdirSync(outside);
        const store = await openHistoryStore({
          workspace: ws.dir,
          mode,
          exitHook: false,
          persistDelayMs: 10_000,
          maxPersistDelayMs: 10_000,
          retryBaseMs: 60_000,
        });
        try {
          await store.startRun({ goal: 'first' });
          await store.flush();
          renameSync(path.join(ws.dir, '.patchpilot'), path.join(ws.dir, 'moved'));
          symlinkSync(outside, path.join(ws.dir, '.patchpilot'));
          await store.startRun({ goal: 'second' });
          await assert.rejects(store.flush(), /symbolic link/);
          assert.deepEqual(readdirSync(outside), [], 'nothing was written through the link');
          assert.equal((await store.listRuns()).length, 2, 'the run is kept in memory');
        } finally {
          await store.close().catch(() => undefined);
          rmrf(outside);
        }
      }));
  });
}

test('ensureRealFolderChain: creates missing folders one by one, refuses a linked parent and a file on the way', () =>
  withHistoryWorkspace((ws) => {
    ensureRealFolderChain(ws.dir, path.join(ws.dir, 'a', 'b', 'c'));
    assert.ok(lstatSync(path.join(ws.dir, 'a', 'b', 'c')).isDirectory());
    symlinkSync(path.join(ws.dir, 'a'), path.join(ws.dir, 'l'));
    assert.throws(() => ensureRealFolderChain(ws.dir, path.join(ws.dir, 'l', 'x')), /symbolic link/);
    assert.equal(existsSync(path.join(ws.dir, 'a', 'x')), false, 'nothing created through the link');
    assert.throws(() => ensureRealFolderChain(ws.dir, path.join(ws.dir, '..', 'elsewhere')), /outside the workspace/);
  }));

function rmrf(p: string): void {
  require('node:fs').rmSync(p, { recursive: true, force: true });
}
