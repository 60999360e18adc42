import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PatchManager } from '../../../../src/core/patch/patchManager';
import { NodeWorkspaceFs } from '../../../../src/host/node/nodeWorkspaceFs';
import { OffThreadPlanner } from '../../../../src/core/patch/offThreadPlanner';
import type { PatchPlanner } from '../../../../src/core/patch/planner';
import { editLargeFile, generateLargeFile } from '../../../../bench/patch/perf';
import { Rng } from '../../../../bench/patch/rng';
import { gitDiff } from './gitDiff';

/**
 * Large plans run in a worker thread (the VS Code host's planner): the result, the bytes written
 * and every refusal are the same as inline, and the caller's event loop keeps turning meanwhile.
 */

const dirs: string[] = [];
const planners: OffThreadPlanner[] = [];
after(async () => {
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  await Promise.all(planners.map((p) => p.dispose()));
});

function workspace(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-offthread-'));
  dirs.push(dir);
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
  return dir;
}

function offThread(opts: ConstructorParameters<typeof OffThreadPlanner>[0] = { minWork: 0 }): OffThreadPlanner {
  const p = new OffThreadPlanner(opts);
  planners.push(p);
  return p;
}

function large(lines: number, hunks: number): { oldText: string; newText: string; patch: string } {
  const rng = Rng.forLabel(3, `offthread-${lines}`);
  const old = generateLargeFile(rng, lines);
  const oldText = old.join('\n') + '\n';
  const newText = editLargeFile(rng, old, hunks).join('\n') + '\n';
  return { oldText, newText, patch: gitDiff(oldText, newText, 3, 'big.js') };
}

/** Applies `patch` to two copies of `files`, inline and with `planner`; returns both results and the files after. */
async function both(files: Record<string, string>, patch: string, planner: PatchPlanner, dryRun = false) {
  const a = workspace(files);
  const b = workspace(files);
  const inline = await new PatchManager({ root: a, fs: new NodeWorkspaceFs(a) }).apply(patch, { dryRun });
  const worker = await new PatchManager({ root: b, fs: new NodeWorkspaceFs(b), planner }).apply(patch, { dryRun });
  const read = (dir: string) => Object.fromEntries(Object.keys(files).map((p) => [p, readFileSync(path.join(dir, p), 'utf8')]));
  return { inline, worker, inlineFiles: read(a), workerFiles: read(b) };
}

describe('patch plans off the caller thread', () => {
  const big = large(40_000, 200);

  test('a large patch: the same result and the same bytes as inline, computed in the worker', async () => {
    const planner = offThread();
    const r = await both({ 'big.js': big.oldText }, big.patch, planner);
    assert.equal(planner.offThreadJobs, 1);
    assert.equal(r.worker.ok, true, r.worker.error);
    assert.deepEqual(r.worker, r.inline);
    assert.equal(r.workerFiles['big.js'], big.newText);
    assert.deepEqual(r.workerFiles, r.inlineFiles);
  });

  test('dry runs, refusals and multi-file patches are identical too', async () => {
    const planner = offThread();
    const files = { 'a.txt': 'a\r\nb\nc\r\nd\n', 'b.txt': 'one\ntwo\nthree\n' };
    const refused = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,3 @@\n a\n+X\n b\n';
    const two = '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n';
    for (const [patch, dryRun] of [
      [refused, false],
      [two, true],
      [two, false],
    ] as const) {
      const r = await both(files, patch, planner, dryRun);
      assert.deepEqual(r.worker, r.inline, patch);
      assert.deepEqual(r.workerFiles, r.inlineFiles);
    }
    assert.equal(planner.offThreadJobs, 3);
  });

  test('small patches stay inline under the default threshold', async () => {
    const planner = offThread({});
    const r = await both({ 'b.txt': 'one\ntwo\n' }, '--- a/b.txt\n+++ b/b.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n', planner);
    assert.equal(r.worker.ok, true);
    assert.equal(planner.offThreadJobs, 0);
  });

  test('a worker that cannot start: the job runs inline with the same result', async () => {
    const planner = offThread({ minWork: 0, workerScript: path.join(tmpdir(), 'no-such-patch-worker.js') });
    const r = await both({ 'big.js': big.oldText }, big.patch, planner);
    assert.deepEqual(r.worker, r.inline);
    assert.equal(r.workerFiles['big.js'], big.newText);
  });

  test("the caller's event loop keeps turning while a large plan is computed", async () => {
    const huge = large(200_000, 1_000);
    const longestStall = async (planner?: PatchPlanner): Promise<number> => {
      const dir = workspace({ 'big.js': huge.oldText });
      const manager = new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir), ...(planner ? { planner } : {}) });
      let last = performance.now();
      let longest = 0;
      const timer = setInterval(() => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
      }, 2);
      try {
        const r = await manager.apply(huge.patch, { dryRun: true });
        assert.equal(r.ok, true, r.error);
      } finally {
        clearInterval(timer);
      }
      return Math.max(longest, performance.now() - last);
    };
    const planner = offThread();
    await longestStall(planner); // the worker's start and warm-up are not what is measured
    const inline = await longestStall();
    const worker = await longestStall(planner);
    assert.ok(worker < inline / 2, `longest stall: inline ${inline.toFixed(0)} ms, off-thread ${worker.toFixed(0)} ms`);
  });
});
