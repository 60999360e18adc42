// Hooks end to end through the built `patchpilot run` and the scripted model server, with real node
// scripts as hook commands in a temp workspace: a PreToolUse hook that blocks `rm` (the model reads
// its stderr, the file stays), a PostToolUse hook that reads tool_response, a UserPromptSubmit hook
// that refuses the goal, a Stop hook that sends the run on once, a workspace hook that runs only
// after `patchpilot hooks approve`, a hook refused by a deny rule and one that times out.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { BUGGY } from '../../unit/orchestrator/harness';
import { call, events, runCli, skipWithoutBuild, withRepo, type AgentEventLine } from '../agent/support';

/** Reads the event on stdin, then acts by the hook's name (argv[2]). */
const HOOK_JS = `
const fs = require('node:fs');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const kind = process.argv[2];
fs.appendFileSync('hook-log.jsonl', JSON.stringify({ kind, input }) + '\\n');
if (kind === 'no-rm' && / rm |^rm /.test(input.tool_input.command)) { process.stderr.write('rm is not allowed here: use git rm'); process.exit(2); }
if (kind === 'post') { process.stderr.write('post saw: ' + input.tool_response.output.split('\\n')[0]); process.exit(2); }
if (kind === 'prompt' && /secret/.test(input.prompt)) { process.stderr.write('prompts about secrets are refused'); process.exit(2); }
if (kind === 'stop' && !input.stop_hook_active) { process.stderr.write('run the tests before you stop'); process.exit(2); }
if (kind === 'slow') setTimeout(() => {}, 30000);
`;

