import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runTestsTool } from '../../../src/core/tools/runTests';
import { createCommandExecutor } from '../../../src/core/tools/policyAdapters';
import { probeSandbox } from '../../../src/core/sandbox';
import type { TaskRunner, TestOutputEnd, TestOutputView } from '../../../src/core/ports';
import { tempWorkspace } from './helpers';
import { fakeToolContext, settingsWith } from '../../support/fakes';

const tools = new ToolRegistry([runTestsTool]);
const TEST_JS = "console.log('ok 1 - adds'); console.error('not ok 2 - subtracts'); process.exit(1);\n";

function recordingView(): TestOutputView & { shown: { command: string; chunks: string[]; end?: TestOutputEnd }[] } {
  const view = {
    shown: [] as { command: string; chunks: string[]; end?: TestOutputEnd }[],
    open(command: string) {
      const entry: { command: string; chunks: string[]; end?: TestOutputEnd } = { command, chunks: [] };
      view.shown.push(entry);
      return { write: (c: string) => entry.chunks.push(c), end: (s: TestOutputEnd) => (entry.end = s) };
    },
  };
  return view;
}

/** A TaskRunner that must not be used: with a sandbox the executor runs the tests. */
const noTasks: TaskRunner = {
  run: () => Promise.reject(new Error('the sandboxed run went to the task runner')),
};

describe(
  "run_tests with the host's output view: the sandboxed process's output, shown live",
  { skip: !probeSandbox().available && 'no bubblewrap here' },
  () => {
    test('the view gets the same run the model reads; the model’s text is as without a view', async () => {
      const ws = tempWorkspace({ 'test.js': TEST_JS });
      try {
        const settings = settingsWith({ tests: { commands: ['node test.js'] } });
        const exec = createCommandExecutor(ws.root);
        assert.equal(exec.sandboxed, true);
        const view = recordingView();
        const shown = fakeToolContext(ws.root, { settings, exec, tasks: noTasks, testOutput: view });
        const withView = await tools.invoke('run_tests', {}, shown);
        const plain = await tools.invoke('run_tests', {}, fakeToolContext(ws.root, { settings, exec, tasks: noTasks }));

        // The whole-suite run, then its failing tests' rerun (none named by file here): one view per run.
        assert.ok(view.shown.length >= 1);
        const first = view.shown[0]!;
        assert.equal(first.command, 'node test.js');
        assert.match(first.chunks.join(''), /ok 1 - adds\n/);
        assert.match(first.chunks.join(''), /not ok 2 - subtracts\n/);
        assert.equal(first.end?.exitCode, 1);
        const finished = shown.events.find((e) => e.type === 'test-finished');
        assert.equal(finished?.type === 'test-finished' && finished.exitCode, 1);

        const timeless = (t: string) => t.replace(/\d+(\.\d+)? ?m?s\b/g, 'T');
        assert.equal(withView.ok, false);
        assert.equal(timeless(withView.output), timeless(plain.output));
        assert.match(withView.output, /tests FAILED/);
      } finally {
        ws.cleanup();
      }
    });
  },
);
