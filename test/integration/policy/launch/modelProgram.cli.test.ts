// The model program (patchpilot.llm.command) runs on the host at every model request. One that runs
// a workspace file (which the agent could rewrite) starts only while everything it can load from the
// workspace is as the user approved it (policy/launch, like unsandboxed MCP servers and hooks): the
// built CLI refuses it unapproved and after any change (the program's own file, or the agent's edit
// of another), naming what changed and `patchpilot model-program approve`; approved, it starts.
// (Generated load shapes: modelProgramShapes.test.ts.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUGGY } from '../../../unit/orchestrator/harness';
import { gitInit, tempWorkspace } from '../../../unit/tools/helpers';
import { runCli, skipWithoutBuild } from '../../agent/support';

const TINY = path.resolve(__dirname, '../../../support/modelProgram/tinyModel.js');

describe('a model program that runs a workspace file is bound to its content (built CLI)', { skip: skipWithoutBuild }, () => {
  test('unapproved: refused naming how to approve; approved: runs; changed (append, rewrite): refused again naming the file', async () => {
    const ws = tempWorkspace(BUGGY);
    gitInit(ws.root);
    const state = mkdtempSync(path.join(tmpdir(), 'pp-model-state-'));
    try {
      mkdirSync(path.join(ws.root, 'tools'));
      const program = path.join(ws.root, 'tools', 'model.js');
      copyFileSync(TINY, program);
      // The request log outside the workspace: a file the command line names in the workspace is part of the approval.
      const log = path.join(state, 'model-requests.jsonl');
      const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(program)} agent ${JSON.stringify(log)}`;
      const env = { PATCHPILOT_STATE_HOME: state };
      const run = () =>
        runCli(['--goal', 'make the add test pass', '--workspace', ws.root, '--approve', 'auto-edit', '--llm-command', command, '--json'], { env });
      const approve = () => runCli(['approve', '--workspace', ws.root, '--llm-command', command], { env, command: 'model-program' });

      const unapproved = await run();
      assert.notEqual(unapproved.code, 0);
      assert.match(unapproved.stdout + unapproved.stderr, /not approved yet: approve it with `patchpilot model-program approve`/);
      assert.match(unapproved.stdout + unapproved.stderr, /tools\/model\.js/);
      assert.throws(() => readFileSync(log), 'the program never started');

      const approved = await approve();
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(approved.stdout, /approved the model program .* with tools\/model\.js/);
      assert.match(approved.stdout, /and everything it can load from the workspace \(\d+ entries/);
      // Approved, it starts; the agent's edit changes what it could load, so the next request is refused.
      const edited = await run();
      assert.notEqual(edited.code, 0);
      assert.equal(readFileSync(path.join(ws.root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
      assert.ok(readFileSync(log, 'utf8').trim().split('\n').length >= 1, 'the approved program started');
      assert.match(edited.stdout + edited.stderr, /add\.js \(changed\).*patchpilot model-program approve/s);
      assert.equal((await approve()).code, 0);

      for (const change of [() => appendFileSync(program, '\n// appended\n'), () => copyFileSync(TINY, program)]) {
        change();
        rmSync(log, { force: true });
        const stale = await run();
        assert.notEqual(stale.code, 0);
        assert.match(stale.stdout + stale.stderr, /a file it runs changed since it was approved: .*tools\/model\.js.*patchpilot model-program approve/s);
        assert.throws(() => readFileSync(log), 'the changed program never started');
        assert.equal((await approve()).code, 0);
      }
    } finally {
      ws.cleanup();
      rmSync(state, { recursive: true, force: true });
    }
  });
});
