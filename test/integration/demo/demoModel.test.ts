// The demo model end to end: the real CLI and `openai` client against the demo server, on a copy of
// the sample workspace `npm start` opens. It must fix the bug it was written for, and end honestly
// everywhere else.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startDemoModelServer, type DemoModelServer } from '../../../src/core/demo';
import { events, runCli, skipWithoutBuild } from '../agent/support';

const SAMPLE = path.resolve(__dirname, '../../../media/sample');
let demo: DemoModelServer;

before(async () => {
  demo = await startDemoModelServer({ chunkDelayMs: 0 });
});
after(() => demo.close());

function sampleCopy(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-demo-'));
  cpSync(SAMPLE, root, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: root });
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-qm', 'sample'], { cwd: root });
  return root;
}

const run = (root: string, mode = 'auto-edit') =>
  runCli([
    '--goal',
    'make the failing date test pass',
    '--workspace',
    root,
    '--approve',
    mode,
    '--test-cmd',
    'node test.js',
    '--base-url',
    demo.baseUrl,
    '--model',
    'patchpilot-demo',
    '--json',
  ]);

describe('demo model', { skip: skipWithoutBuild }, () => {
  test('lists itself as a model through the openai client', async () => {
    const client = new OpenAI({ baseURL: demo.baseUrl, apiKey: 'none' });
    const ids: string[] = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.deepEqual(ids, ['patchpilot-demo']);
  });

  test('walks the sample bug: tests fail, read, patch, tests pass, finish', async () => {
    const root = sampleCopy();
    try {
      assert.notEqual(spawnStatus(root), 0, 'the sample starts with a failing test');
      const r = await run(root);
      assert.equal(r.code, 0, r.stderr);
      const tools = events(r.stdout)
        .filter((e) => e.type === 'tool/started')
        .map((e) => e.name);
      assert.deepEqual(tools, ['run_tests', 'read_file', 'propose_patch', 'finish']);
      assert.match(readFileSync(path.join(root, 'dates.js'), 'utf8'), /getUTCMonth\(\) \+ 1/);
      assert.equal(spawnStatus(root), 0, 'the sample tests pass after the demo');
      const finished = events(r.stdout).find((e) => e.type === 'run/finished');
      assert.equal(finished?.status, 'finished');
      const said = events(r.stdout)
        .filter((e) => e.type === 'text/delta')
        .map((e) => e.text)
        .join('');
      assert.match(said, /Demo model/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a workspace without dates.js ends with a summary that says how to set up a real model, nothing written', async () => {
    const root = sampleCopy();
    try {
      unlinkSync(path.join(root, 'dates.js'));
      const r = await run(root);
      assert.match(r.stdout, /only knows the sample project.s date bug.*Open the Sample Project/s);
      assert.match(r.stdout, /Select Model/);
      assert.ok(!events(r.stdout).some((e) => e.type === 'tool/started' && e.name === 'propose_patch'));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

function spawnStatus(root: string): number {
  try {
    execFileSync(process.execPath, ['test.js'], { cwd: root, stdio: 'ignore' });
    return 0;
  } catch (err) {
    return (err as { status: number }).status;
  }
}
