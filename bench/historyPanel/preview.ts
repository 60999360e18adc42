// A look at the panel outside VS Code: seeds a small history, opens the built webview in Chromium,
// searches, opens a run and saves screenshots to test-results/ (npm run build first).
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkerHistoryStore } from '../../src/core/history/workerStore';
import { openPanelPage } from './pageHarness';
import { seedHistory } from './seed';

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-panel-preview-'));
  const db = path.join(dir, 'history.db');
  await seedHistory({ path: db, runs: Number(process.env.RUNS ?? 60), observations: Number(process.env.OBS ?? 600), days: 20 });
  const store = await WorkerHistoryStore.open({ path: db, exitHook: false });
  const panel = await openPanelPage(store);
  try {
    console.log('first rows after', JSON.stringify(await panel.load()));
    for (let i = 0; i < 3; i++) console.log('again', JSON.stringify(await panel.load()));
    const out = path.join(__dirname, '../../test-results');
    mkdirSync(out, { recursive: true });
    await panel.page.screenshot({ path: path.join(out, 'history-preview-list.png') });
    await panel.page.getByRole('listbox', { name: 'Runs' }).getByRole('option').first().click();
    await panel.page.getByRole('heading', { level: 2 }).nth(1).waitFor();
    await panel.page.screenshot({ path: path.join(out, 'history-preview-run.png') });
    await panel.page.getByRole('searchbox', { name: 'Search history' }).fill('parser');
    await panel.page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first().waitFor();
    await panel.page.screenshot({ path: path.join(out, 'history-preview-search.png') });
  } finally {
    await panel.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
