// Restricted mode is one decorator of the ports that act on the workspace (session/restricted.ts):
// whatever reaches them in an untrusted workspace is refused with one message, and nothing reaches
// the host's own ports but reads and dry runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CommandExecutor, PatchEngine, TaskRunner, TestCommandRunner, WorkspaceFs } from '../../../src/core/ports';
import { RESTRICTED_RUN, RESTRICTED_WRITE, restrictedWhen, type ActingPorts } from '../../../src/core/session/restricted';

const PATCH = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n';
const ran = { exitCode: 0, output: 'ran', truncated: false, durationMs: 1, timedOut: false, cancelled: false };

function recordingPorts(calls: string[]): ActingPorts {
  const fs = {
    realRoot: async () => '/ws',
    stat: async () => (calls.push('stat'), { exists: true, type: 'file' as const }),
    readFile: async () => (calls.push('read'), new TextEncoder().encode('one\n')),
    list: async () => (calls.push('list'), []),
    writeFile: async () => void calls.push('write'),
    applyChanges: async () => void calls.push('changes'),
  } as unknown as WorkspaceFs;
  const patches: PatchEngine = {
    apply: async (_t, o) => (calls.push(o.dryRun ? 'dry-run' : 'apply'), { ok: true, dryRun: !!o.dryRun, files: [], reversePatch: '' }),
  };
  const exec: CommandExecutor = { sandboxed: true, run: async () => (calls.push('exec'), ran) };
  const tasks: TaskRunner = { run: async () => (calls.push('task'), ran) };
  const testCommands: TestCommandRunner = {
    sandboxed: true,
    workspaceTrusted: false,
    redefined: (command) => ({ reason: `${command} changed` }),
    run: async () => (calls.push('test'), ran),
  };
  return { fs, patches, exec, tasks, testCommands };
}

test('trusted: the ports are the host’s, untouched', () => {
  const ports = recordingPorts([]);
  assert.equal(restrictedWhen(false, ports), ports);
  assert.equal(restrictedWhen(undefined, ports), ports);
});

test('restricted: reads and dry runs go through; writes, patches, commands and test runs are refused with the one message', async () => {
  const calls: string[] = [];
  const ports = restrictedWhen(true, recordingPorts(calls));
  assert.equal(ports.exec, undefined, 'no command executor: run_command is not offered and hooks do not run');

  await ports.fs.readFile('a.txt');
  await ports.fs.list('.');
  await assert.rejects(ports.fs.writeFile('a.txt', 'x'), { message: RESTRICTED_WRITE });
  await assert.rejects(ports.fs.applyChanges([{ kind: 'delete', path: 'a.txt' }]), { message: RESTRICTED_WRITE });

  assert.equal((await ports.patches.apply(PATCH, { dryRun: true })).dryRun, true);
  const applied = await ports.patches.apply(PATCH, {});
  assert.deepEqual([applied.ok, applied.error], [false, RESTRICTED_WRITE]);

  for (const run of [ports.tasks.run({ command: 'npm test', cwd: '/ws' }), ports.testCommands.run({ command: 'npm test', cwd: '/ws' })]) {
    const r = await run;
    assert.deepEqual([r.exitCode, r.output, r.cancelled], [null, RESTRICTED_RUN, true]);
  }
  // The facts the agent's questions read stay; only where the command would run is gone.
  assert.equal(ports.testCommands.sandboxed, undefined);
  assert.equal(ports.testCommands.workspaceTrusted, false);
  assert.deepEqual(ports.testCommands.redefined?.('npm test'), { reason: 'npm test changed' });

  assert.deepEqual(calls, ['read', 'list', 'dry-run'], 'nothing but reads and the dry run reached the host');
});
