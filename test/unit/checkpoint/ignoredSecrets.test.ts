// Secrets stay where the user put them: a `.env` that .patchpilotignore hides is never copied into
// the checkpoint store (readable in the workspace), whichever name reaches its bytes: the file
// itself, or a hard link the agent made at an unignored name (before a step, during it, or both).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Checkpointer } from '../../../src/core/checkpoint';
import { DEFAULT_SETTINGS } from '../../../src/core/config/settings';
import { createChangeFeed, createCheckpointer } from '../../../src/core/session/checkpointWiring';
import { tempWorkspace } from '../tools/helpers';

const SECRET = 'API_TOKEN=pp-checkpoint-secret-0123456789';

/** Every file under the store, read: none may hold the secret. */
function storeHolds(dir: string, needle: string): boolean {
  if (!existsSync(dir)) return false;
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory() ? storeHolds(p, needle) : readFileSync(p).includes(needle)) return true;
  }
  return false;
}

describe('checkpoints keep no ignored secret', () => {
  for (const watch of [true, false]) {
    for (const when of ['before the step', 'during the step'] as const) {
      test(`a hard link to an ignored .env made ${when} is reported, not copied (${watch ? 'change feed' : 'walk'})`, async () => {
        const ws = tempWorkspace({ '.env': `${SECRET}\n`, 'a.txt': 'a\n' });
        const cp = new Checkpointer({
          root: ws.root,
          stateDir: path.join(ws.root, '.patchpilot'),
          maxBytes: 1024 ** 3,
          ignored: () => (rel) => rel === '.env',
          watch,
        });
        try {
          await (await cp.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace' }))!.end();
          if (when === 'before the step') linkSync(path.join(ws.root, '.env'), path.join(ws.root, 'notes.txt'));
          const open = await cp.begin({ runId: 'r', step: 2, tool: 'run_command', scope: 'workspace' });
          if (when === 'during the step') linkSync(path.join(ws.root, '.env'), path.join(ws.root, 'notes.txt'));
          writeFileSync(path.join(ws.root, 'a.txt'), 'A\n');
          const record = await open!.end();
          assert.equal(storeHolds(path.join(ws.root, '.patchpilot'), 'pp-checkpoint-secret'), false, 'the secret was copied into the checkpoint store');
          if (when === 'during the step') assert.ok(record?.uncaptured?.includes('notes.txt') ?? false, JSON.stringify(record));
        } finally {
          cp.dispose();
          ws.cleanup();
        }
      });
    }
  }
});

// The `.env` itself, listed in a real .patchpilotignore (the rules as the session builds them,
// checkpointWiring.ts), changed by a step of every scope: a workspace-wide step (a command) and a
// step whose tool names the paths it writes, the `.env` among them.
describe('a .env listed in .patchpilotignore is never copied into the checkpoint store', () => {
  const changes = {
    rewritten: (abs: string) => writeFileSync(abs, `${SECRET}-changed\n`),
    removed: (abs: string) => rmSync(abs),
  };
  for (const [change, apply] of Object.entries(changes)) {
    for (const scope of ['workspace', ['.env', 'a.txt']] as const) {
      const scopeName = scope === 'workspace' ? 'a workspace-wide step' : 'a step naming .env among its paths';
      for (const watch of [true, false]) {
        test(`${change} by ${scopeName} (${watch ? 'change feed' : 'walk'})`, async () => {
          const ws = tempWorkspace({ '.patchpilotignore': '.env\n', '.env': `${SECRET}\n`, 'a.txt': 'a\n' });
          const settings = { ...DEFAULT_SETTINGS, checkpoints: { ...DEFAULT_SETTINGS.checkpoints, enabled: true } };
          const feed = watch ? createChangeFeed(ws.root) : undefined;
          const cp = createCheckpointer(ws.root, settings, undefined, feed)!;
          try {
            await (await cp.begin({ runId: 'r', step: 1, tool: 'run_command', scope: 'workspace' }))!.end();
            const open = await cp.begin({ runId: 'r', step: 2, tool: 'write_file', scope: scope === 'workspace' ? scope : [...scope] });
            apply(path.join(ws.root, '.env'));
            writeFileSync(path.join(ws.root, 'a.txt'), 'A\n');
            await open!.end();
            assert.equal(storeHolds(path.join(ws.root, '.patchpilot'), 'pp-checkpoint-secret'), false, 'the secret was copied into the checkpoint store');
          } finally {
            cp.dispose();
            feed?.close();
            ws.cleanup();
          }
        });
      }
    }
  }
});
