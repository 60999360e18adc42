import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCommandPolicy, TestDefinitionGuard } from '../../../src/core/policy/command';
import { IgnoreRules } from '../../../src/core/git/ignoreRules';
import type { CommandPolicy } from '../../../src/core/ports';
import { DEFAULT_PATH_SETTINGS } from '../../../src/core/policy/path';
import { createCommandExecutor, createPathPolicy } from '../../../src/core/tools/policyAdapters';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { readFileTool } from '../../../src/core/tools/readFile';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith, testCommandsOver } from '../../support/fakes';
import { NodeTaskRunner } from '../../../src/cli/node/nodeTaskRunner';
import type { ApprovalMode } from '../../../src/core/config/settings';

const tools = new ToolRegistry([runCommandTool, runTestsTool, writeFileTool, readFileTool]);

async function wired(root: string, mode: ApprovalMode, approver = new ScriptedApprover(), commandPolicy?: CommandPolicy) {
  const ignore = new IgnoreRules(root);
  const isIgnored = (p: string) => ignore.agentFilter.isIgnored(p);
  return fakeToolContext(root, {
    mode,
    approver,
    ignore,
    commandPolicy: commandPolicy ?? (await createCommandPolicy({ trusted: true, isIgnoredPath: isIgnored })),
    exec: createCommandExecutor(root),
    pathPolicy: createPathPolicy(root, DEFAULT_PATH_SETTINGS, (rel, isDir) => ignore.agentFilter.isIgnored(rel, isDir)),
  });
}

