// The container image's entry script (scripts/container/entry.sh) run outside a container, with the
// built CLI as `patchpilot` on PATH: with a working bubblewrap it runs quietly; with bwrap missing
// from PATH, or with bwrap unable to create namespaces (a real one: the script run inside a
// bubblewrap sandbox that forbids further user namespaces, as many container runtimes do), it says
// so plainly on stderr and still runs the CLI.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, skipWithoutBuild } from '../agent/support';

const ENTRY = path.resolve(__dirname, '../../../scripts/container/entry.sh');
const WARNING = 'patchpilot-entry:';
const CONSEQUENCE =
  'commands cannot be sandboxed: the command policy still decides, commands that run code from the workspace are asked about (refused when nobody can answer)';
const PROBE = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-net', '--unshare-pid', '--cap-drop', 'ALL', 'true'];
const bwrapWorks = spawnSync('bwrap', PROBE).status === 0;
const skipWithoutBwrap = bwrapWorks ? false : 'bubblewrap cannot create namespaces on this machine';
const version = (): string => (require('../../../package.json') as { version: string }).version;

describe('the container entry script', { skip: skipWithoutBuild }, () => {
  let bin: string;
  before(() => {
    // PATH holds only node and `patchpilot` (the built CLI, as install.sh links it): no bwrap.
    bin = mkdtempSync(path.join(os.tmpdir(), 'pp-entry-bin-'));
    symlinkSync(CLI, path.join(bin, 'patchpilot'));
    symlinkSync(process.execPath, path.join(bin, 'node'));
  });
  after(() => rmSync(bin, { recursive: true, force: true }));

  const entry = (args: string[], PATH: string) => spawnSync('/bin/sh', [ENTRY, ...args], { encoding: 'utf8', env: { HOME: os.tmpdir(), PATH } });

  test('with bubblewrap working, it runs patchpilot --version and run --help without a warning', { skip: skipWithoutBwrap }, () => {
    const PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
    const v = entry(['--version'], PATH);
    assert.equal(v.status, 0, v.stderr);
    assert.match(v.stdout, new RegExp(version().replace(/\./g, '\\.')));
    assert.ok(!v.stderr.includes(WARNING), v.stderr);
    const help = entry(['run', '--help'], PATH);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--approve/);
    assert.ok(!help.stderr.includes(WARNING), help.stderr);
  });

  test('with bwrap missing from PATH, it says so plainly on stderr and still runs the CLI', () => {
    const r = entry(['--version'], bin);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(version().replace(/\./g, '\\.')));
    assert.match(r.stderr, /bubblewrap \(bwrap\) is not installed here/);
    assert.ok(r.stderr.includes(CONSEQUENCE), r.stderr);
    const help = entry(['run', '--help'], bin);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--approve/);
  });

  test('with bwrap unable to create namespaces, it gives bwrap its reason and the fix, and still runs the CLI', { skip: skipWithoutBwrap }, () => {
    // An unprivileged user in a sandbox that forbids new user namespaces: bwrap fails as it does in a
    // container started without user namespaces allowed.
    const PATH = `${bin}${path.delimiter}${process.env.PATH ?? ''}`;
    const jail = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-user', '--uid', '1000', '--disable-userns'];
    const r = spawnSync('bwrap', [...jail, '--setenv', 'PATH', PATH, '--setenv', 'HOME', os.tmpdir(), '/bin/sh', ENTRY, '--version'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(version().replace(/\./g, '\\.')));
    assert.match(r.stderr, /bubblewrap does not work in this container \(bwrap: Creating new namespace failed[^)]*\)/);
    assert.ok(r.stderr.includes(CONSEQUENCE), r.stderr);
    assert.match(r.stderr, /start the container with user namespaces and an unmasked \/proc \(docs\/ci\.md, "Container"\)/);
  });
});
