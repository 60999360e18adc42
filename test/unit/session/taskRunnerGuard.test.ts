// One trust filter for the whole product: the test runner the host builds gets the guard, the
// environment names and the home exceptions that the core's resolver made from user AND workspace
// settings (lists add up), the same as run_command. Before, VS Code's test tasks read the settings
// again through `config.get`, where a workspace list replaced the user's deny rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readHostConfig } from '../../../src/host/vscode/config/settingsReader';
import { createAgent } from '../../../src/core/session';
import type { TaskRunnerFactory } from '../../../src/core/ports';
import { fakeHost } from '../../support/fakes';
import type { TaskRunner } from '../../../src/core/ports';
import { fakeConfiguration } from '../../support/fakeConfiguration';
import { tempWorkspace } from '../tools/helpers';

async function factoryArgs(trusted: boolean) {
  const ws = tempWorkspace({ 'a.txt': 'one\n' });
  const config = readHostConfig({
    trusted,
    configuration: fakeConfiguration({
      user: {
        'patchpilot.llm.baseUrl': 'http://127.0.0.1:9/v1',
        'patchpilot.llm.model': 'm',
        'patchpilot.policy.denyPaths': ['private-user/**'],
        'patchpilot.policy.envAllow': ['USER_VAR'],
        'patchpilot.policy.homeAllow': ['.config/user-tool'],
      },
      workspace: { 'patchpilot.policy.denyPaths': ['private-ws/**'], 'patchpilot.policy.envAllow': ['WS_VAR'] },
    }),
  });
  let received: Parameters<TaskRunnerFactory>[0] | undefined;
  const tasks: TaskRunner = { run: async () => ({ exitCode: 0, output: '', truncated: false, durationMs: 0, timedOut: false, cancelled: false }) };
  const wired = await createAgent(fakeHost(ws.root, { tasks: (o) => ((received = o), tasks) }), config, { historyMode: 'in-process' });
  await wired.dispose();
  ws.cleanup();
  assert.ok(received, 'the host was asked for a test runner');
  return received;
}

test('the test runner gets the user deny rules and the workspace ones, added up', async () => {
  const o = await factoryArgs(true);
  const ignored = o.guard.ignored!();
  assert.equal(ignored('private-user/key.pem', false), true, 'the user denyPaths reach the test runner');
  assert.equal(ignored('private-ws/key.pem', false), true, 'the workspace denyPaths reach the test runner');
  assert.equal(ignored('src/a.ts', false), false);
  assert.ok(o.envAllow.includes('USER_VAR'));
  assert.ok(o.homeAllow.includes('.config/user-tool'), 'the home exceptions reach the test runner');
});

test('untrusted: the user deny rules still reach the test runner', async () => {
  const o = await factoryArgs(false);
  assert.equal(o.guard.ignored!()('private-user/key.pem', false), true);
});
