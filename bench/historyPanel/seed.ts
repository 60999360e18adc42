/**
 * A history database of the benchmark's size: `runs` runs over the last `days` days, each with the
 * steps a run records (goal, model messages, tool calls with results, a patch with an accepted and a
 * rejected hunk, a test run, a policy verdict), and `observations` observations spread over the runs.
 * Written straight through the engine (no worker messages), then saved.
 */
import { HistoryEngine } from '../../src/core/history/engine';

export interface SeedOptions {
  path: string;
  runs: number;
  observations: number;
  days?: number;
  now?: number;
}

const DAY = 86_400_000;

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const VOCAB = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}${['parse', 'date', 'test', 'fix', 'tz', 'json', 'http', 'cache'][i % 8]}`);
const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)]!;
export const words = (n: number) => Array.from({ length: n }, word).join(' ');
const TOPICS = ['parser', 'date formatting', 'HTTP retries', 'cache eviction', 'JSON schema', 'time zones', 'the CLI flags', 'logging'];

export async function seedHistory(o: SeedOptions): Promise<{ seconds: number; runIds: string[] }> {
  const t0 = performance.now();
  const now = o.now ?? Date.now();
  const days = o.days ?? 180;
  const engine = await HistoryEngine.open({ path: o.path, persistDelayMs: 3_600_000, maxPersistDelayMs: 3_600_000 });
  const perRun = Math.floor(o.observations / o.runs);
  const runIds: string[] = [];
  for (let r = 0; r < o.runs; r++) {
    const start = now - Math.floor(((o.runs - r) / o.runs) * days * DAY) - Math.floor(rand() * 3_600_000);
    let t = start;
    const topic = TOPICS[r % TOPICS.length]!;
    const goal = `Fix ${topic} bug #${r}: ${words(6)}`;
    const id = engine.startRun({ goal, reasoningModel: 'gpt-4.1', fastModel: 'gpt-4.1-mini', startedAt: t });
    runIds.push(id);
    engine.addStep(id, { role: 'user', text: goal, time: ++t });
    engine.addStep(id, { role: 'assistant', text: `Looking at ${topic}. ${words(20)}`, time: (t += 800) });
    engine.addStep(id, {
      role: 'tool',
      tool: 'read_file',
      arguments: { path: `src/${topic.replace(/\s/g, '_')}.ts` },
      result: words(120),
      durationMs: 3,
      time: (t += 50),
    });
    engine.addStep(id, { role: 'tool', tool: 'grep', arguments: { pattern: word() }, result: words(80), durationMs: 12, time: (t += 50) });
    engine.addStep(id, { role: 'assistant', text: `Proposing a fix. ${words(15)}`, time: (t += 900) });
    const file = `src/f${r % 97}.ts`;
    engine.addPatch(id, {
      text: `--- a/${file}\n+++ b/${file}\n@@ -1,2 +1,2 @@\n-${word()}\n+${word()}\n ctx\n@@ -20,2 +20,2 @@\n ctx\n-${word()}\n+${word()}\n`,
      files: [file],
      acceptedHunks: [`${file}#1`],
      rejectedHunks: [{ id: `${file}#2`, state: 'rejected', reason: `keep it: ${words(4)}` }],
      reversePatch: `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-x\n+y\n`,
      appliedAt: t,
    });
    engine.addStep(id, {
      role: 'tool',
      tool: 'propose_patch',
      arguments: { patch: '...' },
      result: `applied 1 hunk to ${file}`,
      durationMs: 40,
      time: (t += 40),
    });
    engine.addPolicyDecision({
      runId: id,
      kind: 'command',
      subject: 'npm test',
      verdict: 'allow',
      rule: 'allow:npm test',
      reason: 'on the allowlist',
      time: (t += 10),
    });
    engine.addTestRun({
      runId: id,
      command: 'npm test',
      trigger: 'agent',
      exitCode: r % 3 === 0 ? 1 : 0,
      durationMs: 2000,
      output: `# tests 12\n# pass ${r % 3 === 0 ? 11 : 12}\n# fail ${r % 3 === 0 ? 1 : 0}\n${words(40)}`,
      time: (t += 2000),
    });
    engine.addStep(id, {
      role: 'tool',
      tool: 'finish',
      arguments: { summary: 'done' },
      result: `Fixed ${topic}. ${words(10)}`,
      durationMs: 1,
      time: (t += 100),
    });
    for (let i = 0; i < perRun; i++) {
      engine.recordObservation({
        runId: id,
        tool: i % 2 ? 'grep' : 'read_file',
        insight: `insight ${words(8)}`,
        result: `${words(25)} line ${i}`,
        path: `src/f${i % 500}.ts`,
        isError: false,
        time: start + i * 10,
      });
    }
    engine.recordQaSummary(id, goal, `What was done: ${words(30)}`, (t += 10));
    engine.finishRun(id, { status: r % 3 === 0 ? 'failed' : 'finished', tokensIn: 12_000 + r, tokensOut: 2_000, costUsd: 0.05, endedAt: (t += 10) });
  }
  engine.flush();
  engine.close();
  return { seconds: (performance.now() - t0) / 1000, runIds };
}
