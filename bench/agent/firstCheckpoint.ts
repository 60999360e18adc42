/**
 * (e) The first checkpoint of a workspace (the store's copy of every kept file) beside what other
 * agents pay for theirs on the same tree: Cline's shadow git (`git add -A && git commit` into a git
 * folder of its own) and OpenCode's snapshot (`git add -A && git write-tree`, no commit). CPU is user +
 * system time (PatchPilot's: this process's `cpuUsage` plus its git children's; git's: bash's `times` of the children),
 * store size is `du` of the store (PatchPilot: `.patchpilot/checkpoints`; git: the git folder).
 * The workspace is a git repository (10% of its files edited after the commit, some untracked), the
 * first look listing it with `git ls-files`; also walking it with the ignore rules (the code before, and
 * a workspace without a repository), and the floor: listing the kept files and reading each once.
 * BENCH_FIRST_SIZES overrides the sizes (default 1000,10000), BENCH_FIRST_REPEAT the samples (default
 * 3, the median shown), BENCH_FIRST_WALK=0 leaves out the walking column.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Checkpointer } from '../../src/core/checkpoint';
import { IgnoreRules } from '../../src/core/git/ignoreRules';
import { listKeptByGit } from '../../src/core/git/keptFiles';
import { repositoryObjects } from '../../src/core/git/repositoryObjects';

const SIZES = (process.env.BENCH_FIRST_SIZES ?? '1000,10000').split(',').map(Number);
const REPEAT = Number(process.env.BENCH_FIRST_REPEAT ?? 3);
/** BENCH_FIRST_WALK=0 leaves out the walking column (minutes at 100k files). */
const WALK = process.env.BENCH_FIRST_WALK !== '0';

const WORDS =
  'value index count name path file list item node tree parse read write state event token range model store cache query field table order error check apply build start close open merge split'.split(
    ' ',
  );

/** Source-like text of 0.2-2 KiB: identifiers and strings drawn from a small vocabulary (compresses about as code does, 3-4x). */
function sourceText(i: number): string {
  let seed = (i * 2654435761) >>> 0;
  const word = () => WORDS[(seed = (seed * 1103515245 + 12345) >>> 0) % WORDS.length]!;
  const lines = [`// file ${i}`];
  for (let length = 0, target = 200 + ((i * 37) % 1800); length < target;) {
    const line = `export const ${word()}${seed % 97} = ${word()}(${word()}, "${word()} ${word()} ${seed % 1000}");`;
    lines.push(line);
    length += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** `files` source files of 0.2-2 KiB, 20 a folder, committed; then 10% edited and 5% untracked. */
function repository(files: number): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-bench-first-')));
  const body = sourceText;
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, 'src', `pkg${Math.floor(i / 20)}`);
    if (i % 20 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `f${i % 20}.ts`), body(i));
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b.invalid', ...args], { cwd: root, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'tree');
  for (let i = 0; i < files; i += 10) writeFileSync(path.join(root, 'src', `pkg${Math.floor(i / 20)}`, `f${i % 20}.ts`), `${body(i)}// edited\n`);
  for (let i = 0; i < files / 20; i++) writeFileSync(path.join(root, 'src', `pkg${i}`, 'untracked.ts'), body(i + 7));
  return root;
}

function duKiB(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** CPU seconds of a shell script's children (bash `times`: the second line is the children's user and system time). */
function gitCpu(script: string, cwd: string): number {
  const r = spawnSync('bash', ['-c', `${script} >/dev/null 2>&1; times`], { cwd, encoding: 'utf8' });
  const children = r.stdout.trim().split('\n').at(-1)!;
  const [user, sys] = children.split(/\s+/).map((t) => {
    const m = /(\d+)m([\d.]+)s/.exec(t)!;
    return Number(m[1]) * 60 + Number(m[2]);
  });
  return user! + sys!;
}

