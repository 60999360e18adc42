// MCP results must not carry what file tools refuse, end to end through the built CLI: the real
// @modelcontextprotocol/server-filesystem, approved, with its read tools on alwaysAllow, asked for
// the `.patchpilotignore`d `.env` (by path, through a hard link, through a copy the agent made
// earlier, inside an ignored folder, in a batch read and a search). In the sandbox the server sees
// masked files; exempted from it (PATCHPILOT_MCP_UNSANDBOXED) it reads the bytes, and the call
// filters (ignored arguments ask, results redacted like command output) must hold on their own.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '../../../src/core/sandbox';
import { FILESYSTEM } from '../../support/mcp/servers';
import { createArena, type Arena } from './attacks/arena';
import { CLI, call, cliEnv, finish, runAgent, turn } from './attacks/agent';

const sandbox = probeSandbox();
const READ_TOOLS = ['read_text_file', 'read_file', 'read_multiple_files', 'search_files', 'list_directory', 'get_file_info'];

function filesArena(): Arena {
  const arena = createArena({
    settings: { 'patchpilot.mcp.servers': { files: { command: process.execPath, args: [FILESYSTEM, '.'], alwaysAllow: READ_TOOLS } } },
    files: { '.patchpilotignore': '.env\nprivate/\n' },
  });
  // Other names for the same bytes: a hard link made in an earlier run, a copy the agent made, an ignored folder.
  linkSync(path.join(arena.ws, '.env'), path.join(arena.ws, 'notes.txt'));
  writeFileSync(path.join(arena.ws, 'backup.txt'), `# kept for later\nAPI_TOKEN=${arena.secrets.env}\n`);
  mkdirSync(path.join(arena.ws, 'private'));
  writeFileSync(path.join(arena.ws, 'private', 'token.txt'), `token: ${arena.secrets.env}-private\n`);
  return arena;
}

async function attack(env: NodeJS.ProcessEnv) {
  const arena = filesArena();
  const approved = execFileSync(process.execPath, [CLI, 'mcp', 'approve', 'files', '--workspace', arena.ws, '--trust-workspace'], {
    env: cliEnv(arena, env),
    encoding: 'utf8',
  });
  assert.match(approved, /approved files/);
  const at = (rel: string) => path.join(arena.ws, rel);
  const turns = [
    turn(call('env', 'mcp__files__read_text_file', { path: at('.env') })),
    turn(call('env-rel', 'mcp__files__read_text_file', { path: '.env' })),
    turn(call('link', 'mcp__files__read_text_file', { path: at('notes.txt') })),
    turn(call('copy', 'mcp__files__read_text_file', { path: at('backup.txt') })),
    turn(call('private', 'mcp__files__read_text_file', { path: at('private/token.txt') })),
    turn(call('batch', 'mcp__files__read_multiple_files', { paths: [at('README.md'), at('notes.txt')] })),
    turn(call('readme', 'mcp__files__read_text_file', { path: at('README.md') })),
    finish(),
  ];
  const run = await runAgent(arena, turns, { args: ['--trust-workspace'], env });
  return { arena, run };
}

describe('attacks: MCP results carry no ignored file (built CLI, server-filesystem)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  for (const variant of ['sandboxed', 'exempted'] as const) {
    test(`server ${variant === 'sandboxed' ? (sandbox.available ? 'in the sandbox' : '(no sandbox here)') : 'exempted from the sandbox'}: the secret never reaches the model`, async () => {
      const { arena, run } = await attack(variant === 'exempted' ? { PATCHPILOT_MCP_UNSANDBOXED: 'files' } : {});
      try {
        assert.equal(run.code, 0, run.stderr);
        assert.ok(
          !run.allModelInput.includes(arena.secrets.env),
          `the secret reached the model:\n${[...run.results].map(([k, v]) => `${k}: ${v}`).join('\n')}`,
        );
        // Naming an ignored path asks even for an always-allowed tool; unattended, it is refused.
        for (const id of ['env', 'env-rel', 'private'])
          assert.match(run.results.get(id) ?? '', /not done, nobody could approve it: MCP files\.read_text_file.*hides from the agent/s, id);
        // Other names of the bytes reach the server; what comes back is redacted like command output.
        for (const id of ['link', 'copy', 'batch']) assert.doesNotMatch(run.results.get(id) ?? '', /PP-ENV-SECRET/, id);
        assert.match(run.results.get('copy') ?? '', /\[redacted: content of \.env, which \.patchpilotignore hides\]/);
        assert.match(run.results.get('readme') ?? '', /# victim/, 'an ordinary file reads as before');
        assert.ok(
          run.policy.some((p) => p.rule === 'ask:mcp-ignored-path'),
          'the question is in the audit trail',
        );
      } finally {
        arena.cleanup();
      }
    });
  }
});
