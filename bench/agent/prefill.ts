/**
 * A history database with 100,000 rows (observations and steps, as a long-used workspace would
 * have), built once straight through the engine and cached in bench/.cache; each configuration
 * gets its own copy.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { HistoryEngine } from '../../src/core/history/engine';

const CACHE = path.resolve(__dirname, '../.cache');

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const vocab = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}${['parse', 'date', 'test', 'fix', 'tz', 'json', 'http', 'cache'][i % 8]}`);
const words = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(vocab.length * rand() ** 3)]!).join(' ');

/** Path of the cached database with `rows` rows (half observations, half steps of 100-step runs). */
export async function prefilledHistory(rows: number, log: (m: string) => void): Promise<string> {
  const file = path.join(CACHE, `agent-history-${rows}.db`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  const building = `${file}.building`;
  log(`building a ${rows.toLocaleString('en')}-row history database (cached in ${path.relative(process.cwd(), file)})...`);
  const engine = await HistoryEngine.open({ path: building, persistDelayMs: 3_600_000, maxPersistDelayMs: 3_600_000 });
  const observations = Math.floor(rows / 2);
  const now = Date.now();
  for (let i = 0; i < observations; i++) {
    engine.recordObservation({
      tool: i % 3 ? 'grep' : 'glob',
      insight: `insight ${words(8)}`,
      result: `${words(25)} line ${i}`,
      path: `src/f${i % 500}.ts`,
      isError: false,
      time: now - (i % 90) * 86_400_000,
    });
  }
  let runId = '';
  for (let i = 0; i < rows - observations; i++) {
    if (i % 100 === 0) {
      if (runId) engine.finishRun(runId, { status: 'finished', tokensIn: 50_000, tokensOut: 2_000 });
      runId = engine.startRun({ goal: `goal ${words(6)}`, reasoningModel: 'bench-model' });
    }
    engine.addStep(
      runId,
      i % 2
        ? { role: 'assistant', text: words(20), arguments: { calls: [{ name: 'grep', arguments: `{"pattern":"${words(1)}"}` }] } }
        : { role: 'tool', tool: 'grep', result: words(60), durationMs: 3 },
    );
  }
  engine.finishRun(runId, { status: 'finished' });
  engine.flush();
  engine.close();
  renameSync(building, file);
  return file;
}

/** Copies the cached database to `<workspace>/.patchpilot/history.db`. */
export function installHistory(source: string, workspace: string): void {
  mkdirSync(path.join(workspace, '.patchpilot'), { recursive: true });
  copyFileSync(source, path.join(workspace, '.patchpilot', 'history.db'));
}
