// Issue 30: run_command and the test runs. A read-only command runs at once while the baseline test
// run goes on (it cannot disturb it); any other command waits. The project's test command (or its
// runner) with the model's own arguments is a test run: summarised like run_tests (failures first,
// counts, against the baseline) and recorded for the finish gate. Real node:test runs, the real policy.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createCommandPolicy } from '../../../src/core/policy/command';
import { commandTestRun } from '../../../src/core/tools/commandTestRun';
import { createCommandExecutor } from '../../../src/core/tools/policyAdapters';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import type { TestRunReport } from '../../../src/core/testRuns';
import { BUGGY } from '../orchestrator/harness';
import { ScriptedApprover, gitInit, tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runCommandTool]);

/** The command's words as run_command gets them: the policy's check (CommandDecision.argv), through ctx.ask. */
function wordsOf(ctx: ReturnType<typeof fakeToolContext>) {
  return (command: string) => ctx.ask.words?.(command);
}

async function withContext<T>(files: Record<string, string>, commands: string[], fn: (ctx: ReturnType<typeof fakeToolContext>, root: string) => Promise<T>) {
  const ws = tempWorkspace(files);
  gitInit(ws.root);
  try {
    const approver = new ScriptedApprover({ action: () => ({ approved: true }) });
    const ctx = fakeToolContext(ws.root, {
      mode: 'auto-edit',
      approver,
      settings: settingsWith({ tests: { commands, afterEdit: true } }),
      commandPolicy: await createCommandPolicy({ trusted: true }),
      exec: createCommandExecutor(ws.root, { sandbox: 'off' }),
    });
    return await fn(ctx, ws.root);
  } finally {
    ws.cleanup();
  }
}

describe('run_command while the baseline test run goes on', () => {
  test('a read-only command runs at once; a command that may write waits for the baseline first', async () => {
    await withContext(BUGGY, ['node --test'], async (ctx) => {
      const waited: unknown[] = [];
      ctx.state.beforeFirstChange = async (o) => {
        waited.push(o ?? {});
        return undefined;
      };
      for (const command of ['git log --oneline', 'cat add.js | head -3', 'grep -rn add . 2>/dev/null', 'ls -la && git diff']) {
        const r = await tools.invoke('run_command', { command }, ctx);
        assert.equal(r.ok, true, `${command}: ${r.output}`);
      }
      assert.deepEqual(waited, [], 'no read-only command waited');
      assert.equal(ctx.state.commandsRan, undefined, 'nor counts as a change');
      await tools.invoke('run_command', { command: 'touch made.txt' }, ctx);
      await tools.invoke('run_command', { command: `node -e "console.log(require('./add').add(1, 1))"` }, ctx);
      assert.deepEqual(waited, [{}, {}]);
      assert.equal(ctx.state.commandsRan, true);
    });
  });
});

