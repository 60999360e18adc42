// The history panel end to end in a real VS Code (code-server + Chromium), after a scripted chat run
// with a two-hunk patch (one accepted, one rejected with a reason) and a failing test task:
// "Show History" lists the run by its goal; its timeline shows the hunk states, the reason and the
// test's exit code; a word from a tool result is found by search; the time filter hides a run seeded
// 40 days back; Export writes the audit JSON; hostile markup stored in the run stays inert text.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { HistoryEngine } from '../../src/core/history/engine';
import { ScriptedModelServer } from '../support/scriptedModel';
import { sendInChat } from './support/chat';
import { createWorkspace } from './support/codeServer';
import { editorWebviewFrame } from './support/editorWebview';
import { beforeRetry, e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const filler = Array.from({ length: 8 }, (_, i) => `// line ${i + 1}: the zephyrine constant is documented elsewhere`);
const BEFORE = [
  'function area(w, h) {',
  '  return w * h',
  '}',
  ...filler,
  'function perimeter(w, h) {',
  '  return 2 * w + h;',
  '}',
  'module.exports = { area, perimeter };',
  '',
].join('\n');
const PATCH = [
  '--- a/shapes.js',
  '+++ b/shapes.js',
  '@@ -1,3 +1,3 @@',
  ' function area(w, h) {',
  '-  return w * h',
  '+  return w * h;',
  ' }',
  '@@ -12,3 +12,3 @@',
  ' function perimeter(w, h) {',
  '-  return 2 * w + h;',
  '+  return 2 * (w + h);',
  ' }',
  '',
].join('\n');
const EXPECTED = BEFORE.replace('  return w * h\n', '  return w * h;\n');
const REASON = 'leave perimeter alone for now';
const GOAL = 'Fix the shapes module';
const HOSTILE = 'Reading it first. <img src=x onerror="window.__pwned=1"> [click me](javascript:window.__pwned=2) ![x](http://127.0.0.1:9/leak.png)';
const OLD_GOAL = 'Old logging cleanup <img src=y onerror="window.__pwned=3">';

const FILES = { 'shapes.js': BEFORE, 'check.js': "console.log('perimeter still wrong'); process.exit(3);\n" };
const workspace = createWorkspace(FILES);
let model: ScriptedModelServer | undefined;
const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'patchpilot.tests.commands': ['node check.js'],
  'diffEditor.codeLens': true,
};

/** The workspace as the test starts: its files, and a run from 40 days ago already in its history. */
async function prepareWorkspace(): Promise<void> {
  for (const entry of readdirSync(workspace)) rmSync(path.join(workspace, entry), { recursive: true, force: true });
  for (const [rel, text] of Object.entries(FILES)) writeFileSync(path.join(workspace, rel), text);
  const db = path.join(workspace, '.patchpilot', 'history.db');
  mkdirSync(path.dirname(db), { recursive: true });
  const engine = await HistoryEngine.open({ path: db });
  const started = Date.now() - 40 * 86_400_000;
  const old = engine.startRun({ goal: OLD_GOAL, reasoningModel: 'old-model', startedAt: started });
  engine.addStep(old, { role: 'assistant', text: 'Removed the noisy log lines.', time: started + 1000 });
  engine.finishRun(old, { status: 'finished', endedAt: started + 60_000 });
  engine.close();
}

before(async () => {
  await prepareWorkspace();
  model = await ScriptedModelServer.start([
    { reply: { text: HOSTILE, toolCalls: [{ name: 'read_file', arguments: { path: 'shapes.js' } }] } },
    { reply: { text: 'Two fixes in shapes.js.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Only the semicolon went in.' } },
  ]);
  settings['patchpilot.llm.baseUrl'] = model.baseUrl;
});

beforeRetry(async () => {
  await prepareWorkspace();
  model?.reset();
});

after(async () => {
  await model?.close();
  if (process.env.PATCHPILOT_E2E_KEEP !== '1') rmSync(workspace, { recursive: true, force: true });
});

