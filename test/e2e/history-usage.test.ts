// The history panel's usage views in a real VS Code (code-server + Chromium), over a history seeded
// with a run whose requests came from the main model, the fast model, a compaction and a subagent:
// the run's table and chart of usage by source, and "Show model usage by day", found by role and name.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { HistoryEngine } from '../../src/core/history/engine';
import { localDay } from '../../src/core/history/usage';
import { createWorkspace } from './support/codeServer';
import { editorWebviewFrame } from './support/editorWebview';
import { beforeRetry, e2eTest } from './support/session';
import { getByRoleIn } from './support/workbench';

const GOAL = 'Count the tokens of every source';
const workspace = createWorkspace({ 'README.md': '# usage\n' });

async function prepareWorkspace(): Promise<void> {
  for (const entry of readdirSync(workspace)) rmSync(path.join(workspace, entry), { recursive: true, force: true });
  const db = path.join(workspace, '.patchpilot', 'history.db');
  mkdirSync(path.dirname(db), { recursive: true });
  const engine = await HistoryEngine.open({ path: db });
  const now = Date.now();
  const run = engine.startRun({ goal: GOAL, reasoningModel: 'main-model', startedAt: now - 60_000 });
  let time = now - 50_000;
  const add = (source: string, promptTokens: number, costUsd: number | null) =>
    engine.addUsage({
      runId: run,
      source,
      role: source === 'fast' ? 'fast' : 'reasoning',
      model: 'm',
      promptTokens,
      completionTokens: 100,
      costUsd,
      time: (time += 1_000),
    });
  add('main', 12_000, 0.012);
  add('main', 14_000, 0.014);
  add('compaction', 3_000, 0.003);
  add('subagent 1', 8_000, 0.008);
  add('fast', 500, null);
  engine.finishRun(run, { status: 'stopped', steps: 2, tokensIn: 37_500, tokensOut: 500, costUsd: 0.037, endedAt: now - 10_000 });
  engine.close();
}

before(prepareWorkspace);
beforeRetry(prepareWorkspace);
after(() => {
  if (process.env.PATCHPILOT_E2E_KEEP !== '1') rmSync(workspace, { recursive: true, force: true });
});

e2eTest(
  "history panel: a run's usage by source (table and chart), and the workspace's usage by day",
  async (vs) => {
    await vs.runCommand('PatchPilot: Show History');
    const panel = await editorWebviewFrame(vs.page, 'PatchPilot History');
    const run = getByRoleIn(panel, 'listbox', 'Runs').getByRole('option', { name: new RegExp(`^${GOAL}`) });
    await run.waitFor({ state: 'visible' });
    await run.click();

    const detail = panel.getByRole('region', { name: 'Run details' });
    const usage = detail.getByRole('region', { name: 'Model usage by source' });
    const table = usage.getByRole('table', { name: 'Model usage by source' });
    await table.waitFor({ state: 'visible' });
    const main = table.getByRole('row', { name: /^main / });
    assert.deepEqual(await main.getByRole('cell').allTextContents(), ['2', '26,000', '200', '$0.0260']);
    await table
      .getByRole('row', { name: /^subagent 1 / })
      .getByRole('cell', { name: '$0.0080' })
      .waitFor();
    await table
      .getByRole('row', { name: /^fast / })
      .getByRole('cell', { name: '– (+1 unpriced)' })
      .waitFor();
    await usage
      .getByRole('img', { name: 'Chart of tokens by source (Model usage by source): main 26,200, compaction 3,100, subagent 1 8,100, fast 600' })
      .waitFor();
    await detail.getByText('stopped', { exact: true }).first().waitFor();
    await vs.screenshot('history-usage-run');

    await getByRoleIn(panel, 'button', 'Show model usage by day').click();
    const days = detail.getByRole('article', { name: 'Model usage by day' });
    await days.getByRole('heading', { name: 'Model usage by day (last 14 days)' }).waitFor();
    const today = days.getByRole('table', { name: `${localDay(Date.now())}: 38,000 tokens, $0.0370` });
    await today.waitFor({ state: 'visible' });
    assert.equal(await today.getByRole('row').count(), 5, 'a header row and four sources');
    await vs.screenshot('history-usage-days');
  },
  { workspace, settings: {} },
);