describe('the test command through run_command is a test run', () => {
  test('recognised: the configured command with more arguments, or its runner; anything else is an ordinary command', async () => {
    const files = { ...BUGGY, 'package.json': JSON.stringify({ scripts: { test: 'jest --ci' } }), 'test/a.test.js': '', 'tests/test_x.py': '' };
    await withContext(files, ['npm test'], async (ctx) => {
      const runOf = (c: string, cwd = '') => commandTestRun(ctx, wordsOf(ctx)(c), cwd, wordsOf(ctx));
      assert.deepEqual(await runOf('npm test'), { configured: 'npm test', narrowed: false, aimedAt: [] });
      assert.deepEqual(await runOf('npm test -- test/a.test.js'), { configured: 'npm test', narrowed: true, aimedAt: ['test/a.test.js'] });
      assert.deepEqual(await runOf('npx jest -t "adds two" test/a.test.js'), {
        configured: 'npm test',
        narrowed: true,
        aimedAt: ['adds two', 'test/a.test.js'],
      });
      assert.deepEqual(await runOf('node_modules/.bin/jest test/a.test.js'), { configured: 'npm test', narrowed: true, aimedAt: ['test/a.test.js'] });
      assert.deepEqual(await runOf('pnpm exec jest --testNamePattern=adds'), { configured: 'npm test', narrowed: true, aimedAt: ['adds'] });
      for (const other of [
        'npx mocha test/a.test.js',
        'grep -rn jest .',
        'npm test | tail -5',
        'npm test > out.txt',
        'npm run build',
        'npm test -- $FILES',
        'npx jest test/*.js',
      ])
        assert.equal(await runOf(other), undefined, other);
      assert.equal(await runOf('npm test', 'sub'), undefined, 'only from the workspace root');
    });
    await withContext({ 'tests/test_x.py': '' }, ['python -m pytest -q'], async (ctx) => {
      assert.deepEqual(await commandTestRun(ctx, wordsOf(ctx)('pytest tests/test_x.py::test_y -x'), '', wordsOf(ctx)), {
        configured: 'python -m pytest -q',
        narrowed: true,
        aimedAt: ['tests/test_x.py::test_y'],
      });
      assert.deepEqual(await commandTestRun(ctx, wordsOf(ctx)('python3 -m pytest -k "slow and not db"'), '', wordsOf(ctx)), {
        configured: 'python -m pytest -q',
        narrowed: true,
        aimedAt: ['slow and not db'],
      });
    });
  });

  test("plain words (the policy's argv): quotes removed, any shell syntax refused", async () => {
    await withContext({}, [], async (ctx) => {
      const words = wordsOf(ctx);
      assert.deepEqual(words(`npx jest -t 'adds two' "a b.js" x=1`), ['npx', 'jest', '-t', 'adds two', 'a b.js', 'x=1']);
      assert.deepEqual(words(`pytest a"b c"d`), ['pytest', 'ab cd']);
      assert.deepEqual(words('pytest -x # a comment'), ['pytest', '-x']);
      for (const shell of ['a && b', 'a; b', 'a | b', 'a > f', 'a $(b)', 'a `b`', 'a "$X"', 'a *', 'X=1 a', 'bash -c "a b"', "a 'b"])
        assert.equal(words(shell), undefined, shell);
    });
  });

  test('a narrowed run: failures first with the counts, a verdict for the loop, its report aimed at the file; its pass after the fix', async () => {
    const files = { ...BUGGY, 'other.test.js': "require('node:test')('other', () => {});\n" };
    await withContext(files, ['node --test'], async (ctx, root) => {
      const failing = await tools.invoke('run_command', { command: 'node --test add.test.js' }, ctx);
      assert.equal(failing.ok, false);
      assert.equal(runCommandTool.loop!.isVerdict!(failing), true, 'a failing test run is an answer, not a failed step');
      assert.match(
        failing.output,
        /^tests FAILED.*\(your command runs part of the test command `node --test`, aimed at add\.test\.js: summarised like run_tests\)/,
      );
      assert.match(failing.output, /\$ node --test add\.test\.js\nexit 1 after [\d.]+ s\nnode: 0 passed, 1 failed\n {2}FAIL adds/);
      const report = runCommandTool.loop!.testReport!(failing) as TestRunReport;
      assert.deepEqual([report.narrowed, report.aimedAt, report.failing, report.counts], [true, ['add.test.js'], ['adds'], { passed: 0, failed: 1 }]);
      assert.equal(runCommandTool.loop!.testsOutcome!(failing), 'failed');

      writeFileSync(path.join(root, 'add.js'), 'exports.add = (a, b) => a + b;\n');
      const passing = await tools.invoke('run_command', { command: 'node --test add.test.js' }, ctx);
      assert.equal(passing.ok, true, passing.output);
      assert.match(passing.output, /^tests passed \(your command runs part/);
      const passed = runCommandTool.loop!.testReport!(passing) as TestRunReport;
      assert.deepEqual([passed.narrowed, passed.aimedAt, passed.failing], [true, ['add.test.js'], []]);

      // An ordinary command keeps the plain result, and is no test run.
      const plain = await tools.invoke('run_command', { command: 'node -e "console.log(1)"' }, ctx);
      assert.match(plain.output, /^\$ node -e "console.log\(1\)"\nexit 0 after/);
      assert.equal(runCommandTool.loop!.testReport!(plain), undefined);
    });
  });
});
