// The GitHub Action's entry (action.yml): reads the inputs GitHub passes as INPUT_* variables, runs
// `patchpilot run --json` on the workspace, and reports through GitHub's files: step outputs
// (GITHUB_OUTPUT), the job summary (GITHUB_STEP_SUMMARY) and the run's changes as a unified diff;
// with create-pr, a branch pushed and a pull request opened (pullRequest.mjs).
// The API key goes to the CLI process only as PATCHPILOT_API_KEY; the CLI keeps it out of the
// environment of the commands the agent runs. Exits with the CLI's exit code (docs/cli.md).
import { spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { changesOf } from './changes.mjs';
import { openPullRequest } from './pullRequest.mjs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { summaryMarkdown } from './report.mjs';

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
// The result event (docs/api.md) ends every run's stream: status, tests, usage, tokens and cost.
const finished = events.findLast((e) => e.type === 'result');
const patchFile = path.resolve(workspace, input('patch-file') || 'patchpilot.patch');
const changes = changesOf(workspace, [patchFile, eventsFile], temp);
const { diff, stat } = changes;
mkdirSync(path.dirname(patchFile), { recursive: true });
writeFileSync(patchFile, diff);

const report = summaryMarkdown({ goal, finished, exitCode, stat, patchFile: path.relative(workspace, patchFile) });
const pr = input('create-pr') === 'true' ? await pullRequestStep() : undefined;

const outputs = {
  status: finished?.status ?? 'failed',
  'exit-code': String(exitCode),
  tests: finished?.tests ?? 'not-run',
  'patch-file': patchFile,
  tokens: String(finished?.tokens ?? 0),
  'cost-usd': finished?.costUsd == null ? '' : finished.costUsd.toFixed(4),
  'events-file': eventsFile,
  branch: pr?.branch ?? '',
  'pull-request-url': pr?.url ?? '',
  'pull-request-number': pr?.number === undefined ? '' : String(pr.number),
};
if (process.env.GITHUB_OUTPUT)
  appendFileSync(
    process.env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
if (process.env.GITHUB_STEP_SUMMARY)
  appendFileSync(process.env.GITHUB_STEP_SUMMARY, report + (pr?.url ? `\n**Pull request:** ${pr.url}${pr.draft ? ' (draft: the tests fail)' : ''}\n` : ''));
if (!finished) console.log('::error title=PatchPilot::the run ended without a result event; see the log above');
// A run that went well but whose pull request could not be opened fails the step (exit 1).
process.exit(pr?.error && [0, 3].includes(exitCode) ? 1 : exitCode);

/** create-pr: the branch and pull request, or why there is none (a notice), or what failed (an error annotation). */
async function pullRequestStep() {
  try {
    const opened = await openPullRequest({
      root: workspace,
      changes,
      result: finished,
      goal,
      body: report,
      token: input('github-token'),
      apiUrl: process.env.GITHUB_API_URL,
      repository: process.env.GITHUB_REPOSITORY,
      branch: input('pr-branch'),
      base: input('pr-base'),
    });
    if (opened.skipped) console.log(`::notice title=PatchPilot::${opened.skipped}`);
    else console.log(`PatchPilot: pushed ${opened.branch} and opened ${opened.url}`);
    return opened;
  } catch (err) {
    console.log(`::error title=PatchPilot::${err instanceof Error ? err.message : String(err)}`);
    return { error: true };
  }
}
