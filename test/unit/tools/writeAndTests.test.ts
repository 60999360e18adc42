import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { finishTool } from '../../../src/core/tools/finish';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([writeFileTool, runTestsTool, finishTool]);

describe('write_file', () => {
  test('creates new files (with parents) without asking in auto-edit; asks in ask mode', async () => {
    const ws = tempWorkspace();
    try {
      const auto = fakeToolContext(ws.root, { mode: 'auto-edit' });
      const r = await tools.invoke('write_file', { path: 'src/new/util.ts', content: 'export const x = 1;\n' }, auto);
      assert.equal(r.ok, true, r.output);
      assert.equal(r.output, 'created src/new/util.ts (1 lines)');
      assert.equal(readFileSync(path.join(ws.root, 'src/new/util.ts'), 'utf8'), 'export const x = 1;\n');
      assert.deepEqual([...auto.state.changedFiles], ['src/new/util.ts']);

      const approver = new ScriptedApprover({ action: () => ({ approved: false, feedback: 'put it in lib/' }) });
      const ask = fakeToolContext(ws.root, { mode: 'ask', approver });
      const refused = await tools.invoke('write_file', { path: 'b.ts', content: 'x' }, ask);
      assert.equal(refused.ok, false);
      assert.match(refused.output, /the user declined: create b\.ts\. Their words: put it in lib\//);
      assert.equal(existsSync(path.join(ws.root, 'b.ts')), false);
      assert.equal(approver.actionRequests[0]!.kind, 'write');
    } finally {
      ws.cleanup();
    }
  });

  test('overwriting asks even in auto mode, and writes only when approved', async () => {
    const ws = tempWorkspace({ 'a.txt': 'old\n' });
    try {
      const no = new ScriptedApprover();
      const r1 = await tools.invoke('write_file', { path: 'a.txt', content: 'new\n' }, fakeToolContext(ws.root, { mode: 'auto', approver: no }));
      assert.equal(r1.ok, false);
      assert.match(no.actionRequests[0]!.title, /overwrite a\.txt/);
      assert.equal(readFileSync(path.join(ws.root, 'a.txt'), 'utf8'), 'old\n');
      const yes = new ScriptedApprover({ action: () => ({ approved: true }) });
      const r2 = await tools.invoke('write_file', { path: 'a.txt', content: 'new\n' }, fakeToolContext(ws.root, { mode: 'auto', approver: yes }));
      assert.equal(r2.output, 'overwrote a.txt (1 lines)');
      assert.equal(readFileSync(path.join(ws.root, 'a.txt'), 'utf8'), 'new\n');
    } finally {
      ws.cleanup();
    }
  });

  test('plan mode writes nothing; paths outside and ignored paths are refused before any question', async () => {
    const ws = tempWorkspace({ '.patchpilotignore': 'secret/\n' });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
      const plan = await tools.invoke('write_file', { path: 'x.ts', content: '' }, fakeToolContext(ws.root, { mode: 'plan', approver }));
      assert.match(plan.output, /plan mode/);
      const ctx = fakeToolContext(ws.root, { mode: 'auto', approver });
      assert.match((await tools.invoke('write_file', { path: '../escape.txt', content: '' }, ctx)).output, /outside the workspace/);
      assert.match((await tools.invoke('write_file', { path: 'secret/a', content: '' }, ctx)).output, /\.patchpilotignore/);
      assert.equal(approver.actionRequests.length, 0);
      assert.equal(existsSync(path.join(ws.root, 'x.ts')), false);
    } finally {
      ws.cleanup();
    }
  });

  test('the path policy from the settings: a protected path asks even in auto mode; denyPaths refuses without asking', async () => {
    const ws = tempWorkspace();
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
      const settings = settingsWith();
      settings.policy.denyPaths = ['deny.txt'];
      const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, settings });
      const r = await tools.invoke('write_file', { path: '.vscode/settings.json', content: '{}' }, ctx);
      assert.equal(r.ok, false);
      assert.match(approver.actionRequests[0]!.reason, /protected path/);
      assert.match((await tools.invoke('write_file', { path: 'deny.txt', content: '' }, ctx)).output, /patchpilot\.policy\.denyPaths/);
      assert.equal(approver.actionRequests.length, 1);
      assert.equal(existsSync(path.join(ws.root, 'deny.txt')), false);
    } finally {
      ws.cleanup();
    }
  });
});

describe('run_tests', () => {
  const failing = `const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('./add');\ntest('adds', () => assert.equal(add(2, 2), 4));\n`;

  test('runs the configured commands and reports exit code, failures and output', async () => {
    const ws = tempWorkspace({ 'add.js': 'exports.add = (a, b) => a - b;\n', 'add.test.js': failing });
    try {
      const settings = settingsWith({ tests: { commands: [`${JSON.stringify(process.execPath)} --test add.test.js`] } });
      const ctx = fakeToolContext(ws.root, { mode: 'auto', settings });
      const r = await tools.invoke('run_tests', {}, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /^tests FAILED/);
      assert.match(r.output, /exit 1 after \d+\.\d s/);
      assert.match(r.output, /node: 0 passed, 1 failed\n  FAIL adds\n {7}Expected values to be strictly equal/);
      // The failing test is run once more alone (a flake passes then; this one fails again).
      assert.deepEqual(
        ctx.events.map((e) => e.type),
        ['test-started', 'test-finished', 'test-started', 'test-finished'],
      );

      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.join(ws.root, 'add.js'), 'exports.add = (a, b) => a + b;\n');
      const fixed = await tools.invoke('run_tests', {}, ctx);
      assert.equal(fixed.ok, true);
      assert.match(fixed.output, /^tests passed/);
      assert.doesNotMatch(fixed.output, /--- output ---/);
    } finally {
      ws.cleanup();
    }
  });

  test('no configured commands is a clear answer; plan mode runs nothing', async () => {
    const ws = tempWorkspace();
    try {
      assert.match((await tools.invoke('run_tests', {}, fakeToolContext(ws.root))).output, /no test commands are configured/);
      const settings = settingsWith({ tests: { commands: ['touch ran'] } });
      assert.match((await tools.invoke('run_tests', {}, fakeToolContext(ws.root, { mode: 'plan', settings }))).output, /plan mode/);
      assert.equal(existsSync(path.join(ws.root, 'ran')), false);
    } finally {
      ws.cleanup();
    }
  });

  test('once the run changed package.json, running the tests needs approval again, even in auto mode', async () => {
    const ws = tempWorkspace({ 'package.json': '{"scripts":{"test":"echo ok"}}' });
    try {
      const approver = new ScriptedApprover({ action: () => ({ approved: false }) });
      const settings = settingsWith({ tests: { commands: ['touch ran'] } });
      const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, settings });
      ctx.state.changedFiles.add('package.json');
      const r = await tools.invoke('run_tests', {}, ctx);
      assert.equal(r.ok, false);
      assert.match(approver.actionRequests[0]!.reason, /this run changed package\.json/);
      assert.equal(existsSync(path.join(ws.root, 'ran')), false);
    } finally {
      ws.cleanup();
    }
  });

  test('finish returns its summary and marks the run finished', async () => {
    const ws = tempWorkspace();
    try {
      const r = await tools.invoke('finish', { summary: 'fixed add()' }, fakeToolContext(ws.root));
      assert.deepEqual(r, { ok: true, output: 'fixed add()', data: { finished: true } });
    } finally {
      ws.cleanup();
    }
  });
});
