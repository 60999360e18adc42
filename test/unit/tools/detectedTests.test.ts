import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { createCommandExecutor } from '../../../src/core/tools/policyAdapters';
import { probeSandbox } from '../../../src/core/sandbox';
import type { UnansweredTestCommand } from '../../../src/core/tools/detectedTests';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool]);
const PASSING = "const test = require('node:test'); const assert = require('node:assert');\ntest('adds', () => assert.equal(1 + 1, 2));\n";
const COMMAND = `${JSON.stringify(process.execPath)} --test add.test.js`;
/** What VS Code's unanswered offer gives (chatWiring.ts): the detected command, its file, how to keep it. */
const offered = (): UnansweredTestCommand => ({ command: COMMAND, source: 'package.json', keep: '"Use npm test" in the chat\'s banner' });

describe('run_tests with no configured command and a detected one not answered yet', () => {
  test('without a sandbox it asks first, then runs the detected command and says how to keep it', async () => {
    const ws = tempWorkspace({ 'add.test.js': PASSING });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
      const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, detectedTests: offered });
      assert.notEqual(ctx.run.tests.sandboxed, true);
      const r = await tools.invoke('run_tests', {}, ctx);
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /^\(ran the detected test command ".*" from package\.json: no test command is configured.*to keep it: "Use npm test"/);
      assert.match(r.output, /\ntests passed/);
      assert.equal(approver.actionRequests.length, 1);
      assert.equal(approver.actionRequests[0]!.kind, 'tests');
      assert.equal(approver.actionRequests[0]!.title, `Run the detected test command "${COMMAND}"?`);
      assert.match(approver.actionRequests[0]!.reason ?? '', /not sandboxed here/);
      assert.deepEqual(
        ctx.events.filter((e) => e.type.startsWith('test-')).map((e) => e.type),
        ['test-started', 'test-finished'],
      );
      // The loop reads a verdict: the run ends "tests run", not "tests not run".
      assert.equal(runTestsTool.loop!.testsOutcome!(r as never), 'passed');
    } finally {
      ws.cleanup();
    }
  });

  test('declined: nothing runs and the model reads that the user declined', async () => {
    const ws = tempWorkspace({ 'add.test.js': PASSING });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
      const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, detectedTests: offered });
      const r = await tools.invoke('run_tests', {}, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /the user declined: Run the detected test command/);
      assert.equal(ctx.events.filter((e) => e.type === 'test-started').length, 0);
    } finally {
      ws.cleanup();
    }
  });

  test('a configured command wins; no detection, no question; plan mode runs nothing; none detected is the clear answer', async () => {
    const ws = tempWorkspace({ 'add.test.js': PASSING });
    try {
      let asked = 0;
      const detectedTests = () => (asked++, offered());
      const settings = settingsWith({ tests: { commands: [COMMAND] } });
      const configured = await tools.invoke('run_tests', {}, fakeToolContext(ws.root, { mode: 'auto', settings, detectedTests }));
      assert.equal(configured.ok, true, configured.output);
      assert.doesNotMatch(configured.output, /detected/);
      assert.equal(asked, 0);
      const plan = fakeToolContext(ws.root, { mode: 'plan', detectedTests });
      assert.equal((await tools.invoke('run_tests', {}, plan)).ok, false);
      assert.equal(asked, 0);
      assert.equal(plan.events.length, 0);
      const none = await tools.invoke('run_tests', {}, fakeToolContext(ws.root, { mode: 'auto', detectedTests: () => undefined }));
      assert.match(none.output, /no test commands are configured/);
    } finally {
      ws.cleanup();
    }
  });

  test('narrowing applies to the detected command as to a configured one', async () => {
    const ws = tempWorkspace({ 'add.test.js': PASSING });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
      const bare = { ...offered(), command: `${JSON.stringify(process.execPath)} --test` };
      const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, detectedTests: () => bare });
      const r = await tools.invoke('run_tests', { files: ['add.test.js'] }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /narrowed run/);
      const started = ctx.events.find((e) => e.type === 'test-started') as { command: string } | undefined;
      assert.equal(started!.command, `${bare.command} add.test.js`);
    } finally {
      ws.cleanup();
    }
  });
});

describe('the detected command in the sandbox', { skip: !probeSandbox().available && 'no bubblewrap here' }, () => {
  test('auto mode runs it without asking; ask and auto-edit modes ask', async () => {
    const ws = tempWorkspace({ 'add.test.js': PASSING });
    try {
      const exec = createCommandExecutor(ws.root);
      assert.equal(exec.sandboxed, true);
      const none = new ScriptedApprover();
      const auto = fakeToolContext(ws.root, { mode: 'auto', approver: none, detectedTests: offered, exec });
      const r = await tools.invoke('run_tests', {}, auto);
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /ran the detected test command/);
      assert.equal(none.actionRequests.length, 0);
      for (const mode of ['ask', 'auto-edit'] as const) {
        const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
        const asked = await tools.invoke('run_tests', {}, fakeToolContext(ws.root, { mode, approver, detectedTests: offered, exec }));
        assert.equal(asked.ok, true, asked.output);
        assert.equal(approver.actionRequests.length, 1, mode);
        assert.match(approver.actionRequests[0]!.reason ?? '', new RegExp(`${mode} mode asks before running the tests`));
      }
    } finally {
      ws.cleanup();
    }
  });
});
