// A run on a big repository (10,000 tracked files, 10,000 untracked ones and a git-ignored node_modules of 1,000 folders)
// through the built CLI: its first command step prepares the checkpoints (the store's first copy of
// the workspace) and a second one creates 3,000 files. Asserted: the main thread is never blocked for
// more than 500 ms of CPU at a time while the steps run (a timer-drift probe inside the CLI,
// test/support/eventLoopProbe.cjs; the CLI's start is not measured: it stalls as long on a tiny workspace),
// the watchdog never ends the run, the progress is reported, a restore puts the first step back.
// A stall is counted by the CPU the process used in it, so that the machine's load alone fails nothing.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ScriptedModelServer } from '../../support/scriptedModel';
import { gitInit, tempWorkspace } from '../../unit/tools/helpers';
import { call, events, runCli, skipWithoutBuild } from './support';

const PROBE = path.resolve(__dirname, '../../support/eventLoopProbe.cjs');
const MAX_STALL_MS = 500;

function bigRepository(): { root: string; cleanup(): void } {
  const ws = tempWorkspace({
    '.gitignore': 'node_modules/\n',
    '.vscode/settings.json': JSON.stringify({ 'patchpilot.policy.allow': ['node *'] }),
  });
  for (let d = 0; d < 500; d++) {
    mkdirSync(path.join(ws.root, 'src', `pkg${d}`), { recursive: true });
    for (let f = 0; f < 20; f++) writeFileSync(path.join(ws.root, 'src', `pkg${d}`, `f${f}.js`), `module.exports = ${d * 20 + f};\n`);
  }
  gitInit(ws.root);
  // Tracked, unchanged files are referenced by git's objects, not read (docs/checkpoints.md): the
  // first checkpoint's long part is the files git does not hold, read, hashed and packed.
  for (let d = 0; d < 500; d++) {
    mkdirSync(path.join(ws.root, 'data', `set${d}`), { recursive: true });
    for (let f = 0; f < 20; f++) writeFileSync(path.join(ws.root, 'data', `set${d}`, `r${f}.json`), JSON.stringify({ row: d * 20 + f, text: 'x'.repeat(200) }));
  }
  for (let d = 0; d < 1000; d++) {
    mkdirSync(path.join(ws.root, 'node_modules', `dep${d}`, 'lib'), { recursive: true });
    writeFileSync(path.join(ws.root, 'node_modules', `dep${d}`, 'lib', 'index.js'), `module.exports = ${d};\n`);
  }
  return ws;
}

const CREATE_3000 = "node -e \"const fs=require('fs');fs.mkdirSync('gen');for(let i=0;i<3000;i++)fs.writeFileSync('gen/g'+i+'.js',String(i))\"";

describe('a run on a big repository (built CLI)', { skip: skipWithoutBuild }, () => {
  test('the first command steps never block the main thread for more than 500 ms; progress is said; the restore works', async () => {
    const ws = bigRepository();
    const probeOut = path.join(ws.root, '..', `${path.basename(ws.root)}-probe.json`);
    const server = await ScriptedModelServer.start([
      { reply: { toolCalls: [call('run_command', { command: "node -e \"require('fs').writeFileSync('src/pkg0/f0.js', 'changed')\"" })] } },
      { reply: { toolCalls: [call('run_command', { command: CREATE_3000 })] } },
      { reply: { toolCalls: [call('finish', { summary: 'done' })] } },
    ]);
    try {
      const args = [
        '--goal',
        'change things',
        '--workspace',
        ws.root,
        '--approve',
        'auto',
        '--trust-workspace',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--json',
      ];
      const r = await runCli(args, { env: { NODE_OPTIONS: `--require ${PROBE}`, PP_PROBE_OUT: probeOut } });
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stderr, /watchdog/);
      const probe = JSON.parse(readFileSync(probeOut, 'utf8')) as { max: number; maxCpu: number; stalls: { ms: number; cpuMs: number; after: string }[] };
      // CPU, not wall time: on a loaded machine the scheduler stretches any stall; a loop that never yields spends seconds of CPU in one.
      const stalls = JSON.stringify(probe.stalls.filter((s) => s.cpuMs > 100));
      assert.ok(probe.maxCpu <= MAX_STALL_MS, `the main thread was held by ${probe.maxCpu} ms of work at once (stalls with over 100 ms of CPU: ${stalls})`);
      // Reading and keeping 10,000 untracked files takes seconds: the progress is said, and its last report is the whole.
      const progress = events(r.stdout).filter((e) => e.type === 'checkpoint/progress');
      assert.ok(progress.length > 0, 'no checkpoint/progress event');
      assert.equal(progress.at(-1)!.done, progress.at(-1)!.total);
      const saved = events(r.stdout).filter((e) => e.type === 'checkpoint/saved');
      assert.deepEqual(
        saved.map((e) => [e.step, (e.paths as string[]).length]),
        [
          [1, 1],
          [2, 3001],
        ],
      );
      const restored = await runCli(['--workspace', ws.root, '--run', 'last', '--before-step', '1', '--yes'], { command: 'restore' });
      assert.equal(restored.code, 0, restored.stderr);
      assert.equal(readFileSync(path.join(ws.root, 'src/pkg0/f0.js'), 'utf8'), 'module.exports = 0;\n');
      assert.equal(existsSync(path.join(ws.root, 'gen')), false);
    } finally {
      await server.close();
      ws.cleanup();
    }
  });
});
