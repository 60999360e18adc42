// In a workspace PatchPilot has never used, the agent's first command replaces the state folder
// (.patchpilot) with a link to an outside folder before the history's first save. The folder exists
// as a real folder before any command runs, so the link cannot be made (sandbox) and the history is
// never written through one.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { probeSandbox } from '../../../src/core/sandbox';
import { createArena } from './attacks/arena';
import { CLI, call, finish, runAgent, turn } from './attacks/agent';
import { existsSync } from 'node:fs';

const sandbox = probeSandbox();

describe('attacks: the agent redirects its own state folder (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test(`a fresh workspace: a command links .patchpilot outside before the first save${sandbox.available ? '' : ' (no sandbox here: the command asks)'}`, async () => {
    const arena = createArena();
    rmSync(path.join(arena.ws, '.patchpilot'), { recursive: true, force: true });
    try {
      const link = `require('fs').symlinkSync('${arena.outside}', '.patchpilot'); console.log('linked')`;
      const run = await runAgent(
        arena,
        [turn(call('link', 'run_command', { command: `node -e "${link}"` })), turn(call('note', 'write_file', { path: 'notes.md', content: 'x\n' })), finish()],
        { mode: 'auto' },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.results.get('link') ?? '', /^linked$/m, 'the link was not made');
      assert.ok(lstatSync(path.join(arena.ws, '.patchpilot')).isDirectory(), '.patchpilot is still a real folder');
      assert.deepEqual(readdirSync(arena.outside).sort(), ['keep.txt'], 'nothing of the history landed outside');
      assert.ok(readdirSync(path.join(arena.ws, '.patchpilot')).includes('history.db'), 'the history was saved in the workspace');
    } finally {
      arena.cleanup();
    }
  });
});
