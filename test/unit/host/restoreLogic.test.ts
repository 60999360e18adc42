// The chat's and history panel's restore over the core's (WorkspaceRestores): real checkpoints in a
// temp workspace, the preview, unsaved editor files that block, restore / restore the rest / redo, the
// note for the agent, the steps that changed files, and requests that do not fit.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Checkpointer } from '../../../src/core/checkpoint';
import { RUNNING_REASON, WorkspaceRestores } from '../../../src/host/vscode/checkpoints/restoreLogic';
import type { CheckpointRestores } from '../../../src/host/vscode/checkpoints/checkpointRestores';
import type { ChatController } from '../../../src/host/vscode/chat/controller/chatController';
import { restoreApply as chatApply } from '../../../src/host/vscode/chat/handlers/restore';
import { restoreApply as historyApply } from '../../../src/host/vscode/history/handlers/restore';
import type { HistoryHandlerContext } from '../../../src/host/vscode/history/handlers/types';
import { validateHistoryToHost } from '../../../src/protocol/historyValidate';
import { validateToHost } from '../../../src/protocol/validate';
import { tempWorkspace } from '../tools/helpers';

/** A run of two steps: step 1 edits a.txt, step 2 creates b.txt and edits a.txt again. */
async function twoSteps() {
  const ws = tempWorkspace({ 'a.txt': 'a0\n', 'img.bin': 'x' });
  const abs = (rel: string) => path.join(ws.root, rel);
  const cp = new Checkpointer({ root: ws.root, stateDir: abs('.patchpilot'), maxBytes: 1024 ** 3, ignored: () => () => false, watch: false });
  let open = await cp.begin({ runId: 'run1', step: 1, tool: 'propose_patch', scope: ['a.txt'] });
  writeFileSync(abs('a.txt'), 'a1\n');
  await open!.end();
  open = await cp.begin({ runId: 'run1', step: 2, tool: 'run_command', scope: 'workspace' });
  writeFileSync(abs('a.txt'), 'a2\n');
  writeFileSync(abs('b.txt'), 'b\n');
  writeFileSync(abs('img.bin'), Buffer.from([0, 1, 2, 0]));
  await open!.end();
  return { ws, cp, abs, restores: new WorkspaceRestores(ws.root) };
}

const req = (beforeStep: number, redo = false) => ({ runId: 'run1', beforeStep, redo });