e2eTest(
  'history panel: the run, its hunks, reason and test exit code; search; time filter; export; hostile text inert',
  async (vs) => {
    // The run, as a person makes it: the chat, the per-hunk review, a reason.
    const chat = await sendInChat(vs, GOAL);
    const lens = (title: string) => vs.page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: title });
    await lens('Accept hunk')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await lens('Accept hunk').first().click();
    await vs.page.locator('.monaco-diff-editor .codelens-decoration', { hasText: 'Hunk 1/2 (accepted)' }).first().waitFor({ state: 'visible' });
    await lens('Reject hunk').last().click();
    const box = vs.page.locator('.quick-input-widget input.input');
    await box.waitFor({ state: 'visible' });
    await box.fill(REASON);
    await vs.page.keyboard.press('Enter');
    const deadline = Date.now() + E2E_TIMEOUT * 2;
    while (vs.readFile('shapes.js') !== EXPECTED) {
      if (Date.now() > deadline) assert.equal(vs.readFile('shapes.js'), EXPECTED);
      await vs.page.waitForTimeout(200); // polling the disk
    }
    await vs.openViewContainer('PatchPilot');
    await chat
      .getByText('Only the semicolon went in.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    // Show History: the run is listed by its goal, next to the seeded old one.
    await vs.runCommand('PatchPilot: Show History');
    const panel = await editorWebviewFrame(vs.page, 'PatchPilot History');
    const runs = getByRoleIn(panel, 'listbox', 'Runs');
    const run = runs.getByRole('option', { name: new RegExp(`^${GOAL}`) });
    await run.waitFor({ state: 'visible' });
    await runs.getByRole('option', { name: /^Old logging cleanup/ }).waitFor({ state: 'visible' });

    // Its timeline: the patch with an applied and a rejected hunk (and why), the test's exit code.
    await run.click();
    const detail = panel.getByRole('region', { name: 'Run details' });
    const hunks = detail.getByRole('list', { name: 'Hunks' });
    await hunks.getByText('shapes.js#1').waitFor({ state: 'visible' });
    await hunks.getByRole('listitem').filter({ hasText: 'shapes.js#1' }).getByText('applied', { exact: true }).waitFor();
    const rejected = hunks.getByRole('listitem').filter({ hasText: 'shapes.js#2' });
    await rejected.getByText('rejected', { exact: true }).waitFor();
    await rejected.getByText(REASON, { exact: false }).waitFor();
    await detail.getByText('exit 3', { exact: true }).first().waitFor();
    await getByRoleIn(panel, 'button', /^Open patch to shapes\.js/).waitFor();
    await getByRoleIn(panel, 'button', /^Revert patch to shapes\.js/).waitFor();
    await vs.screenshot('history-timeline');

    // Hostile markup from the model (and in a stored goal) is text: no image, no script, no javascript: link.
    await detail.getByText('<img src=x onerror=', { exact: false }).first().waitFor();
    assert.equal(await panel.locator('img').count(), 0, 'no <img> element anywhere in the panel');
    assert.equal(await panel.locator('a[href^="javascript:"]').count(), 0);
    await runs
      .getByRole('option', { name: /^Old logging cleanup/ })
      .getByText('onerror', { exact: false })
      .waitFor();
    assert.equal(await panel.evaluate('window.__pwned'), undefined, 'nothing ran');

    // Search: a word that only a tool result (read_file's output) holds.
    const search = getByRoleIn(panel, 'searchbox', 'Search history');
    await search.fill('zephyrine');
    const results = getByRoleIn(panel, 'listbox', 'Search results');
    const hit = results.getByRole('option', { name: /read_file call/ }).first();
    await hit.waitFor({ state: 'visible' });
    assert.equal((await hit.locator('mark').first().textContent())?.toLowerCase(), 'zephyrine');
    await vs.screenshot('history-search');
    // Searching in no type finds nothing, and says why.
    for (const type of ['Runs', 'Observations', 'Patches', 'Tests']) await getByRoleIn(panel, 'checkbox', type).uncheck();
    await results.getByText('Choose at least one type to search in.').waitFor({ state: 'visible' });
    assert.equal(await results.getByRole('option').count(), 0);
    for (const type of ['Runs', 'Observations', 'Patches', 'Tests']) await getByRoleIn(panel, 'checkbox', type).check();
    await hit.waitFor({ state: 'visible' });

    // The time filter: the 40-day-old run goes, today's stays.
    await search.fill('');
    await getByRoleIn(panel, 'combobox', 'Time filter').selectOption('7d');
    await runs.getByRole('option', { name: /^Old logging cleanup/ }).waitFor({ state: 'detached' });
    await run.waitFor({ state: 'visible' });
    await getByRoleIn(panel, 'combobox', 'Time filter').selectOption('all');
    await runs.getByRole('option', { name: /^Old logging cleanup/ }).waitFor({ state: 'visible' });

    // Export JSON: the save dialog (code-server's own) proposes a file in the workspace; Enter saves it.
    await run.click();
    await getByRoleIn(panel, 'button', 'Export run as JSON').click();
    const dialog = vs.page.locator('.quick-input-widget input.input');
    await dialog.waitFor({ state: 'visible' });
    await vs.page.keyboard.press('Enter');
    // Named by the run's day and goal (patchpilot-2026-11-28-fix-the-shapes-module.json).
    const exported = await waitForFile(vs.workspace, /^patchpilot-\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.json$/);
    const audit = JSON.parse(readFileSync(path.join(vs.workspace, exported), 'utf8')) as {
      tables: { runs: Array<{ goal: string }>; patches: Array<{ rejectedHunks: Array<{ reason?: string }> }>; test_runs: Array<{ exitCode: number }> };
    };
    assert.equal(audit.tables.runs[0]!.goal, GOAL);
    assert.equal(audit.tables.patches[0]!.rejectedHunks[0]!.reason, REASON);
    assert.equal(audit.tables.test_runs[0]!.exitCode, 3);
    assert.deepEqual(model!.mismatches, []);
  },
  { workspace, settings },
);

async function waitForFile(dir: string, name: RegExp): Promise<string> {
  const deadline = Date.now() + E2E_TIMEOUT;
  for (;;) {
    const found = readdirSync(dir).find((f) => name.test(f));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no file matching ${name} in ${dir}: ${readdirSync(dir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 200)); // polling the disk
  }
}
