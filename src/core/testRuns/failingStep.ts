/**
 * Which step of a test command failed when it is not the test runner: `npm test` whose script
 * lints first, `make test` whose target depends on `lint`, a tox or nox session's first command.
 * Read from what the tools print about themselves (npm's `> pkg@1.0.0 lint` banner and the
 * script line under it, make's `*** [target] Error N`, tox's `env: exit N ... > command`, nox's
 * `Command x failed`), only when the output names no failing test and shows no runner's counts:
 * then a bare runner summary would say nothing (test/unit/testRuns/failingStep.test.ts).
 */
import { runnerOfCommand } from './narrowing';
import type { TestSummary } from './runners';

/** The step a coverage threshold that failed after every test passed is named by: it judges the whole tree, not the tests that ran. */
export const COVERAGE_STEP = 'the coverage threshold check';

/**
 * The step that failed after the test runner's own counts said every test passed: npm's
 * `posttest` (which runs `npm run lint`), a make target after the tests. Named by the first script
 * npm ran after the runner's script, with the innermost one it led to: `script "posttest" (lint)`.
 */
export function stepAfterTests(output: string, summary: TestSummary): string | undefined {
  if (summary.failures.length || (summary.failed ?? 0) > 0 || !summary.passed) return undefined;
  // nyc, c8 and node-tap: "ERROR: Coverage for lines (98%) does not meet global threshold (100%)"; the figures stay in the output.
  if (/^ERROR: Coverage for \w+ \([\d.]+%\) does not meet (?:global )?threshold/m.test(output)) return COVERAGE_STEP;
  const after = bannersAfterRunner(output);
  const outer = after[0];
  if (outer) {
    const inner = after.at(-1)!;
    return inner === outer ? `script "${outer.script}" (\`${outer.command}\`)` : `script "${outer.script}" (${inner.script})`;
  }
  const target = /^make(?:\[\d+\])?: \*\*\* \[(?:[^\]\s:]+:\d+: )?([^\]]+)\] Error \d+/m.exec(output)?.[1];
  return target && !/test|check/i.test(target) ? `make target "${target}"` : undefined;
}

/** What the steps after the test runner printed (from npm's first banner after the runner's), else the whole output (make). */
export function outputAfterTests(output: string): string {
  const first = bannersAfterRunner(output)[0];
  return first ? output.slice(first.at) : output;
}

/** npm's banners of the scripts it ran after the one that runs the test runner. */
function bannersAfterRunner(output: string): { script: string; command: string; at: number }[] {
  const banners = [...output.matchAll(NPM_BANNER)].map((m) => ({ script: m[1]!, command: m[2]!.trim(), at: m.index }));
  const runnerAt = banners.findIndex((b) => b.command.split(/\s*(?:&&|;)\s*/).some((s) => runnerOfCommand(s) !== undefined));
  return runnerAt < 0 ? [] : banners.slice(runnerAt + 1);
}

/** npm, pnpm and yarn's "> name@version script" line and "> the command" under it. */
const NPM_BANNER = /^> (?:\S+@\S+|\S+) ([\w:.-]+)\r?\n> (.+)$/gm;

export function failingStep(output: string, summary: TestSummary): string | undefined {
  if (summary.framework || summary.failures.length || summary.passed !== undefined || summary.failed !== undefined) return undefined;
  return makeStep(output) ?? toxStep(output) ?? noxStep(output) ?? scriptStep(output);
}

function makeStep(output: string): string | undefined {
  const errors = [...output.matchAll(/^make(?:\[\d+\])?: \*\*\* \[(?:([^\]\s:]+):(\d+): )?([^\]]+)\] Error (\d+)/gm)];
  const first = errors[0];
  if (!first) return undefined;
  const where = first[1] ? ` (${first[1]}:${first[2]})` : '';
  return `make target "${first[3]}"${where} failed with exit ${first[4]}`;
}

function toxStep(output: string): string | undefined {
  // tox 4: "lint: exit 1 (0.31 seconds) /repo> flake8 src pid=123"; tox 3: "ERROR: InvocationError for command /x/flake8 src (exited with code 1)".
  const four = /^(\S+): exit (\d+) \([\d.]+ seconds\) [^>\n]*> (.+?)(?: pid=\d+)?\s*$/m.exec(output);
  if (four) return `tox environment "${four[1]}": \`${four[3]}\` failed with exit ${four[2]}`;
  const three = /InvocationError for command (.+?) \(exited with code (\d+)\)/.exec(output);
  return three ? `tox: \`${three[1]}\` failed with exit ${three[2]}` : undefined;
}

function noxStep(output: string): string | undefined {
  const m = /^nox > Command (.+?) failed with exit code (\d+)/m.exec(output);
  if (!m) return undefined;
  const session = [...output.matchAll(/^nox > Running session (\S+)/gm)].at(-1)?.[1];
  return `nox${session ? ` session "${session}"` : ''}: \`${m[1]}\` failed with exit ${m[2]}`;
}

/**
 * npm, pnpm and yarn print each script they run as "> name@version script" and "> the command".
 * The last one printed is where the run stopped; when its command chains steps and its test runner
 * printed nothing, the failure is in a step before the runner.
 */
function scriptStep(output: string): string | undefined {
  const banners = [...output.matchAll(NPM_BANNER)];
  const last = banners.at(-1);
  if (!last) return undefined;
  const [, script, command] = last as unknown as [string, string, string];
  const steps = command.split(/\s*(?:&&|;)\s*/).filter(Boolean);
  const runnerAt = steps.findIndex((s) => runnerOfCommand(s) !== undefined);
  if (runnerAt < 0) return `script "${script}" (\`${command}\`) failed before any test ran`;
  if (runnerAt === 0) return undefined;
  const before = steps.slice(0, runnerAt).map((s) => `\`${s}\``);
  const which = before.length === 1 ? `its step ${before[0]}` : `one of its steps ${before.join(', ')}`;
  return `script "${script}" failed at ${which}, before its test runner (\`${steps[runnerAt]}\`) ran`;
}
