// patchpilot.hooks as Claude Code writes it: parsing (with every problem named), the trust rule
// (a workspace's hooks are dropped when untrusted, tagged fromWorkspace when trusted), matchers with
// both tool names, and what a hook's exit and stdout say.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseHooks } from '../../../src/core/config/hooks';
import { resolveSettings } from '../../../src/core/config/resolve';
import { hooksFor, matches } from '../../../src/core/hooks/matcher';
import { decisionOf, verdictOf } from '../../../src/core/hooks/hookVerdict';
import { hookInput } from '../../../src/core/hooks/hookInput';

const CLAUDE_BLOCK = { PreToolUse: [{ matcher: 'Bash|Edit', hooks: [{ type: 'command', command: './check.sh', timeout: 5 }] }] };

describe('patchpilot.hooks: parsing', () => {
  test("Claude Code's shape parses into one entry per command, with the default timeout of 60 s", () => {
    const r = parseHooks(
      {
        ...CLAUDE_BLOCK,
        Stop: [
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: 'echo a' },
              { type: 'command', command: 'echo b' },
            ],
          },
        ],
      },
      false,
    );
    assert.ok(r.ok);
    assert.deepEqual(r.value, [
      { event: 'PreToolUse', matcher: 'Bash|Edit', command: './check.sh', timeoutSeconds: 5, fromWorkspace: false },
      { event: 'Stop', matcher: '*', command: 'echo a', timeoutSeconds: 60, fromWorkspace: false },
      { event: 'Stop', matcher: '*', command: 'echo b', timeoutSeconds: 60, fromWorkspace: false },
    ]);
  });

  test('bad input: every problem at once, each naming the event and the entry', () => {
    const r = parseHooks(
      {
        PreToolUs: [],
        PostToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'x' }] }],
        Stop: [{ hooks: [{ type: 'prompt', command: 'x' }] }, { hooks: [] }],
        Notification: [{ hooks: [{ type: 'command', command: 'x', timeout: -1 }] }],
      },
      false,
    );
    assert.equal(r.ok, false);
    const message = (r as { message: string }).message;
    assert.match(message, /unknown event "PreToolUs"/);
    assert.match(message, /PostToolUse\[0\]: "matcher" is not a valid regular expression/);
    assert.match(message, /Stop\[0\]: hooks\[0\]: "type" must be "command"/);
    assert.match(message, /Stop\[1\]: "hooks" must be a non-empty array/);
    assert.match(message, /Notification\[0\]: hooks\[0\]: "timeout" must be a positive number/);
    assert.equal(parseHooks([], false).ok, false);
  });

  test("the resolver: user and workspace hooks add up, the workspace's tagged; an untrusted workspace's are ignored", () => {
    const layers = (trusted: boolean) =>
      resolveSettings({
        trusted,
        layers: [
          { scope: 'user', origin: 'user settings', values: { 'patchpilot.hooks': { Stop: [{ hooks: [{ type: 'command', command: 'mine' }] }] } } },
          { scope: 'workspace', origin: '.vscode/settings.json', values: { 'patchpilot.hooks': CLAUDE_BLOCK } },
        ],
      });
    const trusted = layers(true);
    assert.deepEqual(
      trusted.settings.hooks.map((h) => [h.command, h.fromWorkspace]),
      [
        ['mine', false],
        ['./check.sh', true],
      ],
    );
    const untrusted = layers(false);
    assert.deepEqual(
      untrusted.settings.hooks.map((h) => h.command),
      ['mine'],
    );
    assert.deepEqual(
      untrusted.ignored.map((i) => [i.key, i.reason]),
      [['patchpilot.hooks', 'the workspace is not trusted']],
    );
  });
});

describe('hook matchers', () => {
  const cases: Array<[string | undefined, string[], boolean]> = [
    [undefined, ['run_command', 'Bash'], true],
    ['', ['read_file'], true],
    ['*', ['read_file'], true],
    ['Bash', ['run_command', 'Bash'], true],
    ['Bash', ['run_command'], false],
    ['Bash', ['BashOutput'], false],
    ['Bash|Edit', ['propose_patch', 'Edit'], true],
    ['run_command', ['run_command', 'Bash'], true],
    ['mcp__github__.*', ['mcp__github__create_issue'], true],
    ['mcp__github__.*', ['mcp__files__read'], false],
    ['(', ['x'], false],
  ];
  for (const [matcher, names, expected] of cases)
    test(`${JSON.stringify(matcher)} on ${names.join('/')}: ${expected}`, () => assert.equal(matches(matcher, names), expected));

  test('events without a subject (Stop, UserPromptSubmit) take every hook of the event, whatever its matcher', () => {
    const parsed = parseHooks({ Stop: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 's' }] }], PreToolUse: CLAUDE_BLOCK.PreToolUse }, false);
    assert.ok(parsed.ok);
    assert.deepEqual(
      hooksFor(parsed.value, 'Stop').map((h) => h.command),
      ['s'],
    );
    assert.deepEqual(
      hooksFor(parsed.value, 'PreToolUse', ['read_file', 'Read']).map((h) => h.command),
      [],
    );
  });
});

describe("what a hook's exit says", () => {
  const exit = (exitCode: number | null, stdout = '', stderr = '', timedOut = false) => verdictOf({ exitCode, stdout, stderr, timedOut, timeoutSeconds: 3 });
  test('0 goes on; 2 blocks with stderr; anything else is an error that does not block; a timeout is an error', () => {
    assert.deepEqual(exit(0, 'plain text'), { kind: 'ok' });
    assert.deepEqual(exit(2, '', 'no rm here\n'), { kind: 'block', reason: 'no rm here' });
    assert.deepEqual(exit(2), { kind: 'block', reason: 'blocked by a hook (it gave no reason on stderr)' });
    assert.deepEqual(exit(1, '', 'boom'), { kind: 'error', reason: 'exit 1: boom' });
    assert.deepEqual(exit(null, '', '', true), { kind: 'error', reason: 'timed out after 3 s (stopped)' });
  });

  test("JSON on stdout: Claude Code's decision, permissionDecision and continue; anything else goes on", () => {
    assert.deepEqual(decisionOf('{"decision":"block","reason":"tests first"}'), { kind: 'block', reason: 'tests first' });
    assert.deepEqual(decisionOf('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'), {
      kind: 'block',
      reason: 'no',
    });
    assert.deepEqual(decisionOf('{"continue":false,"stopReason":"enough"}'), { kind: 'block', reason: 'enough' });
    assert.deepEqual(decisionOf('{"decision":"approve"}'), { kind: 'ok' });
    assert.deepEqual(decisionOf('{not json'), { kind: 'ok' });
  });

  test("the input carries Claude Code's field names", () => {
    const session = { sessionId: 'run-1', cwd: '/w', mode: 'auto-edit' as const };
    assert.deepEqual(
      hookInput(session, { event: 'PostToolUse', tool: { name: 'run_command', input: { command: 'ls' }, callId: 'c1' }, response: { ok: true, output: 'a' } }),
      {
        session_id: 'run-1',
        cwd: '/w',
        permission_mode: 'acceptEdits',
        hook_event_name: 'PostToolUse',
        tool_name: 'run_command',
        tool_input: { command: 'ls' },
        tool_use_id: 'c1',
        tool_response: { success: true, output: 'a' },
      },
    );
    assert.equal(hookInput(session, { event: 'UserPromptSubmit', prompt: 'fix it' }).prompt, 'fix it');
    assert.equal(hookInput(session, { event: 'Stop', stopHookActive: true }).stop_hook_active, true);
  });
});
