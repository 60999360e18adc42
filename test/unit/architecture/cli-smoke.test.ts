// The built CLI binary starts, prints help, and uses the documented exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const cli = path.resolve(__dirname, '../../../dist/cli.js');

test('patchpilot --help exits 0 and names the commands', () => {
  const r = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /Usage:/);
});

test('an unknown command is a usage error (exit 2)', () => {
  const r = spawnSync(process.execPath, [cli, 'no-such-command'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown command/);
});
