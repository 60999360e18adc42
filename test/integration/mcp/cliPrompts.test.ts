// Through the built CLI with server-everything from npm and the scripted model: `mcp list` shows each
// server's tools, prompts and resources; a prompt command as the goal becomes the user's turn; a
// missing required argument without a terminal is a usage error naming it; an elicitation in a
// headless run is declined, and the run says so.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { EVERYTHING } from '../../support/mcp/servers';
import { call, events, runCli, skipWithoutBuild, withRepo } from '../agent/support';

const userState = mkdtempSync(path.join(tmpdir(), 'pp-cli-prompts-state-'));
const env = { PATCHPILOT_STATE_HOME: userState, PATCHPILOT_MCP_UNSANDBOXED: 'everything' };
const mcp = (args: string[]) => runCli(args, { command: 'mcp', env });

function configure(root: string): void {
  mkdirSync(path.join(root, '.vscode'), { recursive: true });
  const servers = { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], alwaysAllow: ['trigger-elicitation-request'] } };
  writeFileSync(path.join(root, '.vscode', 'settings.json'), JSON.stringify({ 'patchpilot.mcp.servers': servers }, null, 2));
}

const model = (server: { baseUrl: string }) => ['--base-url', server.baseUrl, '--model', 'scripted-model'];

describe('patchpilot with MCP prompts, resources and elicitation (built CLI, server-everything)', { skip: skipWithoutBuild }, () => {
  after(() => rmSync(userState, { recursive: true, force: true }));

  test('mcp list prints tools, prompts (as slash commands with their arguments) and resources; --json has them too', async () => {
    await withRepo([], async (root) => {
      configure(root);
      assert.equal((await mcp(['approve', 'everything', '--workspace', root, '--trust-workspace'])).code, 0);
      const text = await mcp(['list', '--workspace', root, '--trust-workspace']);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^ {4}tools: echo, .*get-sum/m);
      assert.match(text.stdout, /^ {6}\/mcp\.everything\.args-prompt city=\.\.\. \[state=\.\.\.\] {2}A prompt with two arguments/m);
      assert.match(text.stdout, /^ {6}\/mcp\.everything\.simple-prompt {2}/m);
      assert.match(text.stdout, /^ {6}demo:\/\/resource\/static\/document\/features\.md {2}features\.md \(text\/markdown\)$/m);
      const json = JSON.parse((await mcp(['list', '--workspace', root, '--trust-workspace', '--json'])).stdout) as {
        name: string;
        tools: string[];
        prompts: { name: string; arguments: { name: string; required: boolean }[] }[];
        resources: { uri: string }[];
      }[];
      assert.ok(json[0]!.tools.includes('trigger-elicitation-request'), 'the CLI declares elicitation: the server offers its elicitation tools');
      assert.deepEqual(json[0]!.prompts.find((p) => p.name === 'args-prompt')!.arguments, [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ]);
      assert.ok(json[0]!.resources.some((r) => r.uri === 'demo://resource/static/document/features.md'));
    });
  });

  test("a prompt command as the goal: the prompt's messages are the user's turn; a missing required argument headless is a usage error naming it", async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('finish', { summary: 'sunny' })] }, expect: { anyMessageContains: "What's weather in Paris, TX?" } },
    ];
    await withRepo(turns, async (root, server) => {
      configure(root);
      assert.equal((await mcp(['approve', 'everything', '--workspace', root, '--trust-workspace'])).code, 0);
      const r = await runCli(['--goal', '/mcp.everything.args-prompt city=Paris state=TX', '--workspace', root, '--trust-workspace', ...model(server)], {
        env,
      });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.match(r.stderr, /\/mcp\.everything\.args-prompt: the prompt's messages are the goal/);

      const missing = await runCli(['--goal', '/mcp.everything.args-prompt', '--workspace', root, '--trust-workspace', ...model(server)], { env });
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /\/mcp\.everything\.args-prompt needs city: give city=\.\.\. after the command/);
    });
  });

  test('an elicitation in a headless run is declined, and the run says so on stderr', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('mcp__everything__trigger-elicitation-request', {})] } },
      { reply: { toolCalls: [call('finish', { summary: 'declined' })] }, expect: { lastMessageContains: 'decline' } },
    ];
    await withRepo(turns, async (root, server) => {
      configure(root);
      assert.equal((await mcp(['approve', 'everything', '--workspace', root, '--trust-workspace'])).code, 0);
      const r = await runCli(['--goal', 'ask me', '--workspace', root, '--trust-workspace', ...model(server), '--json'], { env });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.match(r.stderr, /MCP server "everything" asked for input \(Please provide inputs for the following fields:\); declined: no terminal to ask on/);
      const finished = events(r.stdout).filter((e) => e.type === 'tool/finished') as unknown as { name: string; output: string }[];
      assert.match(finished[0]!.output, /decline/);
    });
  });
});
