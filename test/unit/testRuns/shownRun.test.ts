import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runShown } from '../../../src/core/testRuns';
import { createCommandExecutor } from '../../../src/core/tools/policyAdapters';
import type { TestOutputEnd, TestOutputView } from '../../../src/core/ports';

/** A view that records what it was shown, and can stop the run when it opens (the user closed the terminal). */
function recordingView(stopOnOpen = false): TestOutputView & { opened: string[]; chunks: string[]; ends: TestOutputEnd[] } {
  const view = {
    opened: [] as string[],
    chunks: [] as string[],
    ends: [] as TestOutputEnd[],
    open(command: string, stop: () => void) {
      view.opened.push(command);
      if (stopOnOpen) setTimeout(stop, 200);
      return { write: (c: string) => view.chunks.push(c), end: (s: TestOutputEnd) => view.ends.push(s) };
    },
  };
  return view;
}

describe('runShown: a test command run by the one executor, its output shown as it comes', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-shown-'));
  const executor = createCommandExecutor(root);
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));

  test('the view sees the same process: its live output, then its exit code; the result is the executor’s', async () => {
    const view = recordingView();
    const command = "printf 'ok 1 - parses\\n'; echo 'not ok 2 - formats' >&2; exit 2";
    const run = await runShown(executor, view, { command, cwd: root, signal: new AbortController().signal, timeoutMs: 30_000 });
    assert.equal(run.exitCode, 2);
    assert.deepEqual(view.opened, [command]);
    const live = view.chunks.join('');
    assert.match(live, /ok 1 - parses\n/);
    assert.match(live, /not ok 2 - formats\n/);
    assert.match(run.output, /ok 1 - parses/);
    assert.match(run.output, /not ok 2 - formats/);
    assert.equal(view.ends.length, 1);
    assert.equal(view.ends[0]!.exitCode, 2);
    assert.equal(view.ends[0]!.durationMs, run.durationMs);
  });

  test("the caller's own onOutput gets the same chunks as the view", async () => {
    const view = recordingView();
    const own: string[] = [];
    await runShown(executor, view, { command: 'echo one; echo two', cwd: root, signal: new AbortController().signal, onOutput: (c) => own.push(c) });
    assert.equal(own.join(''), view.chunks.join(''));
    assert.equal(own.join(''), 'one\ntwo\n');
  });

  test('the view stopping the run (its terminal closed) cancels the command', async () => {
    const view = recordingView(true);
    const started = Date.now();
    const run = await runShown(executor, view, { command: 'sleep 30', cwd: root, signal: new AbortController().signal });
    assert.equal(run.cancelled, true);
    assert.ok(Date.now() - started < 10_000, 'the command was stopped, not waited for');
    assert.equal(view.ends[0]!.cancelled, true);
  });

  test("the caller's cancel reaches the command through the view's run", async () => {
    const view = recordingView();
    const outer = new AbortController();
    setTimeout(() => outer.abort(), 200);
    const run = await runShown(executor, view, { command: 'sleep 30', cwd: root, signal: outer.signal });
    assert.equal(run.cancelled, true);
  });

  test('a command the executor cannot run ends the view with the reason and throws to the caller', async () => {
    const view = recordingView();
    await assert.rejects(
      runShown(executor, view, { command: 'true', cwd: path.join(root, 'missing'), signal: new AbortController().signal }),
      /not an existing directory/,
    );
    assert.match(view.ends[0]!.error ?? '', /not an existing directory/);
  });

  test('without a view (the CLI) the run is the executor’s alone', async () => {
    const run = await runShown(executor, undefined, { command: 'echo plain', cwd: root, signal: new AbortController().signal });
    assert.equal(run.exitCode, 0);
    assert.match(run.output, /plain/);
  });
});
