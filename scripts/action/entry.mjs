// The GitHub Action's entry (action.yml): reads the inputs GitHub passes as INPUT_* variables, runs
// `patchpilot run --json` on the workspace, and reports through GitHub's files: step outputs
// (GITHUB_OUTPUT), the job summary (GITHUB_STEP_SUMMARY) and the run's changes as a unified diff.
// The API key goes to the CLI process only as PATCHPILOT_API_KEY; the CLI keeps it out of the
// environment of the commands the agent runs. Exits with the CLI's exit code (docs/cli.md).
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summaryMarkdown, totals } from './report.mjs';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');
const input = (name) => (process.env[`INPUT_${name.toUpperCase().replace(/-/g, '_')}`] ?? '').trim();

function fail(message) {
  console.log(`::error title=PatchPilot::${message}`);
  process.exit(2);
}

const workspace = path.resolve(input('workspace') || process.env.GITHUB_WORKSPACE || process.cwd());
let goal = input('goal');
if (!goal && input('goal-file')) {
  const file = path.resolve(workspace, input('goal-file'));
  if (!existsSync(file)) fail(`goal-file ${input('goal-file')} does not exist in ${workspace}`);
  goal = readFileSync(file, 'utf8').trim();
}
if (!goal) fail('set the goal input (or goal-file)');
if (!input('model')) fail('set the model input');

const args = ['run', '--workspace', workspace, '--goal', goal, '--approve', input('approve') || 'auto', '--model', input('model'), '--json'];
for (const [name, flag] of [
  ['base-url', '--base-url'],
  ['provider', '--provider'],
  ['max-steps', '--max-steps'],
  ['max-tokens', '--max-tokens'],
  ['max-cost-usd', '--max-cost-usd'],
  ['test-command', '--test-cmd'],
])
  if (input(name)) args.push(flag, input(name));
if (input('trust-workspace') === 'true') args.push('--trust-workspace');

const env = { ...process.env };
for (const key of Object.keys(env)) if (key.startsWith('INPUT_')) delete env[key];
if (input('api-key')) env.PATCHPILOT_API_KEY = input('api-key');

const temp = process.env.RUNNER_TEMP || os.tmpdir();
const eventsFile = path.join(temp, `patchpilot-events-${Date.now()}.jsonl`);
const eventsOut = createWriteStream(eventsFile);
const child = spawn(process.execPath, [cli, ...args], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.pipe(eventsOut);
const exitCode = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1))));
await new Promise((resolve) => eventsOut.end(resolve));

const events = readFileSync(eventsFile, 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('{'))
  .map((l) => JSON.parse(l));
const finished = events.findLast((e) => e.type === 'run/finished');
const patchFile = path.resolve(workspace, input('patch-file') || 'patchpilot.patch');
const { diff, stat } = changesOf(workspace, [patchFile, eventsFile]);
mkdirSync(path.dirname(patchFile), { recursive: true });
writeFileSync(patchFile, diff);
const { tokens, cost } = totals(finished?.usage);

const outputs = {
  status: finished?.status ?? 'failed',
  'exit-code': String(exitCode),
  tests: finished?.tests ?? 'not-run',
  'patch-file': patchFile,
  tokens: String(tokens),
  'cost-usd': cost === undefined ? '' : cost.toFixed(4),
  'events-file': eventsFile,
};
if (process.env.GITHUB_OUTPUT)
  appendFileSync(
    process.env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
if (process.env.GITHUB_STEP_SUMMARY)
  appendFileSync(process.env.GITHUB_STEP_SUMMARY, summaryMarkdown({ goal, finished, exitCode, stat, patchFile: path.relative(workspace, patchFile) }));
if (!finished) console.log('::error title=PatchPilot::the run ended without a result event; see the log above');
process.exit(exitCode);

/**
 * The run's changes against HEAD, new files included, as a unified diff and a --stat. Read through a
 * temporary index, so the repository's own index (what the user staged) is untouched.
 */
function changesOf(root, leaveOut) {
  const scratch = mkdtempSync(path.join(temp, 'patchpilot-index-'));
  const gitEnv = { ...process.env, GIT_INDEX_FILE: path.join(scratch, 'index') };
  const git = (...a) => spawnSync('git', a, { cwd: root, env: gitEnv, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  try {
    const hasHead = git('rev-parse', '--verify', '-q', 'HEAD').status === 0;
    if (hasHead) git('read-tree', 'HEAD');
    // A pathspec outside the repository makes git refuse the whole add: only files inside are left out.
    const inside = leaveOut.map((f) => path.relative(root, f)).filter((rel) => rel && !rel.startsWith('..') && !path.isAbsolute(rel));
    const added = git('add', '-A', '--', '.', ...inside.map((rel) => `:(exclude)${rel}`));
    if (added.status !== 0) throw new Error(`git add in a temporary index failed: ${added.stderr.trim()}`);
    const base = hasHead ? 'HEAD' : git('hash-object', '-t', 'tree', '/dev/null').stdout.trim();
    return { diff: git('diff', '--cached', '--binary', base).stdout, stat: git('diff', '--cached', '--stat', base).stdout.trim() };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
