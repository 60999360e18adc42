// `patchpilot serve --telegram` end to end: the built CLI's grammY bot against a local fake Bot API
// server (test/support/fakeTelegramBotApi.ts) and the scripted model server. An allowed chat's goal
// runs: its approval is answered with a button (a press from another chat does nothing), its
// progress arrives in one edited status message, its summary at the end; a chat not on the list is
// refused and runs nothing; /stop cancels a goal waiting for approval; SIGTERM between goals exits 0.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeTelegramBotApi, type BotApiCall } from '../../support/fakeTelegramBotApi';
import { FIX, TEST_CMD } from '../../unit/orchestrator/harness';
import { CLI, call, cliEnv, historyRuns, skipWithoutBuild, withRepo } from '../agent/support';

const ALLOWED = 111;
const STRANGER = 999;
const NEW_FILE = '--- /dev/null\n+++ b/notes.txt\n@@ -0,0 +1 @@\n+hello\n';

const to = (chat: number) => (c: BotApiCall) => Number(c.body.chat_id) === chat;
const buttons = (c: BotApiCall): { text: string; callback_data: string }[] => c.body.reply_markup?.inline_keyboard?.flat() ?? [];

describe('patchpilot serve --telegram (built CLI, fake Bot API, scripted model)', { skip: skipWithoutBuild }, () => {
  test('goals from the allowed chat run with progress, approvals by button and /stop; other chats are refused', async () => {
    const turns = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      { reply: { toolCalls: [call('run_tests', {})] }, expect: { lastMessageContains: 'applied 1 hunk' } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add(): it subtracted.' })] }, expect: { lastMessageContains: 'tests passed' } },
      { reply: { toolCalls: [call('propose_patch', { patch: NEW_FILE })] } },
    ];
    const api = await FakeTelegramBotApi.start();
    const home = mkdtempSync(path.join(os.tmpdir(), 'pp-serve-home-'));
    mkdirSync(path.join(home, 'patchpilot'));
    writeFileSync(path.join(home, 'patchpilot', 'settings.json'), JSON.stringify({ 'patchpilot.channels.telegram.allowedChatIds': [String(ALLOWED)] }));
    try {
      await withRepo(turns, async (root, server) => {
        // The workspace tries to add a chat of its own: user settings only, so it is ignored.
        mkdirSync(path.join(root, '.vscode'));
        writeFileSync(path.join(root, '.vscode', 'settings.json'), JSON.stringify({ 'patchpilot.channels.telegram.allowedChatIds': [String(STRANGER)] }));
        const env = cliEnv({ XDG_CONFIG_HOME: home, PATCHPILOT_TELEGRAM_TOKEN: api.token, PATCHPILOT_TELEGRAM_API_ROOT: api.apiRoot });
        const args = [
          'serve',
          '--telegram',
          '--workspace',
          root,
          '--trust-workspace',
          '--test-cmd',
          TEST_CMD,
          '--base-url',
          server.baseUrl,
          '--model',
          'scripted-model',
        ];
        const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
        try {
          await api.waitForCall((c) => c.method === 'deleteWebhook', 30_000, 'the bot to start polling');

          // A chat not on the list: refused, with its id to add; nothing runs.
          api.sendText(STRANGER, 'delete everything');
          const refusal = await api.waitForCall((c) => c.method === 'sendMessage' && to(STRANGER)(c), 30_000, 'the refusal');
          assert.match(refusal.body.text, /not allowed to run PatchPilot goals.*This chat's id: 999/s);
          assert.equal(server.turnsServed, 0);

          // The allowed chat's goal: the patch is asked about with Approve / Deny.
          api.sendText(ALLOWED, 'make the add test pass');
          const question = await api.waitForCall((c) => c.method === 'sendMessage' && buttons(c).length > 0, 60_000, 'the approval question');
          assert.equal(Number(question.body.chat_id), ALLOWED);
          assert.match(question.body.text, /Apply this patch to add\.js \(1 hunk\)\?[^]*\+exports\.add = \(a, b\) => a \+ b;/);
          assert.deepEqual(
            buttons(question).map((b) => b.text),
            ['Approve', 'Deny'],
          );
          const approve = buttons(question).find((b) => b.text === 'Approve')!.callback_data;
          // The same button pressed from another chat answers nothing.
          const foreign = api.press(STRANGER, question.body.message_id, approve);
          const ignored = await api.waitForCall(
            (c) => c.method === 'answerCallbackQuery' && c.body.callback_query_id === foreign,
            30_000,
            'the foreign press answered',
          );
          assert.match(ignored.body.text, /not waiting for an answer here/);
          assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a - b;\n');
          api.press(ALLOWED, question.body.message_id, approve);

          const summary = await api.waitForCall((c) => c.method === 'sendMessage' && to(ALLOWED)(c) && /Fixed add/.test(c.body.text), 60_000, 'the summary');
          assert.match(summary.body.text, /^finished: .*\(3 steps\)\n\nFixed add\(\): it subtracted\.$/);
          assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
          // Progress: one status message (sent once, then edited), ending with the patch and the tests.
          const status = api.calls.filter((c) => to(ALLOWED)(c) && /^Running: make the add test pass/.test(c.body.text ?? ''));
          assert.equal(status[0]!.method, 'sendMessage');
          assert.ok(status.slice(1).every((c) => c.method === 'editMessageText' && c.body.message_id === status[0]!.body.message_id));
          const last = status.at(-1)!.body.text as string;
          assert.match(last, /step 1\n {2}propose_patch[^]*patch applied: add\.js \(1 of 1 hunks\)[^]*tests passed: /);
          // The question shows how it was answered, buttons gone.
          assert.ok(
            api.calls.some(
              (c) => c.method === 'editMessageText' && c.body.message_id === question.body.message_id && /-> answered: Approve$/.test(c.body.text),
            ),
          );

          // A second goal waits for approval; /stop cancels it.
          api.sendText(ALLOWED, 'write some notes');
          const second = await api.waitForCall(
            (c) => c.method === 'sendMessage' && buttons(c).length > 0 && /notes\.txt/.test(c.body.text),
            60_000,
            'the second question',
          );
          api.sendText(ALLOWED, '/stop');
          const cancelled = await api.waitForCall(
            (c) => c.method === 'sendMessage' && to(ALLOWED)(c) && /^cancelled: /.test(c.body.text),
            60_000,
            'the cancelled run',
          );
          assert.match(cancelled.body.text, /^cancelled: /);
          assert.ok(
            api.calls.some((c) => c.method === 'editMessageText' && c.body.message_id === second.body.message_id && /no longer waiting/.test(c.body.text)),
          );
          assert.deepEqual(
            (await historyRuns(root)).map((r) => [r.goal, r.status]),
            [
              ['write some notes', 'cancelled'],
              ['make the add test pass', 'finished'],
            ],
          );
          assert.deepEqual(server.mismatches, []);
          assert.equal(server.turnsServed, 4);
          assert.match(stderr, /ignored patchpilot\.channels\.telegram\.allowedChatIds/);

          child.kill('SIGTERM');
          assert.equal(await exited, 0, stderr);
        } catch (err) {
          throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- serve's stderr ---\n${stderr}`);
        } finally {
          child.kill('SIGKILL');
          await exited;
        }
      });
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('without a token, or with no allowed chat, serve refuses to start (exit 2)', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'pp-serve-home-'));
    try {
      await withRepo([], async (root, server) => {
        const run = (env: NodeJS.ProcessEnv) =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            const child = spawn(process.execPath, [CLI, 'serve', '--telegram', '--workspace', root, '--base-url', server.baseUrl, '--model', 'm'], {
              env: cliEnv({ XDG_CONFIG_HOME: home, ...env }),
              stdio: ['ignore', 'ignore', 'pipe'],
            });
            let stderr = '';
            child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
            child.on('close', (code) => resolve({ code, stderr }));
          });
        const noToken = await run({ PATCHPILOT_TELEGRAM_TOKEN: '' });
        assert.equal(noToken.code, 2);
        assert.match(noToken.stderr, /no bot token: set PATCHPILOT_TELEGRAM_TOKEN/);
        const noChats = await run({ PATCHPILOT_TELEGRAM_TOKEN: 'x:y' });
        assert.equal(noChats.code, 2);
        assert.match(noChats.stderr, /no chat may send goals/);
      });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
