// PatchPilot's own git calls (listing, the run-start snapshot, auto-commit) run outside the
// sandbox, so repository config planted by the agent must never execute through them. Each planted
// program touches a marker in a folder outside the workspace; after listWorkspaceFiles, snapshotGit
// and commitPaths no marker may exist, and normal behaviour must still work.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commitPaths, listWorkspaceFiles, snapshotGit } from '../../../src/core/git';
import { SafeGit } from '../../../src/core/git/safeGit';

interface Lab {
  ws: string;
  markers: string;
  /** A shell command that records `name` as having run (and passes stdin through, for filters). */
  evil(name: string): string;
  ran(): string[];
  git(...args: string[]): string;
  cleanup(): void;
}

function lab(options: { repo?: boolean; identity?: boolean } = {}): Lab {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'pp-gitattack-')));
  const ws = path.join(base, 'ws');
  const markers = path.join(base, 'markers');
  mkdirSync(ws);
  mkdirSync(markers);
  const script = path.join(base, 'evil.sh');
  // Filters pass their input through; nothing else reads stdin (an fsmonitor hook's is never closed).
  writeFileSync(script, `#!/bin/sh\ntouch "${markers}/$1"\ncase "$1" in filter-*) exec cat ;; esac\nexit 0\n`);
  chmodSync(script, 0o755);
  writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  writeFileSync(path.join(ws, 'b.txt'), 'b\n');
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: base, GIT_CONFIG_NOSYSTEM: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('GIT_') && k !== 'GIT_CONFIG_NOSYSTEM') delete env[k];
  const git = (...args: string[]) => execFileSync('git', args, { cwd: ws, encoding: 'utf8', env, stdio: 'pipe' }).trim();
  if (options.repo !== false) {
    git('init', '-q', '-b', 'main');
    if (options.identity !== false) {
      git('config', 'user.name', 'Lab User');
      git('config', 'user.email', 'lab@example.invalid');
    }
    git('add', '-A');
    git('-c', 'user.name=Setup', '-c', 'user.email=setup@example.invalid', 'commit', '-q', '-m', 'initial');
  }
  return {
    ws,
    markers,
    evil: (name) => `${script} ${name}`,
    ran: () => readdirSync(markers).sort(),
    git,
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Config that runs a program from every hook point git has for status, ls-files, add and commit. */
function plantedConfig(l: Lab): string {
  return [
    '[core]',
    `\tfsmonitor = "${l.evil('fsmonitor')}"`,
    `\tpager = "${l.evil('pager')}"`,
    `\thooksPath = ${path.join(l.ws, 'evil-hooks')}`,
    '[diff]',
    `\texternal = "${l.evil('diff-external')}"`,
    '[filter "evil"]',
    `\tclean = "${l.evil('filter-clean')}"`,
    `\tsmudge = "${l.evil('filter-smudge')}"`,
    '\trequired = true',
    '[diff "evil"]',
    `\ttextconv = "${l.evil('textconv')}"`,
    '[commit]',
    '\tgpgSign = true',
    '[gpg]',
    `\tprogram = "${l.evil('gpg')}"`,
    '[pager]',
    `\tstatus = "${l.evil('pager-status')}"`,
    '',
  ].join('\n');
}

function plantHooks(l: Lab, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const hook of ['pre-commit', 'commit-msg', 'post-commit', 'post-index-change', 'reference-transaction', 'prepare-commit-msg']) {
    writeFileSync(path.join(dir, hook), `#!/bin/sh\n${l.evil(`hook-${hook}`)} </dev/null\n`);
    chmodSync(path.join(dir, hook), 0o755);
  }
}

/** Every internal git operation, with a change to commit. */
async function exercise(l: Lab) {
  const listing = await listWorkspaceFiles(l.ws);
  const snap = await snapshotGit(l.ws);
  writeFileSync(path.join(l.ws, 'a.txt'), `a ${Date.now()}\n`);
  let commit: string | null | Error;
  try {
    commit = await commitPaths(l.ws, ['a.txt'], 'PatchPilot: edit a');
  } catch (err) {
    commit = err as Error;
  }
  return { listing, snap, commit };
}