describe('run_command through the real command policy and executor', () => {
  test('ask mode: the person is told the mode is why they are asked, not the rule that allows the command', async () => {
    const ws = tempWorkspace({ 'a.txt': 'hello\n' });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
      const ctx = await wired(ws.root, 'ask', approver);
      const r = await tools.invoke('run_command', { command: 'ls' }, ctx);
      assert.equal(r.ok, true, r.output);
      const [asked] = approver.actionRequests;
      assert.match(asked!.reason ?? '', /^ask mode asks before every command \(the command policy alone would allow it: .+\)\.$/);
      assert.equal(asked!.detail, 'in the workspace folder');
    } finally {
      ws.cleanup();
    }
  });

  test('auto mode: an allowed command runs and its output comes back; a denied one never runs', async () => {
    const ws = tempWorkspace({ 'a.txt': 'hello\n', 'sub/b.txt': 'b\n' });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
      const ctx = await wired(ws.root, 'auto', approver);
      const r = await tools.invoke('run_command', { command: 'ls', cwd: 'sub' }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /^\$ ls\nexit 0 after \d+\.\d s\nb\.txt/);
      assert.equal(approver.actionRequests.length, 0, 'an allowed command does not ask in auto mode');

      const denied = await tools.invoke('run_command', { command: 'rm -rf / --no-preserve-root' }, ctx);
      assert.equal(denied.ok, false);
      assert.match(denied.output, /denied by policy/);
      assert.equal(approver.actionRequests.length, 0, 'deny is not even asked');
      assert.ok(ctx.events.some((e) => e.type === 'policy' && e.decision.verdict === 'deny'));
    } finally {
      ws.cleanup();
    }
  });

  test('ask and auto-edit modes ask even for allowed commands; a refusal runs nothing', async () => {
    const ws = tempWorkspace();
    try {
      for (const mode of ['ask', 'auto-edit'] as const) {
        const approver = new ScriptedApprover({ action: () => ({ approved: false, feedback: 'not now' }) });
        const ctx = await wired(ws.root, mode, approver);
        const r = await tools.invoke('run_command', { command: 'touch made.txt' }, ctx);
        assert.equal(r.ok, false);
        assert.match(r.output, /the user declined: touch made\.txt\. Their words: not now/);
        assert.equal(approver.actionRequests[0]!.kind, 'command');
        assert.equal(existsSync(path.join(ws.root, 'made.txt')), false);
      }
    } finally {
      ws.cleanup();
    }
  });

  test("ask and auto-edit modes: a command the user's allow rules cover runs unasked; a defaults-only or partly covered one still asks", async () => {
    const ws = tempWorkspace();
    try {
      for (const mode of ['ask', 'auto-edit'] as const) {
        const approver = new ScriptedApprover({ action: () => ({ approved: false, feedback: 'no' }) });
        const userRules = await createCommandPolicy({ trusted: true, user: { allow: ['touch made.txt'] }, workspace: { allow: ['echo *'] } });
        const ctx = await wired(ws.root, mode, approver, userRules);
        const r = await tools.invoke('run_command', { command: 'touch made.txt' }, ctx);
        assert.equal(r.ok, true, r.output);
        assert.equal(existsSync(path.join(ws.root, 'made.txt')), true);
        assert.equal((await tools.invoke('run_command', { command: 'echo hi && touch made.txt' }, ctx)).ok, true);
        assert.equal(approver.actionRequests.length, 0, `${mode}: the user's own rules need no question`);
        // Partly covered (ls is a default rule only), or with other arguments: the mode's ask stands.
        assert.equal((await tools.invoke('run_command', { command: 'touch made.txt && ls' }, ctx)).ok, false);
        assert.equal((await tools.invoke('run_command', { command: 'touch other.txt' }, ctx)).ok, false);
        assert.equal(approver.actionRequests.length, 2);
        assert.equal(existsSync(path.join(ws.root, 'other.txt')), false);
      }
      // Plan mode still runs nothing; an untrusted workspace's allow rules count for nothing.
      const planRules = await createCommandPolicy({ trusted: true, user: { allow: ['touch plan.txt'] } });
      const plan = await wired(ws.root, 'plan', new ScriptedApprover({ action: () => ({ approved: false }) }), planRules);
      assert.match((await tools.invoke('run_command', { command: 'touch plan.txt' }, plan)).output, /plan mode/);
      const untrustedApprover = new ScriptedApprover({ action: () => ({ approved: false }) });
      const untrustedRules = await createCommandPolicy({ trusted: false, workspace: { allow: ['touch ws.txt'] } });
      const untrusted = await wired(ws.root, 'ask', untrustedApprover, untrustedRules);
      assert.equal((await tools.invoke('run_command', { command: 'touch ws.txt' }, untrusted)).ok, false);
      assert.equal(untrustedApprover.actionRequests.length, 1);
    } finally {
      ws.cleanup();
    }
  });

  test('plan mode runs nothing; a cwd outside the workspace is refused', async () => {
    const ws = tempWorkspace();
    try {
      const ctx = await wired(ws.root, 'plan', new ScriptedApprover({ action: () => ({ approved: true }) }));
      assert.match((await tools.invoke('run_command', { command: 'touch x' }, ctx)).output, /plan mode/);
      assert.equal(existsSync(path.join(ws.root, 'x')), false);
      const auto = await wired(ws.root, 'auto');
      assert.match((await tools.invoke('run_command', { command: 'ls', cwd: '..' }, auto)).output, /outside the workspace/);
    } finally {
      ws.cleanup();
    }
  });
});

