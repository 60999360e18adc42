// Attack: a repository's .vscode/settings.json outranks the user (a step limit of 4 ran 10 steps,
// .cursorrules came back after the user turned it off, requests went to the workspace's model).
// Invariant: a workspace can tighten, never loosen or redirect. Every setting of the rule table
// (src/core/config/workspaceRules.ts) is tried through the built CLI's `config show --json`, with
// shapes generated from the table: the user's value in the user file, the workspace's in the
// workspace file; untrusted, a loosening value is ignored with a notice and tightening is honoured.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createArena, type Arena } from '../../agent/attacks/arena';
import { CLI, cliEnv } from '../../agent/attacks/agent';
import { validated, workspaceSettingShapes, type SettingShape } from '../../../support/workspaceSettingShapes';

interface Shown {
  settings: { key: string; value: unknown }[];
  ignored: { key: string; reason: string }[];
}

function show(arena: Arena, user: Record<string, unknown>, workspace: Record<string, unknown>, trusted: boolean): Shown {
  const userFile = path.join(arena.home, '.config', 'patchpilot', 'settings.json');
  mkdirSync(path.dirname(userFile), { recursive: true });
  writeFileSync(userFile, JSON.stringify(user));
  writeFileSync(path.join(arena.ws, '.vscode', 'settings.json'), JSON.stringify(workspace));
  const args = [CLI, 'config', 'show', '--json', '--workspace', arena.ws, ...(trusted ? ['--trust-workspace'] : [])];
  const r = spawnSync(process.execPath, args, { env: cliEnv(arena), encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Shown;
}

const valueOf = (shown: Shown, key: string) => shown.settings.find((s) => s.key === key)?.value;
const byKey = (shapes: SettingShape[], pick: (s: SettingShape) => unknown) =>
  Object.fromEntries(shapes.filter((s) => pick(s) !== undefined).map((s) => [s.key, pick(s)]));

describe('a workspace can tighten, never loosen or redirect (built CLI, every setting)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  const shapes = workspaceSettingShapes().filter((s) => s.rule !== 'free');

  test('untrusted: every loosening, raising or redirecting workspace value is ignored and named; the user value stays', () => {
    const arena = createArena();
    try {
      const shown = show(
        arena,
        byKey(shapes, (s) => s.user),
        byKey(shapes, (s) => s.workspace),
        false,
      );
      for (const shape of shapes) {
        assert.ok(
          shown.ignored.some((i) => i.key === shape.key),
          `${shape.key} = ${JSON.stringify(shape.workspace)} from the workspace is not reported as ignored`,
        );
        if (shape.key === 'patchpilot.hooks' || shape.key === 'patchpilot.mcp.servers') continue; // printed in a redacted form
        assert.deepEqual(valueOf(shown, shape.key), validated(shape.key, shape.user), `${shape.key}: the user's value`);
      }
    } finally {
      arena.cleanup();
    }
  });

  test('untrusted: every tightening workspace value (a lower limit, a feature off) is honoured', () => {
    const arena = createArena();
    const tightening = shapes.filter((s) => s.tighten);
    try {
      const shown = show(
        arena,
        byKey(tightening, (s) => s.tighten!.user),
        byKey(tightening, (s) => s.tighten!.workspace),
        false,
      );
      assert.deepEqual(shown.ignored, []);
      for (const shape of tightening) assert.deepEqual(valueOf(shown, shape.key), validated(shape.key, shape.tighten!.workspace), shape.key);
    } finally {
      arena.cleanup();
    }
  });

  test('trusted: the workspace may set every setting but the user-only ones', () => {
    const arena = createArena();
    try {
      const shown = show(
        arena,
        byKey(shapes, (s) => s.user),
        byKey(shapes, (s) => s.workspace),
        true,
      );
      const ignored = shown.ignored.map((i) => i.key).sort();
      assert.deepEqual(
        ignored,
        shapes
          .filter((s) => s.rule === 'user')
          .map((s) => s.key)
          .sort(),
      );
    } finally {
      arena.cleanup();
    }
  });
});
