/**
 * The protected guard's cost per command: `npm run bench:guard`. Prints a table (copied into README).
 * Workspaces of N files (a node_modules-like tree of small packages, a few `.env*`/`.vscode` files
 * and ignored entries) and the same trivial command (`true`) run through runCommand:
 *   - bare bwrap / bare bash: the same arguments without the guard's walk (the floor a user pays today);
 *   - guarded: runCommand as the agent uses it (walk, mounts, command, second walk, redaction).
 * Env: BENCH_SIZES (default "1000,10000,100000"), BENCH_REPEAT (default 7).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { probeSandbox, runCommand } from '../../src/core/sandbox';
import { bwrapArguments } from '../../src/core/sandbox/bwrapArgs';
import { GuardedRun } from '../../src/core/sandbox/protectedGuard';

const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 7);

function workspace(files: number): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'pp-bench-guard-'));
  writeFileSync(path.join(root, '.patchpilotignore'), '.env\nsecrets/\n');
  writeFileSync(path.join(root, '.env'), 'API_TOKEN=bench-secret-value\n');
  mkdirSync(path.join(root, '.vscode'));
  writeFileSync(path.join(root, '.vscode', 'settings.json'), '{}\n');
  mkdirSync(path.join(root, 'secrets'));
  writeFileSync(path.join(root, 'secrets', 'key.pem'), 'PEM\n');
  const perPackage = 20;
  for (let i = 0; i < files / perPackage; i++) {
    const dir = path.join(root, 'node_modules', `pkg${i}`, 'lib');
    mkdirSync(dir, { recursive: true });
    for (let j = 0; j < perPackage; j++) writeFileSync(path.join(dir, `f${j}.js`), 'module.exports = 1;\n');
    if (i % 50 === 0) writeFileSync(path.join(root, 'node_modules', `pkg${i}`, '.npmrc'), 'x=1\n');
  }
  return root;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

async function main(): Promise<void> {
  const sandbox = probeSandbox();
  const rows: string[][] = [];
  for (const size of SIZES) {
    const root = workspace(size);
    try {
      const env = { PATH: process.env.PATH ?? '' };
      const bare = sandbox.available
        ? await time(() =>
            spawnSync(sandbox.bwrapPath!, bwrapArguments({ workspaceRoot: root, cwd: root, homeDirs: [os.homedir()], allowNetwork: false }, 'true'), { env }),
          )
        : await time(() => spawnSync('bash', ['-c', 'true'], { env }));
      const walk = await time(async () => (await GuardedRun.begin({ root, ignored: () => (rel) => rel === '.env' || rel === 'secrets' })).end());
      const guarded = await time(() => runCommand({ command: 'true', cwd: root, workspaceRoot: root }));
      const session = await GuardedRun.begin({ root, ignored: () => (rel) => rel === '.env' || rel === 'secrets' });
      await session.end();
      rows.push([
        size.toLocaleString('en'),
        String(session.scan.entries),
        String((session.sandboxMounts().length / 3) | 0),
        `${bare.toFixed(1)} ms`,
        `${walk.toFixed(1)} ms`,
        `${guarded.toFixed(1)} ms`,
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const head = [
    'files',
    'entries walked',
    'mounts',
    sandbox.available ? 'bare bwrap `true`' : 'bare bash `true`',
    'guard (2 walks)',
    'runCommand `true` guarded',
  ];
  console.log(`sandbox: ${sandbox.available ? 'bubblewrap' : 'none'}; median of ${REPEAT}`);
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

void main();