describe("planted repository config never runs through PatchPilot's own git", () => {
  test('.git/config with fsmonitor, pager, hooksPath, filters, textconv, gpg signing: git still lists, snapshots and commits', async () => {
    const l = lab();
    try {
      writeFileSync(path.join(l.ws, '.gitattributes'), '* filter=evil diff=evil\n');
      l.git('add', '.gitattributes');
      l.git('-c', 'commit.gpgSign=false', 'commit', '-q', '-m', 'attributes');
      appendFileSync(path.join(l.ws, '.git/config'), plantedConfig(l));
      plantHooks(l, path.join(l.ws, 'evil-hooks'));
      plantHooks(l, path.join(l.ws, '.git/hooks'));
      const { listing, snap, commit } = await exercise(l);
      assert.deepEqual(l.ran(), [], 'nothing planted ran');
      assert.equal(listing.source, 'git');
      assert.ok(listing.files.includes('a.txt') && listing.files.includes('evil-hooks/post-commit'));
      assert.equal(snap.isRepo, true);
      assert.equal(snap.branch, 'main');
      assert.match(String(commit), /^[0-9a-f]{40}$/, `auto-commit works: ${commit}`);
      assert.equal(l.git('log', '-1', '--format=%an <%ae>|%s'), 'Lab User <lab@example.invalid>|PatchPilot: edit a', "the user's identity is kept");
      assert.equal(
        l.git('-c', 'filter.evil.clean=', '-c', 'filter.evil.required=false', 'show', 'HEAD:a.txt').startsWith('a '),
        true,
        'the content was committed unfiltered',
      );
    } finally {
      l.cleanup();
    }
  });

  test('.git/commondir leading to a planted config: git is not run, listing walks, commit refuses', async () => {
    const l = lab();
    try {
      const planted = path.join(l.ws, 'planted');
      cpSync(path.join(l.ws, '.git'), planted, { recursive: true });
      appendFileSync(path.join(planted, 'config'), plantedConfig(l));
      writeFileSync(path.join(l.ws, '.git/commondir'), '../planted\n');
      const { listing, snap, commit } = await exercise(l);
      assert.deepEqual(l.ran(), []);
      assert.equal(listing.source, 'walk');
      assert.ok(listing.files.includes('a.txt'));
      assert.equal(snap.isRepo, false);
      assert.match(snap.warning ?? '', /commondir/);
      assert.ok(commit instanceof Error && /commondir/.test(commit.message), String(commit));
    } finally {
      l.cleanup();
    }
  });

  test('a .git renamed and copied back with new config', async () => {
    const l = lab();
    try {
      renameSync(path.join(l.ws, '.git'), path.join(l.ws, '.git-old'));
      cpSync(path.join(l.ws, '.git-old'), path.join(l.ws, '.git'), { recursive: true });
      rmSync(path.join(l.ws, '.git-old'), { recursive: true });
      appendFileSync(path.join(l.ws, '.git/config'), plantedConfig(l));
      const { listing, snap, commit } = await exercise(l);
      assert.deepEqual(l.ran(), []);
      assert.equal(listing.source, 'git');
      assert.equal(snap.isRepo, true);
      assert.match(String(commit), /^[0-9a-f]{40}$/);
    } finally {
      l.cleanup();
    }
  });

  test('a bare layout with a work tree written into a folder that is not a repository', async () => {
    const l = lab({ repo: false });
    try {
      writeFileSync(path.join(l.ws, 'HEAD'), 'ref: refs/heads/main\n');
      mkdirSync(path.join(l.ws, 'objects'));
      mkdirSync(path.join(l.ws, 'refs/heads'), { recursive: true });
      writeFileSync(path.join(l.ws, 'config'), `[core]\n\tbare = false\n\tworktree = .\n${plantedConfig(l)}`);
      const { listing, snap, commit } = await exercise(l);
      assert.deepEqual(l.ran(), []);
      assert.equal(listing.source, 'walk');
      assert.deepEqual(snap, { isRepo: false, head: null, branch: null, dirty: [] });
      assert.ok(commit instanceof Error);
    } finally {
      l.cleanup();
    }
  });

  test('a bare layout in a subfolder, of a repository and of a plain folder', async () => {
    for (const repo of [true, false]) {
      const l = lab({ repo });
      try {
        const sub = path.join(l.ws, 'sub');
        mkdirSync(path.join(sub, 'objects'), { recursive: true });
        mkdirSync(path.join(sub, 'refs/heads'), { recursive: true });
        writeFileSync(path.join(sub, 'HEAD'), 'ref: refs/heads/main\n');
        writeFileSync(path.join(sub, 'config'), `[core]\n\tbare = false\n\tworktree = ..\n${plantedConfig(l)}`);
        const { listing, snap } = await exercise(l);
        assert.deepEqual(l.ran(), [], `repo: ${repo}`);
        assert.equal(listing.source, repo ? 'git' : 'walk');
        assert.equal(snap.isRepo, repo);
      } finally {
        l.cleanup();
      }
    }
  });

  test('a .git that is a symlink, or a gitfile pointing into the workspace, is refused', async () => {
    for (const kind of ['symlink', 'gitfile'] as const) {
      const l = lab({ repo: false });
      try {
        const planted = path.join(l.ws, 'planted');
        execFileSync('git', ['init', '-q', '--bare', planted]);
        appendFileSync(path.join(planted, 'config'), `[core]\n\tbare = false\n${plantedConfig(l)}`);
        if (kind === 'symlink') execFileSync('ln', ['-s', 'planted', path.join(l.ws, '.git')]);
        else writeFileSync(path.join(l.ws, '.git'), 'gitdir: planted\n');
        const { listing, snap } = await exercise(l);
        assert.deepEqual(l.ran(), [], kind);
        assert.equal(listing.source, 'walk');
        assert.match(snap.warning ?? '', kind === 'symlink' ? /symbolic link/ : /inside the workspace/);
      } finally {
        l.cleanup();
      }
    }
  });

  test('a linked worktree (gitfile to the main repository outside the workspace) still works', async () => {
    const l = lab();
    try {
      const wt = path.join(path.dirname(l.ws), 'wt');
      l.git('worktree', 'add', '-q', '-b', 'side', wt);
      writeFileSync(path.join(wt, 'c.txt'), 'c\n');
      const snap = await snapshotGit(wt);
      assert.equal(snap.branch, 'side');
      assert.deepEqual(snap.dirty, ['c.txt']);
      assert.match(String(await commitPaths(wt, ['c.txt'], 'PatchPilot: c')), /^[0-9a-f]{40}$/);
    } finally {
      l.cleanup();
    }
  });

  test('without a configured identity, commits are made as PatchPilot', async () => {
    const l = lab({ identity: false });
    const saved = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = '/dev/null'; // this machine's own identity must not answer
    try {
      const { commit } = await exercise(l);
      assert.match(String(commit), /^[0-9a-f]{40}$/);
      assert.equal(l.git('log', '-1', '--format=%an <%ae>'), 'PatchPilot <patchpilot@localhost>');
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = saved;
      l.cleanup();
    }
  });

  test('a free-name driver whose name holds "=" cannot be overridden with -c: git is not run', async () => {
    const l = lab();
    try {
      appendFileSync(path.join(l.ws, '.git/config'), `[filter "x=y"]\n\tclean = "${l.evil('filter-eq')}"\n`);
      writeFileSync(path.join(l.ws, '.gitattributes'), '* filter=x=y\n');
      const opened = await SafeGit.open(l.ws);
      assert.equal(opened.kind, 'refused');
      const { listing } = await exercise(l);
      assert.deepEqual(l.ran(), []);
      assert.equal(listing.source, 'walk');
      assert.equal(existsSync(path.join(l.markers, 'filter-eq')), false);
    } finally {
      l.cleanup();
    }
  });
});
