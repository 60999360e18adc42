// The file tools reach the workspace only through ctx.fs (the WorkspaceFs port): the disk of the
// temp workspace and the port's view differ here (as an unsaved VS Code buffer differs from the
// disk), and every tool must report the port's view. Before the port was required, list_dir, the JS
// grep and run_command's cwd check read the disk directly.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { IgnoreRules } from '../../../src/core/git/ignoreRules';
import { grepWithJs } from '../../../src/core/tools/grepJs';
import { listDirTool } from '../../../src/core/tools/listDir';
import { readFileTool } from '../../../src/core/tools/readFile';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import type { CommandExecutor, CommandPolicy } from '../../../src/core/ports';
import { FakeWorkspaceFs } from '../../support/fakes';
import { tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const onDisk = { 'src/a.ts': 'export const a = 1;\n', 'README.md': '# demo\n' };

function setup() {
  const ws = tempWorkspace(onDisk);
  const fs = new FakeWorkspaceFs({ ...onDisk, 'src/only-in-port.ts': 'x\n', 'lib/util.ts': 'u\n' });
  fs.buffers.set('src/a.ts', 'export const a = 2; // needle, unsaved\n');
  return { ws, fs };
}

describe('file tools: one code path, through the WorkspaceFs port', () => {
  test("read_file shows the port's text (an unsaved buffer), not the disk's", async () => {
    const { ws, fs } = setup();
    try {
      const r = await readFileTool.run({ path: 'src/a.ts' }, fakeToolContext(ws.root, { fs }));
      assert.match(r.output, /needle, unsaved/);
    } finally {
      ws.cleanup();
    }
  });

  test('list_dir lists what the port lists', async () => {
    const { ws, fs } = setup();
    try {
      const r = await listDirTool.run({ path: 'src' }, fakeToolContext(ws.root, { fs }));
      assert.match(r.output, /only-in-port\.ts/);
      const root = await listDirTool.run({}, fakeToolContext(ws.root, { fs }));
      assert.match(root.output, /^lib\/$/m, 'the root is listed through the port too');
    } finally {
      ws.cleanup();
    }
  });

  test('the JS grep reads each file through the port', async () => {
    const { ws, fs } = setup();
    try {
      const outcome = await grepWithJs({
        root: ws.root,
        fs,
        pattern: 'needle',
        path: '',
        maxMatches: 10,
        rules: new IgnoreRules(ws.root),
        signal: new AbortController().signal,
      });
      assert.deepEqual(
        outcome.matches.map((m) => m.path),
        ['src/a.ts'],
      );
    } finally {
      ws.cleanup();
    }
  });

  test('run_command checks its cwd through the port', async () => {
    const { ws, fs } = setup();
    const ran: string[] = [];
    const commandPolicy: CommandPolicy = { check: () => ({ verdict: 'allow', rule: 'test', reason: 'allowed by the test' }) };
    const exec: CommandExecutor = {
      sandboxed: true,
      run: async (o) => (ran.push(o.cwd), { exitCode: 0, output: 'ok', truncated: false, durationMs: 1, timedOut: false, cancelled: false }),
    };
    try {
      const r = await runCommandTool.run({ command: 'true', cwd: 'lib' }, fakeToolContext(ws.root, { fs, commandPolicy, exec, mode: 'auto' }));
      assert.equal(r.ok, true, r.output);
      assert.equal(ran.length, 1);
    } finally {
      ws.cleanup();
    }
  });

  test("write_file writes through the port and compares with the port's text", async () => {
    const { ws, fs } = setup();
    try {
      const same = await writeFileTool.run(
        { path: 'src/a.ts', content: 'export const a = 2; // needle, unsaved\n' },
        fakeToolContext(ws.root, { fs, mode: 'auto' }),
      );
      assert.match(same.output, /already has this content/);
      await writeFileTool.run({ path: 'new/b.ts', content: 'b\n' }, fakeToolContext(ws.root, { fs, mode: 'auto' }));
      assert.equal(fs.disk.get('new/b.ts'), 'b\n');
    } finally {
      ws.cleanup();
    }
  });
});
