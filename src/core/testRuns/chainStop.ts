/**
 * A package script that chains steps (`npm run lint && npm run unit && npm run integ`, dayjs's
 * `TZ=a npm run test-tz && ... && jest`) stops at its first failing step: the later steps never ran.
 * A summary of the failure alone reads as if the whole suite ran, so this says which steps ran and
 * which did not, read from npm's banners (`> pkg@1.0.0 unit`, one per script it runs): a step that
 * runs a script ran when its banner is there, in order; the first such step without its banner did
 * not, nor anything after it; steps that run no script, by their runner's once-a-run line. Said
 * only when the output tells it (npm printed the chain's own banner, and the step before the first
 * one missing is the last that ran); silent otherwise.
 * (test/unit/testRuns/chainStop.test.ts)
 */
import { runnerOfCommand } from './narrowing';
import type { ScriptLink } from './testScriptChain';
import type { TestFramework } from './runners';

/** npm, pnpm and yarn's "> name@version script" line. */
const NPM_BANNER = /^> (?:\S+@\S+|\S+) ([\w:.-]+)\r?$/gm;

/** A step that runs a package script: `npm run unit`, `TZ=x npm run test-tz -- --coverage`, `yarn test`. */
const SCRIPT_STEP = /^((?:\w+=\S*\s+)*)(?:npm|pnpm|yarn|bun)\s+(?:test\b|run(?:-script)?\s+((?:--?[\w-]+\s+)*)([\w:.-]+))/;

interface Step {
  text: string;
  /** The script it runs, when it runs one and npm prints its banner (not `--silent`). */
  script?: string;
  label: string;
}

/**
 * "lint failed; unit and integ never ran" for the first chained script of `chain` that stopped
 * early in `output`, or undefined when no chain stopped early (or the output cannot tell).
 */
export function chainStopped(chain: readonly ScriptLink[], output: string): string | undefined {
  const banners = [...output.matchAll(NPM_BANNER)].map((m) => ({ script: m[1]!, at: m.index }));
  for (const link of chain) {
    // `a || b` and `a; b` go on after a failure: only a chain of `&&` stops.
    if (/\|\||;/.test(link.script) || !link.script.includes('&&')) continue;
    const own = banners.findIndex((b) => b.script === link.name);
    if (own < 0) continue;
    const said = stoppedAt(link.script.split(/\s*&&\s*/).map(stepOf), banners.slice(own + 1), output.slice(banners[own]!.at));
    if (said) return `script "${link.name}" stopped at its first failing step: ${said}`;
  }
  return undefined;
}

function stoppedAt(steps: readonly Step[], banners: readonly { script: string }[], output: string): string | undefined {
  const ran = steps.some((s) => SCRIPT_STEP.test(s.text.trim())) ? ranByBanners(steps, banners) : ranByRunnerOutput(steps, output);
  const lastRan = Math.max(0, ran.lastIndexOf(true));
  const firstMissing = ran.indexOf(false);
  // The step before the first missing one is the one that failed only when it is known to have run.
  if (firstMissing <= 0 || firstMissing !== lastRan + 1) return undefined;
  const passed = steps.slice(0, lastRan).map((s) => s.label);
  const never = steps.slice(firstMissing).map((s) => s.label);
  return `${passed.length ? `${listed(passed)} passed; ` : ''}${steps[lastRan]!.label} failed; ${listed(never)} never ran`;
}

/** Per step: ran (its banner came, in order), did not (the first script step without one), or unknown. */
function ranByBanners(steps: readonly Step[], banners: readonly { script: string }[]): (boolean | undefined)[] {
  const ran: (boolean | undefined)[] = steps.map(() => undefined);
  let cursor = 0;
  for (let i = 0; i < steps.length; i++) {
    const script = steps[i]!.script;
    if (!script) continue;
    const at = banners.findIndex((b, j) => j >= cursor && b.script === script);
    ran[i] = at >= 0;
    if (at < 0) break;
    cursor = at + 1;
  }
  return ran;
}

/** What each run of a runner prints once: mocha's `N passing`, jest's `Tests:`, TAP's `TAP version`, vitest's `Test Files`. */
const RUN_MARK: Partial<Record<TestFramework, RegExp>> = {
  mocha: /^\s*\d+ passing \(/gm,
  jest: /^Tests:\s/gm,
  vitest: /^\s*Test Files\s/gm,
  tap: /^TAP version \d+$/gm,
  tape: /^TAP version \d+$/gm,
};

/**
 * Steps that run no script (`mocha test/unit && mocha test/integ`): the k-th step of a runner ran
 * when the output holds at least k runs of it (its once-a-run line); other steps are unknown.
 */
function ranByRunnerOutput(steps: readonly Step[], output: string): (boolean | undefined)[] {
  const seen = new Map<TestFramework, number>();
  return steps.map((s) => {
    const runner = runnerOfCommand(s.text);
    const mark = runner && RUN_MARK[runner];
    if (!runner || !mark) return undefined;
    const ordinal = (seen.get(runner) ?? 0) + 1;
    seen.set(runner, ordinal);
    return (output.match(mark)?.length ?? 0) >= ordinal;
  });
}

function stepOf(text: string): Step {
  const m = SCRIPT_STEP.exec(text.trim());
  if (!m) return { text, label: `\`${text.trim()}\`` };
  const name = m[3] ?? 'test';
  const silent = /(^|\s)(--silent|-s)\s/.test(m[2] ?? '') || /\s(--silent|-s)(\s|$)/.test(text);
  const env = m[1]!.trim();
  const label = env ? `${name} (${env})` : name;
  return silent ? { text, label } : { text, script: name, label };
}

function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
