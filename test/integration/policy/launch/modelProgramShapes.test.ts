// Invariant 1 for the model program (patchpilot.llm.command): it runs on the host at every model
// request, so once its command line names a workspace file its approval binds everything it can load
// from the workspace (policy/launch, like an unsandboxed MCP server or hook). The shapes are the
// generator's (test/support/codeLoadShapes.ts: every way a Node or Python process loads code x every
// way to change it): each program is run as the model program is spawned (its command line split, no
// shell), proving it loads the file; approved, every writer makes the next start refused, naming
// what changed and how to approve; approved again, it starts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { splitCommandLine } from '../../../../src/core/llm/localProgram/programFetch';
import { ModelProgramApprovals } from '../../../../src/core/approvals/modelProgram';
import { commandLineOf, SHAPES, tick, workspace, WRITERS } from '../../../support/codeLoadShapes';

describe('the model program is bound to everything it can load from the workspace (generated shapes)', () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    test(`${name}: every writer makes the approved model program stale until approved again`, async () => {
      const ws = workspace(shape);
      const userState = mkdtempSync(path.join(tmpdir(), 'pp-model-user-'));
      try {
        const root = realpathSync(ws.root);
        const line = commandLineOf(shape, root);
        const [file, ...args] = splitCommandLine(line);
        const out = execFileSync(file!, args, { cwd: root, env: { ...process.env, NODE_TEST_CONTEXT: '' }, encoding: 'utf8' });
        assert.match(out, /helper loaded/, `${name} run as the model program does not load ${shape.loaded}`);
        const approvals = () => new ModelProgramApprovals({ root, userStateDir: userState });
        const first = approvals().check(line);
        assert.equal(first.approved, false, `${name}: runs workspace files, so it needs an approval`);
        assert.match(first.reason ?? '', /not approved yet: approve it with `patchpilot model-program approve`/);
        approvals().approve(line);
        for (const [writer, write] of Object.entries(WRITERS)) {
          assert.equal(approvals().check(line).approved, true, `${name}: approved and unchanged, it starts`);
          await tick();
          write(path.join(root, shape.loaded));
          const stale = approvals().check(line);
          assert.equal(stale.approved, false, `${name}, ${writer}: the change went unnoticed`);
          assert.match(stale.reason ?? '', /changed since it was approved.*: approve it with `patchpilot model-program approve`/s);
          approvals().approve(line);
        }
      } finally {
        ws.cleanup();
        rmSync(userState, { recursive: true, force: true });
      }
    });
  }

  test("a program that names no workspace file needs no approval (nothing of it is the agent's to write)", () => {
    const ws = workspace(SHAPES['static import']!);
    const userState = mkdtempSync(path.join(tmpdir(), 'pp-model-user-'));
    try {
      const root = realpathSync(ws.root);
      const outside = new ModelProgramApprovals({ root, userStateDir: userState }).check(`${JSON.stringify(process.execPath)} --version`);
      assert.deepEqual([outside.approved, outside.tree], [true, undefined]);
    } finally {
      ws.cleanup();
      rmSync(userState, { recursive: true, force: true });
    }
  });
});
