/**
 * A whole run on a big tree, end to end: `npm run bench:big-run`.
 * The built CLI (`patchpilot run --approve auto --json`) against the scripted model server replays a
 * 10-step goal (commands that write files, reads, a search, an edit, a finish) in a git repository of
 * BENCH_BIG_FILES source files (default 100,000, 0.2-2 KiB, 20 a folder) with a git-ignored
 * `node_modules` of BENCH_BIG_IGNORED files (default 20,000), twice in a row: with a fresh checkpoint
 * store, then with the store the first run left. The same on a 1,000-file tree is the yardstick the
 * issue sets ("a 100k-file workspace's first command step within 3x of a 1k one's").
 * Prints, per run: how it ended (exit code; the main-thread watchdog ends a blocked CLI with 137), wall
 * time, CPU (user + system of the CLI and its children, from bash's `times`), and when the first
 * command step's result arrived after the run started. BENCH_BIG_TRACE=1 prints each event with its time.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ScriptedModelServer, type ScriptedTurn } from '../../test/support/scriptedModel';

const CLI = path.resolve(__dirname, '../../dist/cli.js');
const FILES = Number(process.env.BENCH_BIG_FILES ?? 100_000);
const IGNORED = Number(process.env.BENCH_BIG_IGNORED ?? 20_000);
const log = (m: string) => process.stderr.write(`${m}\n`);

/** `files` committed source files and `ignored` files under a git-ignored node_modules. */
function tree(files: number, ignored: number): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-bench-big-')));
  const body = (i: number) => `// file ${i}\n${'export const value = "'.padEnd(200 + ((i * 37) % 1800), 'x')}";\n`;
  const fill = (base: string, count: number, ext: string) => {
    for (let i = 0; i < count; i++) {
      const dir = path.join(root, base, `pkg${Math.floor(i / 20)}`);
      if (i % 20 === 0) mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `f${i % 20}${ext}`), body(i));
    }
  };
  fill('src', files, '.ts');
  fill('node_modules', ignored, '.js');
  writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n');
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'big', version: '1.0.0', private: true }, null, 2) + '\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b.invalid', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'tree');
  return root;
}

const call = (name: string, args: Record<string, unknown>) => ({ reply: { text: `Step: ${name}.`, toolCalls: [{ name, arguments: args }] } });

/** Ten steps a model takes on an unknown bug, with commands that change files between checkpoints. */
function script(run: number): ScriptedTurn[] {
  return [
    // `node -e` is what auto mode runs unasked inside the sandbox (mkdir or a redirect would ask).
    call('run_command', {
      command: `node -e "require('fs').mkdirSync('notes',{recursive:true});require('fs').writeFileSync('notes/run${run}.txt','run ${run}')"`,
    }),
    call('read_file', { path: 'src/pkg7/f3.ts' }),
    call('grep', { pattern: 'file 1234\\b' }),
    call('run_command', {
      command: `node -e "const f='src/pkg7/f0.ts';const fs=require('fs');fs.writeFileSync(f,fs.readFileSync(f,'utf8')+'// seen ${run}\\n')"`,
    }),
    call('run_command', { command: 'git status --short' }),
    call('list_dir', { path: 'src/pkg9' }),
    call('edit_file', { path: `src/pkg9/f${run}.ts`, old_string: `// file ${180 + run}\n`, new_string: `// file ${180 + run}, edited in run ${run}\n` }),
    call('read_file', { path: `src/pkg9/f${run}.ts` }),
    call('run_command', { command: `node -e "for(let i=0;i<200;i++)require('fs').writeFileSync('notes/n'+i+'.txt',String(i))"` }),
    call('finish', { summary: `Run ${run}: notes written, one file edited.` }),
  ];
}

interface Outcome {
  code: number | null;
  wall: number;
  cpu: number;
  firstCommandAt: number | undefined;
  status: string;
}

/** One run of the built CLI, timed; CPU from bash's `times` (children's user + system). */
async function runOnce(root: string, run: number): Promise<Outcome> {
  const server = await ScriptedModelServer.start(script(run));
  try {
    const args = [
      '--goal',
      'Look around and leave a note',
      '--workspace',
      root,
      '--approve',
      'auto',
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--json',
    ];
    const quoted = [process.execPath, CLI, 'run', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const env: NodeJS.ProcessEnv = { ...process.env, PATCHPILOT_API_KEY: 'bench-key' };
    delete env.NODE_TEST_CONTEXT;
    const child = spawn('bash', ['-c', `${quoted}; code=$?; times; exit $code`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const t0 = performance.now();
    let firstCommandAt: number | undefined;
    let events = '';
    let status = '';
    let lines = '';
    // Events (JSON lines) then bash's `times` arrive on stdout; the CLI's own messages on stderr.
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      events += d;
      let nl: number;
      while ((nl = events.indexOf('\n')) >= 0) {
        const line = events.slice(0, nl);
        events = events.slice(nl + 1);
        if (firstCommandAt === undefined && line.includes('"type":"tool/finished"') && line.includes('"run_command"')) firstCommandAt = performance.now() - t0;
        if (process.env.BENCH_BIG_TRACE && line.startsWith('{')) log(`  ${s(performance.now() - t0)} ${line.slice(0, 140)}`);
        if (!line.startsWith('{')) lines += `${line}\n`;
        else if (line.includes('"type":"result"')) status = (JSON.parse(line) as { status?: string }).status ?? '';
      }
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const wall = performance.now() - t0;
    lines += events;
    const children = lines.trim().split('\n').at(-1) ?? '';
    const cpu = children
      .split(/\s+/)
      .map((t) => /(\d+)m([\d.]+)s/.exec(t))
      .filter((m): m is RegExpExecArray => !!m)
      .reduce((sum, m) => sum + Number(m[1]) * 60 + Number(m[2]), 0);
    if (code !== 0) log(stderr.split('\n').slice(-15).join('\n'));
    return { code, wall, cpu, firstCommandAt, status };
  } finally {
    await server.close();
  }
}

const s = (msValue: number | undefined) => (msValue === undefined ? 'n/a' : `${(msValue / 1000).toFixed(1)} s`);

async function main(): Promise<void> {
  const rows: string[] = [];
  const firstSteps = new Map<number, number | undefined>();
  for (const size of [1000, FILES]) {
    const ignored = size === FILES ? IGNORED : Math.round(IGNORED / 100);
    log(`building a tree of ${size.toLocaleString('en')} files (+ ${ignored.toLocaleString('en')} ignored)`);
    const root = tree(size, ignored);
    try {
      for (const run of [1, 2]) {
        log(`run ${run} on ${size.toLocaleString('en')} files`);
        const o = await runOnce(root, run);
        if (run === 1) firstSteps.set(size, o.firstCommandAt);
        rows.push(
          `| ${size.toLocaleString('en')} | ${run === 1 ? 'fresh' : 'populated'} | ${o.code}${o.code === 137 ? ' (watchdog)' : ''} | ${o.status} | ${s(o.wall)} | ${o.cpu.toFixed(1)} s | ${s(o.firstCommandAt)} |`,
        );
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const small = firstSteps.get(1000);
  const big = firstSteps.get(FILES);
  console.log('| files | store | exit | status | wall | CPU | first command step |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  if (small && big) console.log(`\nfirst command step, fresh store: ${(big / small).toFixed(1)}x the 1,000-file tree's`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