describe('file tools through the real path policy', () => {
  test('writing .vscode/settings.json or .git/config asks even in auto mode, also with case tricks', async () => {
    const ws = tempWorkspace({ '.vscode/settings.json': '{}' });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
      const ctx = await wired(ws.root, 'auto', approver);
      for (const p of ['.vscode/tasks.json', '.VSCode/launch.json', '.git/config']) {
        const r = await tools.invoke('write_file', { path: p, content: '{}' }, ctx);
        assert.equal(r.ok, false, p);
      }
      assert.equal(approver.actionRequests.length, 3);
      assert.ok(
        approver.actionRequests.every((q) => /protected/.test(q.reason)),
        approver.actionRequests.map((q) => q.reason).join('\n'),
      );
      assert.equal(existsSync(path.join(ws.root, '.vscode/tasks.json')), false);
    } finally {
      ws.cleanup();
    }
  });

  test('.env in .patchpilotignore is blocked for read_file and for cat in a command', async () => {
    const ws = tempWorkspace({ '.env': 'SECRET=1\n', '.patchpilotignore': '.env\n' });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
      const ctx = await wired(ws.root, 'auto', approver);
      const read = await tools.invoke('read_file', { path: '.env' }, ctx);
      assert.equal(read.ok, false);
      assert.doesNotMatch(read.output, /SECRET/);
      const cat = await tools.invoke('run_command', { command: 'cat .env' }, ctx);
      assert.equal(cat.ok, false);
      assert.doesNotMatch(cat.output, /SECRET=1/);
    } finally {
      ws.cleanup();
    }
  });

  test("a test script changed after the run started needs approval again, with the policy's guard", async () => {
    const ws = tempWorkspace({ 'package.json': JSON.stringify({ scripts: { test: 'echo ok' } }) });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
      const ctx = await wired(ws.root, 'auto', approver);
      ctx.workspace.settings = settingsWith({ tests: { commands: ['npm test'] } });
      ctx.run.tests = testCommandsOver(() => ({ root: ctx.root, exec: ctx.run.exec }), {
        tasks: new NodeTaskRunner(),
        testGuard: TestDefinitionGuard.capture(ws.root),
      });
      writeFileSync(path.join(ws.root, 'package.json'), JSON.stringify({ scripts: { test: 'touch pwned' } }));
      const r = await tools.invoke('run_tests', {}, ctx);
      assert.equal(r.ok, false);
      assert.match(approver.actionRequests[0]!.reason, /package\.json/);
      assert.equal(existsSync(path.join(ws.root, 'pwned')), false);
      assert.equal(readFileSync(path.join(ws.root, 'package.json'), 'utf8').includes('pwned'), true);
    } finally {
      ws.cleanup();
    }
  });
});

describe('without a sandbox, any write by a command counts as a change', () => {
  test('auto mode: after run_command rewrote a test file, run_tests asks and says why; a refusal runs nothing', async () => {
    const ws = tempWorkspace({ 'test.js': 'console.log("ok")\n' });
    try {
      const approver = new ScriptedApprover({ action: (r) => ({ approved: r.kind === 'command' }) });
      const ctx = fakeToolContext(ws.root, {
        mode: 'auto',
        approver,
        settings: settingsWith({ tests: { commands: ['node test.js && touch tests-ran'] } }),
        commandPolicy: await createCommandPolicy({ trusted: true }),
        exec: createCommandExecutor(ws.root, { sandbox: 'off' }),
      });
      const clean = await tools.invoke('run_tests', {}, ctx);
      assert.equal(clean.ok, true, 'nothing ran yet: the tests run without asking');
      assert.equal(approver.actionRequests.length, 0);

      const wrote = await tools.invoke('run_command', { command: "echo \"require('fs').writeFileSync('pwned', 'x')\" > test.js" }, ctx);
      assert.equal(wrote.ok, true, wrote.output);
      assert.equal(ctx.state.changedFiles.size, 0, 'the file tools saw no change');
      rmSync(path.join(ws.root, 'tests-ran'));
      const r = await tools.invoke('run_tests', {}, ctx);
      assert.equal(r.ok, false);
      const ask = approver.actionRequests.at(-1)!;
      assert.equal(ask.kind, 'tests');
      assert.match(ask.reason ?? '', /not sandboxed.*shell commands of this run wrote/);
      assert.equal(existsSync(path.join(ws.root, 'pwned')), false);
      assert.equal(existsSync(path.join(ws.root, 'tests-ran')), false);
    } finally {
      ws.cleanup();
    }
  });
});
