// Attack: in an allowlisted group chat (`patchpilot serve --telegram`), a member who did not send the
// goal pressed Approve and the command ran; and the question collapsed the command's whitespace.
// Invariant: approvals come from people (the goal's sender, or the user's approverIds) and show the
// exact bytes (src/protocol/exactCommand.ts), in monospace. The built CLI against the fake Bot API.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeTelegramBotApi, type BotApiCall } from '../../../support/fakeTelegramBotApi';
import { parseExact } from '../../../../src/protocol/exactCommand';
import { CLI, call, cliEnv, skipWithoutBuild, withRepo } from '../../agent/support';

const GROUP = -500;
const SENDER = 21;
const MEMBER = 22;
const COMMAND = 'touch  approved.txt\necho\tdone';

const buttons = (c: BotApiCall): { text: string; callback_data: string }[] => c.body.reply_markup?.inline_keyboard?.flat() ?? [];

describe('channel approvals come from people and show exact bytes (built CLI, fake Bot API)', { skip: skipWithoutBuild }, () => {
  test("in an allowed group, another member's Approve answers nothing; the sender's runs the command shown exactly", async () => {
    const turns = [{ reply: { toolCalls: [call('run_command', { command: COMMAND })] } }, { reply: { toolCalls: [call('finish', { summary: 'ran it' })] } }];
    const api = await FakeTelegramBotApi.start();
    const home = mkdtempSync(path.join(os.tmpdir(), 'pp-approvers-home-'));
    mkdirSync(path.join(home, 'patchpilot'));
    writeFileSync(path.join(home, 'patchpilot', 'settings.json'), JSON.stringify({ 'patchpilot.channels.telegram.allowedChatIds': [String(GROUP)] }));
    try {
      await withRepo(turns, async (root, server) => {
        const env = cliEnv({ XDG_CONFIG_HOME: home, PATCHPILOT_TELEGRAM_TOKEN: api.token, PATCHPILOT_TELEGRAM_API_ROOT: api.apiRoot });
        const args = ['serve', '--telegram', '--workspace', root, '--approve', 'ask', '--base-url', server.baseUrl, '--model', 'scripted-model'];
        const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
        try {
          await api.waitForCall((c) => c.method === 'deleteWebhook', 30_000, 'the bot to start polling');
          api.sendText(GROUP, 'make a file', SENDER);
          const question = await api.waitForCall((c) => c.method === 'sendMessage' && buttons(c).length > 0, 60_000, 'the approval question');
          // The command is one monospace entity, and it reads back as the exact bytes.
          const [entity] = question.body.entities as { type: string; offset: number; length: number }[];
          assert.equal(entity?.type, 'code');
          const shown = (question.body.text as string).slice(entity.offset, entity.offset + entity.length);
          assert.equal(shown, 'touch␠␠approved.txt\\necho\\tdone');
          assert.equal(parseExact({ text: shown, escaped: true }), COMMAND);

          const approve = buttons(question).find((b) => b.text === 'Approve')!.callback_data;
          const member = api.press(GROUP, question.body.message_id, approve, MEMBER);
          const refused = await api.waitForCall((c) => c.method === 'answerCallbackQuery' && c.body.callback_query_id === member, 30_000, 'the member refused');
          assert.match(refused.body.text, /Only the person who sent this goal/);
          assert.equal(existsSync(path.join(root, 'approved.txt')), false, "a member's press ran nothing");

          api.press(GROUP, question.body.message_id, approve, SENDER);
          await api.waitForCall((c) => c.method === 'sendMessage' && /^finished: /.test(c.body.text ?? ''), 60_000, 'the summary');
          assert.equal(existsSync(path.join(root, 'approved.txt')), true, "the sender's press ran the command");
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
});