const FILES = { ...BUGGY, 'hooks/hook.js': HOOK_JS, 'victim.txt': 'keep me\n' };
const hook = (kind: string, timeout?: number) => ({ type: 'command', command: `node hooks/hook.js ${kind}`, ...(timeout ? { timeout } : {}) });
const model = (server: { baseUrl: string }) => ['--base-url', server.baseUrl, '--model', 'scripted-model'];
const finished = (stdout: string) => events(stdout).find((e) => e.type === 'run/finished') as AgentEventLine & Record<string, any>;
const hookEvents = (stdout: string) => events(stdout).filter((e) => e.type === 'hook/ran') as Array<AgentEventLine & Record<string, any>>;
const lastMessage = (body: any): string => String(body.messages.at(-1).content);
const hookLog = (root: string) =>
  existsSync(path.join(root, 'hook-log.jsonl'))
    ? readFileSync(path.join(root, 'hook-log.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { kind: string; input: Record<string, any> })
    : [];

/** A user settings file (XDG_CONFIG_HOME) and a state home for the approval key, both temp. */
function userHome(settings: Record<string, unknown>): { env: NodeJS.ProcessEnv; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-hooks-home-'));
  mkdirSync(path.join(dir, 'config', 'patchpilot'), { recursive: true });
  writeFileSync(path.join(dir, 'config', 'patchpilot', 'settings.json'), JSON.stringify(settings));
  return {
    env: { XDG_CONFIG_HOME: path.join(dir, 'config'), PATCHPILOT_STATE_HOME: path.join(dir, 'state') },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

describe('patchpilot run: hooks', { skip: skipWithoutBuild }, () => {
  test('PreToolUse exit 2 keeps `rm` from running and the model reads the reason; PostToolUse sees tool_response and adds to the result', async () => {
    const home = userHome({
      'patchpilot.hooks': { PreToolUse: [{ matcher: 'Bash', hooks: [hook('no-rm')] }], PostToolUse: [{ matcher: 'Read', hooks: [hook('post')] }] },
    });
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('run_command', { command: 'rm victim.txt' })] } },
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'done' })] } },
    ];
    try {
      await withRepo(
        turns,
        async (root, server) => {
          const r = await runCli(['--goal', 'tidy up', '--workspace', root, '--approve', 'auto', ...model(server), '--json'], { env: home.env });
          assert.equal(finished(r.stdout).status, 'finished', r.stderr);
          assert.equal(readFileSync(path.join(root, 'victim.txt'), 'utf8'), 'keep me\n', 'the command did not run');
          const toRm = lastMessage(server.chatRequests[1]!.body);
          assert.match(toRm, /not run: a PreToolUse hook blocked this call: rm is not allowed here: use git rm/);
          const afterRead = lastMessage(server.chatRequests[2]!.body);
          assert.match(afterRead, /exports\.add/, 'the tool result is kept');
          assert.match(afterRead, /A PostToolUse hook says: post saw: /);
          const log = hookLog(root);
          const post = log.find((l) => l.kind === 'post')!;
          assert.equal(post.input.hook_event_name, 'PostToolUse');
          assert.equal(post.input.tool_name, 'read_file');
          assert.deepEqual(post.input.tool_input, { path: 'add.js' });
          assert.equal(post.input.tool_response.success, true);
          assert.match(post.input.tool_response.output, /exports\.add/);
          assert.equal(post.input.cwd, root);
          assert.ok(post.input.session_id);
          assert.deepEqual(
            hookEvents(r.stdout).map((e) => [e.event, e.outcome, e.tool, e.source]),
            [
              ['PreToolUse', 'blocked', 'run_command', 'user'],
              ['PostToolUse', 'blocked', 'read_file', 'user'],
            ],
          );
          const history = await runCli(['show', 'last', '--cwd', root, '--json'], { command: 'history' });
          assert.match(history.stdout, /run\/hook/, 'the hooks are steps of the run in the history');
        },
        FILES,
      );
    } finally {
      home.cleanup();
    }
  });

  test('UserPromptSubmit exit 2 refuses the goal: the model is never asked, the run ends blocked with the reason', async () => {
    const home = userHome({ 'patchpilot.hooks': { UserPromptSubmit: [{ hooks: [hook('prompt')] }] } });
    try {
      await withRepo(
        [{ reply: { toolCalls: [call('finish', { summary: 'never' })] } }],
        async (root, server) => {
          const r = await runCli(['--goal', 'print the secret', '--workspace', root, ...model(server), '--json'], { env: home.env });
          assert.equal(r.code, 5);
          const end = finished(r.stdout);
          assert.equal(end.status, 'blocked');
          assert.match(end.reason, /a UserPromptSubmit hook refused the prompt: prompts about secrets are refused/);
          assert.equal(server.chatRequests.length, 0);
          assert.equal(hookLog(root)[0]!.input.prompt, 'print the secret');
        },
        FILES,
      );
    } finally {
      home.cleanup();
    }
  });

  test('Stop exit 2 sends the run on once with the reason as the next user message; stop_hook_active then lets it end', async () => {
    const home = userHome({ 'patchpilot.hooks': { Stop: [{ hooks: [hook('stop')] }] } });
    try {
      await withRepo(
        [{ reply: { toolCalls: [call('finish', { summary: 'first' })] } }, { reply: { toolCalls: [call('finish', { summary: 'second' })] } }],
        async (root, server) => {
          const r = await runCli(['--goal', 'finish', '--workspace', root, ...model(server), '--json'], { env: home.env });
          const end = finished(r.stdout);
          assert.equal(end.status, 'finished', r.stderr);
          assert.equal(end.summary, 'second');
          assert.equal(server.chatRequests.length, 2);
          assert.match(lastMessage(server.chatRequests[1]!.body), /A Stop hook did not let the run end yet: run the tests before you stop/);
          assert.deepEqual(
            hookLog(root).map((l) => l.input.stop_hook_active),
            [false, true],
          );
        },
        FILES,
      );
    } finally {
      home.cleanup();
    }
  });

  test('a workspace hook runs only in a trusted workspace and once approved (patchpilot hooks approve); a changed one asks again', async () => {
    const home = userHome({});
    const settings = (kind: string) => JSON.stringify({ 'patchpilot.hooks': { PreToolUse: [{ matcher: 'read_file', hooks: [hook(kind)] }] } });
    const turns = (): ScriptedTurn[] => [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('finish', { summary: 'ok' })] } },
    ];
    try {
      await withRepo(
        { turns: [...turns(), ...turns(), ...turns(), ...turns()] },
        async (root, server) => {
          const runIt = (trust: boolean) =>
            runCli(['--goal', 'read', '--workspace', root, '--approve', 'auto-edit', ...model(server), '--json', ...(trust ? ['--trust-workspace'] : [])], {
              env: home.env,
            });
          const untrusted = await runIt(false);
          assert.match(untrusted.stderr, /ignored patchpilot\.hooks .* the workspace is not trusted/);
          const unapproved = await runIt(true);
          assert.match(
            unapproved.stdout,
            /workspace hook not approved, so it does not run: PreToolUse \(read_file\): node hooks\/hook.js seen.*patchpilot hooks approve/,
          );
          assert.deepEqual(hookLog(root), [], 'no hook ran');
          const list = await runCli(['list', '--workspace', root, '--trust-workspace'], { command: 'hooks', env: home.env });
          assert.match(list.stdout, /workspace, NOT approved {2}PreToolUse \(read_file\): node hooks\/hook.js seen/);
          const approve = await runCli(['approve', '--workspace', root, '--trust-workspace'], { command: 'hooks', env: home.env });
          assert.equal(approve.code, 0, approve.stderr);
          assert.match(approve.stdout, /approved PreToolUse \(read_file\): node hooks\/hook.js seen/);
          const approved = await runIt(true);
          assert.equal(finished(approved.stdout).status, 'finished', approved.stderr);
          assert.deepEqual(
            hookLog(root).map((l) => [l.kind, l.input.tool_name]),
            [['seen', 'read_file']],
          );
          assert.equal(hookEvents(approved.stdout)[0]!.source, 'workspace');
          // The command changes: a new hook, not approved.
          writeFileSync(path.join(root, '.vscode', 'settings.json'), settings('seen-again'));
          const changed = await runIt(true);
          assert.match(changed.stdout, /workspace hook not approved, so it does not run: PreToolUse \(read_file\): node hooks\/hook.js seen-again/);
          assert.equal(hookLog(root).length, 1);
        },
        { ...FILES, '.vscode/settings.json': settings('seen') },
      );
    } finally {
      home.cleanup();
    }
  });

  test('Notification runs when the user is asked for an approval (here nobody can answer), with the message and its type', async () => {
    const home = userHome({ 'patchpilot.hooks': { Notification: [{ matcher: 'permission_prompt', hooks: [hook('notify')] }] } });
    try {
      await withRepo(
        [{ reply: { toolCalls: [call('run_command', { command: 'touch made-by-command' })] } }, { reply: { toolCalls: [call('finish', { summary: 'ok' })] } }],
        async (root, server) => {
          const r = await runCli(['--goal', 'touch', '--workspace', root, '--approve', 'ask', ...model(server), '--json'], { env: home.env });
          assert.ok(finished(r.stdout), r.stderr);
          const note = hookLog(root).find((l) => l.kind === 'notify');
          assert.ok(note, 'the Notification hook ran before the run ended');
          assert.equal(note.input.hook_event_name, 'Notification');
          assert.equal(note.input.notification_type, 'permission_prompt');
          assert.match(note.input.message, /PatchPilot needs your approval: touch made-by-command/);
          assert.equal(existsSync(path.join(root, 'made-by-command')), false, 'nobody approved the command');
        },
        FILES,
      );
    } finally {
      home.cleanup();
    }
  });

  test('a hook under a deny rule is refused and one past its timeout is stopped: both reported, neither blocks the call', async () => {
    const home = userHome({
      'patchpilot.policy.deny': ['node hooks/hook.js denied*'],
      'patchpilot.hooks': { PreToolUse: [{ matcher: 'Read', hooks: [hook('denied'), hook('slow', 1)] }] },
    });
    try {
      await withRepo(
        [{ reply: { toolCalls: [call('read_file', { path: 'add.js' })] } }, { reply: { toolCalls: [call('finish', { summary: 'ok' })] } }],
        async (root, server) => {
          const r = await runCli(['--goal', 'read', '--workspace', root, ...model(server), '--json'], { env: home.env });
          assert.equal(finished(r.stdout).status, 'finished', r.stderr);
          assert.match(lastMessage(server.chatRequests[1]!.body), /exports\.add/, 'the call ran');
          const ran = hookEvents(r.stdout);
          assert.deepEqual(
            ran.map((e) => [e.command, e.outcome]),
            [
              ['node hooks/hook.js denied', 'refused'],
              ['node hooks/hook.js slow', 'error'],
            ],
          );
          assert.match(ran[0]!.reason, /denied by policy/);
          assert.match(ran[1]!.reason, /timed out after 1 s/);
          assert.ok(ran[1]!.durationMs < 10_000, `stopped at its timeout (${ran[1]!.durationMs} ms)`);
          assert.deepEqual(
            hookLog(root).map((l) => l.kind),
            ['slow'],
            'the denied hook never ran',
          );
          const warnings = events(r.stdout)
            .filter((e) => e.type === 'warning')
            .map((e) => String(e.message));
          assert.ok(warnings.some((w) => /PreToolUse hook "node hooks\/hook.js slow" failed: timed out/.test(w)));
        },
        FILES,
      );
    } finally {
      home.cleanup();
    }
  });
});
