// The one wiring of CLI and extension: restricted mode (an untrusted workspace) writes and runs
// nothing, whatever the host lends it (its patch engine, its files, its test runner).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync } from 'node:fs';
import path from 'node:path';
import { openHistoryStore } from '../../../src/core/history';
import { DEFAULT_SETTINGS, type PatchPilotSettings } from '../../../src/core/config/settings';
import type { ResolvedConfig } from '../../../src/core/config';
import type { PatchEngine, TaskRunner, WorkspaceFs } from '../../../src/core/ports';
import { createAgent } from '../../../src/core/session';
import { fakeHost } from '../../support/fakes';
import { tempWorkspace } from '../tools/helpers';

const PATCH = '--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n';

async function wire(readOnly: boolean) {
  const ws = tempWorkspace({ 'a.txt': 'one\n' });
  const calls: string[] = [];
  const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  settings.llm.baseUrl = 'http://127.0.0.1:9/v1';
  settings.llm.model = 'm';
  settings.history.path = '.patchpilot/history.db';
  const config: ResolvedConfig = { settings, sources: {}, values: {}, ignored: [], warnings: [] };
  const engine: PatchEngine = {
    apply: async (_t, o) => (calls.push(o.dryRun ? 'dry-run' : 'apply'), { ok: true, dryRun: !!o.dryRun, files: [], reversePatch: '' }),
  };
  const fs = {
    realRoot: async () => ws.root,
    stat: async () => ({ exists: false }),
    readFile: async () => new Uint8Array(),
    list: async () => [],
    writeFile: async () => void calls.push('write'),
    applyChanges: async () => void calls.push('changes'),
  } as WorkspaceFs;
  const tasks: TaskRunner = {
    run: async () => (calls.push('task'), { exitCode: 0, output: '', truncated: false, durationMs: 0, timedOut: false, cancelled: false }),
  };
  const host = fakeHost(ws.root, { tasks: () => tasks, patches: () => engine, fs: () => fs });
  const wired = await createAgent(host, config, { readOnly, historyMode: 'in-process' });
  return {
    deps: wired.deps,
    calls,
    close: async () => {
      await wired.history?.close();
      ws.cleanup();
    },
  };
}

test('trusted: the host lends the patch engine, the files and the test runner', async () => {
  const { deps, calls, close } = await wire(false);
  try {
    assert.equal(deps.settings.approval.mode, DEFAULT_SETTINGS.approval.mode);
    assert.ok(deps.exec);
    await deps.patches!.apply(PATCH, {});
    await deps.fs!.writeFile('a.txt', 'x');
    await deps.tasks.run({ command: 'true', cwd: deps.root, timeoutMs: 1000 });
    assert.deepEqual(calls, ['apply', 'write', 'task']);
  } finally {
    await close();
  }
});

test('restricted mode: plan mode, no executor, dry runs only, no write and no test run reach the host', async () => {
  const { deps, calls, close } = await wire(true);
  try {
    assert.equal(deps.settings.approval.mode, 'plan');
    assert.equal(deps.exec, undefined);
    assert.equal(
      deps.tools.list().some((t) => t.name === 'run_command'),
      false,
    );
    assert.equal((await deps.patches!.apply(PATCH, { dryRun: true })).dryRun, true);
    const applied = await deps.patches!.apply(PATCH, {});
    assert.equal(applied.ok, false);
    assert.match(applied.error ?? '', /not trusted/);
    await assert.rejects(deps.fs!.writeFile('a.txt', 'x'), /not trusted/);
    await assert.rejects(deps.fs!.applyChanges([{ kind: 'delete', path: 'a.txt' }]), /not trusted/);
    const ran = await deps.tasks.run({ command: 'true', cwd: deps.root, timeoutMs: 1000 });
    assert.equal(ran.exitCode, null);
    assert.deepEqual(calls, ['dry-run']);
  } finally {
    await close();
  }
});

test('a history the host opened only to read gets its state folder when the agent is made, before any command', async () => {
  const ws = tempWorkspace({ 'a.txt': 'one\n' });
  const settings = structuredClone(DEFAULT_SETTINGS) as PatchPilotSettings;
  settings.llm.baseUrl = 'http://127.0.0.1:9/v1';
  settings.llm.model = 'm';
  const config: ResolvedConfig = { settings, sources: {}, values: {}, ignored: [], warnings: [] };
  // The window's store: opened at activation without making the folder.
  const lent = await openHistoryStore({ workspace: ws.root, mode: 'in-process', exitHook: false });
  try {
    assert.equal(existsSync(path.join(ws.root, '.patchpilot')), false);
    const host = fakeHost(ws.root, { history: async () => lent, tasks: () => ({ run: async () => assert.fail('no command runs here') }) });
    await createAgent(host, config, { readOnly: false });
    assert.ok(lstatSync(path.join(ws.root, '.patchpilot')).isDirectory());
  } finally {
    await lent.close();
    ws.cleanup();
  }
});
