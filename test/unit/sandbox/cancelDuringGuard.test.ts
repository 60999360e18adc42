import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCommand } from '../../../src/core/sandbox';

// A cancel that lands while the guard scans the workspace (before the command's abort listener
// exists: on a loaded machine the scan takes a while) still ends the command, not its timeout.
test('runCommand: a cancel during the guard scan ends the command at once', async () => {
  const ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-cancel-guard-')));
  try {
    const cancel = new AbortController();
    const started = Date.now();
    const result = await runCommand({
      command: 'sleep 30',
      cwd: ws,
      workspaceRoot: ws,
      signal: cancel.signal,
      killGraceMs: 200,
      guard: {
        // The scan asks for the ignore rules: the user presses Stop right then.
        ignored: () => {
          cancel.abort();
          return () => false;
        },
      },
    });
    assert.equal(result.cancelled, true);
    assert.ok(Date.now() - started < 10_000, `the command ran ${Date.now() - started} ms`);
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
});