/** CPU seconds of this process's children that ended (the git processes PatchPilot runs): /proc/self/stat's cutime + cstime, in clock ticks of 1/100 s. */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** PatchPilot's first checkpoint: with the repository's listing (`git`), or walking with the ignore rules (as before, and without a repository). */
async function ours(root: string, git: boolean): Promise<{ cpu: number; kib: number }> {
  const rules = new IgnoreRules(root);
  const cp = new Checkpointer({
    root,
    stateDir: path.join(root, '.patchpilot'),
    maxBytes: 4 * 1024 ** 3,
    ignored: () => (rel, isDir) => rules.isGitIgnored(rel, isDir),
    watch: false,
    ...(git ? { listKept: (signal?: AbortSignal) => listKeptByGit(root, rules, signal), objects: repositoryObjects(root) } : {}),
  });
  const before = process.cpuUsage();
  const childrenBefore = childrenCpu();
  await (await cp.begin({ runId: 'bench', step: 1, tool: 'run_command', scope: 'workspace' }))!.end();
  const used = process.cpuUsage(before);
  cp.dispose();
  return { cpu: (used.user + used.system) / 1e6 + childrenCpu() - childrenBefore, kib: duKiB(path.join(root, '.patchpilot', 'checkpoints')) };
}

interface Sample {
  ours: { cpu: number; kib: number };
  walked?: { cpu: number; kib: number };
  cline: { cpu: number; kib: number };
  opencode: { cpu: number; kib: number };
  floor: number;
}

/** One sample of every method on a fresh tree of `size` files, one after the other (interleaved). */
async function sample(size: number): Promise<Sample> {
  const root = repository(size);
  const shadow = `${root}-shadow`;
  const snap = `${root}-snapshot`;
  try {
    const first = await ours(root, true);
    rmSync(path.join(root, '.patchpilot'), { recursive: true, force: true });
    const walked = WALK ? await ours(root, false) : undefined;
    rmSync(path.join(root, '.patchpilot'), { recursive: true, force: true });
    // gc.autoDetach=false: the `gc --auto` a large commit starts (it packs the objects) is counted, and done before `du`.
    const g = (dir: string) => `git -c gc.autoDetach=false --git-dir=${dir} --work-tree=${root}`;
    const id = `-c user.name=b -c user.email=b@b.invalid`;
    const cline = gitCpu(`git init -q --bare ${shadow} && ${g(shadow)} ${id} add -A -- . && ${g(shadow)} ${id} commit -q -m checkpoint`, root);
    const opencode = gitCpu(`git init -q --bare ${snap} && ${g(snap)} add -A -- . && ${g(snap)} write-tree`, root);
    // The floor of any copy: listing the kept files and reading each once (no hashing, no writing).
    const floor = gitCpu(`git ls-files -z --cached --others --exclude-standard | xargs -0 cat`, root);
    return { ours: first, ...(walked ? { walked } : {}), cline: { cpu: cline, kib: duKiB(shadow) }, opencode: { cpu: opencode, kib: duKiB(snap) }, floor };
  } finally {
    for (const dir of [root, shadow, snap]) rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function firstCheckpointTable(log: (m: string) => void): Promise<string> {
  const rows: string[] = [];
  // Once on a small tree first: loading and compiling the modules is not the checkpoint's cost.
  const warm = repository(20);
  await ours(warm, true);
  rmSync(warm, { recursive: true, force: true });
  for (const size of SIZES) {
    const samples: Sample[] = [];
    for (let i = 0; i < REPEAT; i++) {
      log(`first checkpoint: ${size} files (${i + 1} of ${REPEAT})`);
      samples.push(await sample(size));
    }
    const cpu = (pick: (s: Sample) => number) => median(samples.map(pick));
    const cell = (pick: (s: Sample) => { cpu: number; kib: number } | undefined) =>
      samples[0] && pick(samples[0])
        ? `${cpu((s) => pick(s)!.cpu).toFixed(2)} s, ${(median(samples.map((s) => pick(s)!.kib)) / 1024).toFixed(1)} MiB`
        : 'not run';
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    rows.push(
      `| ${size.toLocaleString('en')} | ${cell((s) => s.ours)} | ${cell((s) => s.walked)} | ${cell((s) => s.cline)} | ${cell((s) => s.opencode)} | ${cpu((s) => s.floor).toFixed(2)} s | ${ratio(
        cpu((s) => s.ours.cpu),
        cpu((s) => s.cline.cpu),
      )} CPU, ${ratio(median(samples.map((s) => s.ours.kib)), median(samples.map((s) => s.cline.kib)))} store |`,
    );
  }
  return [
    `median of ${REPEAT} interleaved sample${REPEAT === 1 ? '' : 's'} (CPU user + system, store by du)`,
    '| files | PatchPilot first checkpoint, git listing (CPU, store) | PatchPilot, walking with the ignore rules (no repository) | shadow git: add -A && commit | git add -A && write-tree | floor: git ls-files, read every file once | PatchPilot (git listing) / shadow git |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
