/**
 * The cacheable prefix over a real three-message conversation: `npm run bench:cache-prefix`. The
 * built CLI runs three goals of one session (`--resume last` for the second and third, the
 * workspace changed between them) against the scripted model server; for each agent request, the
 * bytes of its prompt (tools, then messages) and how many of them equal the previous request's,
 * byte for byte: what a provider's prefix cache could serve. Prints a Markdown table (copied into
 * docs/benchmarks.md), one per scenario: the files change between goals, or a `remember` and a
 * change of approval mode come between them (`npm run bench:cache-prefix -- memory-and-mode` for one).
 * BENCH_VERBOSE=1 also prints where each request parts from the one before.
 */
import { SCENARIOS, partingPoint, threeMessageConversation, type PromptRow, type Scenario } from '../../test/integration/llm/cliConversation';

/** What changes between the goals, per scenario (cliConversation.ts). */
const TITLES: Record<Scenario, string> = {
  workspace: 'files change between goals (an edit left uncommitted, a new file, a commit)',
  'memory-and-mode': 'remember in goal 1, approval mode auto-edit then auto from goal 2',
};

const pct = (n: number, d: number) => (d ? `${((n / d) * 100).toFixed(1)}%` : 'n/a');
const n = (x: number) => x.toLocaleString('en-US');

function table(rows: PromptRow[]): string {
  const head = ['request', 'goal', 'bytes', 'shared prefix bytes', 'share'];
  const body = rows.map((r) => [
    `${r.request}${r.firstOfGoal && r.request > 1 ? ' (follow-up, first)' : ''}`,
    String(r.goal),
    n(r.bytes),
    r.request === 1 ? '-' : n(r.sharedPrefix),
    r.request === 1 ? '-' : pct(r.sharedPrefix, r.bytes),
  ]);
  const followUps = rows.slice(1);
  const firsts = rows.filter((r) => r.firstOfGoal && r.request > 1);
  const sum = (rs: PromptRow[], k: 'bytes' | 'sharedPrefix') => rs.reduce((t, r) => t + r[k], 0);
  body.push([
    '**every request after the first**',
    '',
    n(sum(followUps, 'bytes')),
    n(sum(followUps, 'sharedPrefix')),
    pct(sum(followUps, 'sharedPrefix'), sum(followUps, 'bytes')),
  ]);
  body.push([
    "**follow-ups' first requests**",
    '',
    n(sum(firsts, 'bytes')),
    n(sum(firsts, 'sharedPrefix')),
    pct(sum(firsts, 'sharedPrefix'), sum(firsts, 'bytes')),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const only = process.argv[2] as Scenario | undefined;
  if (only && !(only in SCENARIOS)) throw new Error(`unknown scenario ${only}: one of ${Object.keys(SCENARIOS).join(', ')}`);
  for (const scenario of only ? [only] : (Object.keys(SCENARIOS) as Scenario[])) await measure(scenario);
}

async function measure(scenario: Scenario): Promise<void> {
  const { rows, prompts } = await threeMessageConversation(scenario);
  process.stdout.write(`\n### ${scenario}: ${TITLES[scenario]}\n\n`);
  if (process.env.BENCH_VERBOSE) {
    for (let i = 1; i < prompts.length; i++) {
      const p = partingPoint(prompts[i - 1]!, prompts[i]!);
      process.stderr.write(
        `request ${i + 1} parts at byte ${p.at}\n  ...${JSON.stringify(p.before)}\n  was: ${JSON.stringify(p.was)}\n  now: ${JSON.stringify(p.now)}\n`,
      );
    }
  }
  process.stdout.write(`${table(rows)}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