describe('WorkspaceRestores', () => {
  test('the preview lists each file in words, with a diff for text only, and writes nothing', async () => {
    const { ws, abs, restores } = await twoSteps();
    try {
      const p = restores.preview(req(1));
      assert.ok(p.ok);
      assert.deepEqual(p.steps, [1, 2]);
      assert.deepEqual(
        p.files.map((f) => [f.line, f.diff]),
        [
          ['restore a.txt', true],
          ['remove b.txt (created by the run)', true],
          ['restore img.bin', false],
        ],
      );
      assert.deepEqual(p.blocked, []);
      assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'a2\n');
      assert.equal(restores.sides(req(1), 'a.txt')!.afterText, 'a0\n');
      assert.equal(restores.sides(req(1), 'nope.txt'), undefined);
    } finally {
      ws.cleanup();
    }
  });

  test('restore, then redo: the files go back and forth, the agent gets a note, and only the last restore redoes', async () => {
    const { ws, cp, abs, restores } = await twoSteps();
    try {
      const done = restores.apply(req(2), false);
      assert.ok(done.ok, done.message);
      assert.match(done.message, /^Restored 3 files to before step 2 \(a\.txt, b\.txt, img\.bin\)\.$/);
      assert.deepEqual(done.done?.request, req(2));
      assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'a1\n');
      assert.equal(existsSync(abs('b.txt')), false);
      assert.equal(restores.apply(req(1, true), false).ok, false, 'a redo of another restore is refused');
      const redone = restores.apply(req(2, true), false);
      assert.ok(redone.ok, redone.message);
      assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'a2\n');
      assert.equal(readFileSync(abs('b.txt'), 'utf8'), 'b\n');
      assert.match(restores.apply(req(2, true), false).message, /can no longer be redone/);
      const notes = cp.takeNotes();
      assert.equal(notes.length, 2);
      assert.match(notes[0]!, /the user restored the workspace to before step 2 of run run1/);
      assert.match(notes[1]!, /the user redid/);
    } finally {
      ws.cleanup();
    }
  });

  test('a file changed since the run, or unsaved in an editor, blocks: nothing is written unless the rest is asked for', async () => {
    const { ws, abs, restores } = await twoSteps();
    try {
      writeFileSync(abs('a.txt'), 'mine\n');
      const p = restores.preview(req(1), new Set(['b.txt']));
      assert.ok(p.ok);
      assert.deepEqual(
        p.files.map((f) => f.path),
        ['img.bin'],
      );
      assert.deepEqual(
        p.blocked.map((b) => b.path),
        ['a.txt', 'b.txt'],
      );
      assert.match(p.blocked[0]!.reason, /changed since step 2/);
      assert.match(p.blocked[1]!.reason, /unsaved changes in an editor/);
      const refused = restores.apply(req(1), false, new Set(['b.txt']));
      assert.equal(refused.ok, false);
      assert.equal(refused.message, 'Nothing was restored: a.txt, b.txt block it.');
      assert.equal(readFileSync(abs('img.bin')).length, 4, 'nothing written');
      const rest = restores.apply(req(1), true, new Set(['b.txt']));
      assert.ok(rest.ok, rest.message);
      assert.match(rest.message, /left a\.txt, b\.txt as they are/);
      assert.equal(readFileSync(abs('a.txt'), 'utf8'), 'mine\n');
      assert.equal(readFileSync(abs('img.bin'), 'utf8'), 'x');
    } finally {
      ws.cleanup();
    }
  });

  test('the steps that changed files, and requests that do not fit', async () => {
    const { ws, restores } = await twoSteps();
    try {
      assert.deepEqual(
        restores.points('run1').map((p) => [p.step, p.tools, p.paths]),
        [
          [1, ['propose_patch'], ['a.txt']],
          [2, ['run_command'], ['a.txt', 'b.txt', 'img.bin']],
        ],
      );
      assert.deepEqual(restores.points('../x'), []);
      assert.deepEqual(restores.points('other'), []);
      const none = restores.preview({ runId: 'other', beforeStep: 1, redo: false });
      assert.equal(none.ok, false);
      assert.match(restores.preview(req(3)).ok ? '' : (restores.preview(req(3)) as { message: string }).message, /no step from 3 on changed files/);
      assert.match(restores.apply(req(1, true), false).message, /can no longer be redone/);
    } finally {
      ws.cleanup();
    }
  });

  test('the webviews cannot send a path out of the workspace, a bad run id or a step below 1', () => {
    const msg = (type: string, payload: unknown) => ({ kind: 'request', id: 1, type, payload });
    const ok = { runId: 'run-1', beforeStep: 2, redo: false };
    assert.equal(validateToHost(msg('restore/preview', ok)).ok, true);
    assert.equal(validateToHost(msg('restore/diff', { ...ok, path: 'src/a.ts' })).ok, true);
    assert.equal(validateToHost(msg('restore/apply', { ...ok, restoreRest: true })).ok, true);
    for (const bad of ['../etc/passwd', '/etc/passwd', 'a/../../b', '..'])
      assert.equal(validateToHost(msg('restore/diff', { ...ok, path: bad })).ok, false, bad);
    assert.equal(validateToHost(msg('restore/preview', { ...ok, runId: '../x' })).ok, false);
    assert.equal(validateToHost(msg('restore/preview', { ...ok, beforeStep: 0 })).ok, false);
    assert.equal(validateToHost(msg('restore/preview', { ...ok, beforeStep: 1.5 })).ok, false);
    assert.equal(validateToHost(msg('restore/apply', ok)).ok, false, 'restoreRest is required');
    assert.equal(validateHistoryToHost(msg('history/restoreApply', { ...ok, restoreRest: false })).ok, true);
    assert.equal(validateHistoryToHost(msg('history/restoreDiff', { ...ok, path: '../x' })).ok, false);
  });

  test('the chat and the history panel refuse a restore while a run works, and pass it on otherwise', async () => {
    const calls: unknown[] = [];
    const restores = {
      apply: (request: unknown, rest: boolean) => (calls.push([request, rest]), { ok: true, message: 'done', restored: ['a'], blocked: [] }),
    } as unknown as CheckpointRestores;
    const log = { info: () => undefined, warn: () => undefined };
    const payload = { ...req(1), restoreRest: true };
    for (const running of [true, false]) {
      const host = { running, restores } as unknown as ChatController;
      const chat = await chatApply(payload, { host, log });
      const history = await historyApply(payload, { restores, running: () => running, log } as unknown as HistoryHandlerContext);
      for (const answer of [chat, history]) assert.equal(answer.message, running ? RUNNING_REASON : 'done');
    }
    assert.deepEqual(calls, [
      [req(1), true],
      [req(1), true],
    ]);
  });
});
