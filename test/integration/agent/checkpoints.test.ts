// End to end: checkpoints through the built CLI against the scripted model server. A run patches a
// file, creates one, deletes one, renames one, chmods one and runs a command that writes a file;
// `patchpilot restore --before-step 1` puts everything back, with and without git, .git untouched.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { ScriptedModelServer } from '../../support/scriptedModel';
import { gitInit, tempWorkspace } from '../../unit/tools/helpers';
import { call, events, runCli, skipWithoutBuild } from './support';

const FILES = {
  'src/a.js': 'exports.a = 1;\n',
  'old.txt': 'to be deleted\n',
  'name1.txt': 'renamed by a command\n',
  'run.sh': '#!/bin/sh\necho hi\n',
  // The run's commands, allowed by the (trusted) workspace's policy.
  '.vscode/settings.json': JSON.stringify({ 'patchpilot.policy.allow': ['rm *', 'mv *', 'chmod *', 'node *'] }),
};

const PATCH = ['--- a/src/a.js', '+++ b/src/a.js', '@@ -1 +1 @@', '-exports.a = 1;', '+exports.a = 2;', ''].join('\n');

/** One tool call a step: patch, write, then commands that delete, rename, chmod and write. */
function script(): ScriptedTurn[] {
  return [
    { reply: { toolCalls: [call('propose_patch', { patch: PATCH })] } },
    { reply: { toolCalls: [call('write_file', { path: 'src/new/created.js', content: 'exports.created = true;\n' })] } },
    { reply: { toolCalls: [call('run_command', { command: 'rm old.txt' })] } },
    { reply: { toolCalls: [call('run_command', { command: 'mv name1.txt name2.txt' })] } },
    { reply: { toolCalls: [call('run_command', { command: 'chmod 755 run.sh' })] } },
    { reply: { toolCalls: [call('run_command', { command: "node -e \"require('fs').writeFileSync('out.txt', 'written')\"" })] } },
    { reply: { toolCalls: [call('finish', { summary: 'done' })] } },
  ];
}

/** Every path under root but .patchpilot, with its bytes' hash and mode: what a restore must give back. */
function tree(root: string, skipGit = true): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (r === '.patchpilot' || (skipGit && r === '.git')) continue;
      const st = statSync(path.join(root, r));
      if (st.isDirectory()) {
        out[`${r}/`] = (st.mode & 0o7777).toString(8);
        walk(r);
      } else
        out[r] = `${(st.mode & 0o7777).toString(8)} ${createHash('sha256')
          .update(readFileSync(path.join(root, r)))
          .digest('hex')
          .slice(0, 12)}`;
    }
  };
  walk('');
  return out;
}

function gitState(root: string): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout;
  return [git('rev-parse', 'HEAD'), git('ls-files', '-s'), readFileSync(path.join(root, '.git/config'), 'utf8'), git('for-each-ref')].join('\n---\n');
}

async function agentRun(root: string): Promise<void> {
  const server = await ScriptedModelServer.start(script());
  try {
    const r = await runCli([
      '--goal',
      'change things',
      '--workspace',
      root,
      '--approve',
      'auto',
      '--trust-workspace',
      '--base-url',
      server.baseUrl,
      '--model',
      'scripted-model',
      '--json',
    ]);
    const outputs = events(r.stdout)
      .filter((e) => e.type === 'tool/finished' || e.type === 'warning')
      .map((e) => `${String(e.name ?? 'warning')}: ${String(e.output ?? e.message)}`);
    assert.equal(r.code, 0, `${r.stderr}\n${outputs.join('\n')}`);
    assert.deepEqual(server.mismatches, []);
    const saved = events(r.stdout).filter((e) => e.type === 'checkpoint/saved');
    assert.deepEqual(
      saved.map((e) => [e.step, e.paths]),
      [
        [1, ['src/a.js']],
        [2, ['src/new', 'src/new/created.js']],
        [3, ['old.txt']],
        [4, ['name1.txt', 'name2.txt']],
        [5, ['run.sh']],
        [6, ['out.txt']],
      ],
      r.stderr,
    );
  } finally {
    await server.close();
  }
}

const restoreCli = (args: string[]) => runCli(args, { command: 'restore' });

function workspace(git: boolean) {
  const ws = tempWorkspace(FILES);
  chmodSync(path.join(ws.root, 'run.sh'), 0o644);
  if (git) gitInit(ws.root);
  return ws;
}

describe('patchpilot restore (built CLI, checkpoints of a scripted run)', { skip: skipWithoutBuild }, () => {
  for (const git of [true, false]) {
    test(`restore --before-step 1 puts back edits, creations, deletions, renames, modes and command output (${git ? 'git' : 'no git'})`, async () => {
      const ws = workspace(git);
      try {
        const before = tree(ws.root);
        const gitBefore = git ? gitState(ws.root) : '';
        await agentRun(ws.root);
        assert.notDeepEqual(tree(ws.root), before);
        assert.equal(statSync(path.join(ws.root, 'run.sh')).mode & 0o777, 0o755);

        const dry = await restoreCli(['--workspace', ws.root, '--run', 'last', '--before-step', '1', '--dry-run']);
        assert.equal(dry.code, 0, dry.stderr);
        assert.match(dry.stdout, /^-exports\.a = 2;$/m);
        assert.match(dry.stdout, /^\+exports\.a = 1;$/m);
        assert.match(dry.stdout, /^\+to be deleted$/m);
        assert.match(dry.stderr, /remove {3}out\.txt/);
        assert.match(dry.stderr, /mode {5}run\.sh \(0755 -> 0644\)/);
        assert.notDeepEqual(tree(ws.root), before, 'a dry run writes nothing');

        const refused = await restoreCli(['--workspace', ws.root, '--run', 'last', '--before-step', '1']);
        assert.equal(refused.code, 1);
        assert.match(refused.stderr, /refusing to write without --yes: stdin is not a terminal/);

        const r = await restoreCli(['--workspace', ws.root, '--run', 'last', '--before-step', '1', '--yes']);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(tree(ws.root), before);
        if (git) assert.equal(gitState(ws.root), gitBefore, '.git is untouched');

        const redo = await restoreCli(['--workspace', ws.root, '--redo', '--yes']);
        assert.equal(redo.code, 0, redo.stderr);
        assert.equal(readFileSync(path.join(ws.root, 'out.txt'), 'utf8'), 'written');
        assert.ok(existsSync(path.join(ws.root, 'name2.txt')) && !existsSync(path.join(ws.root, 'name1.txt')));
      } finally {
        ws.cleanup();
      }
    });
  }

  test('a restore blocked by a file the user changed since changes nothing and names it; --restore-rest restores the others', async () => {
    const ws = workspace(true);
    try {
      await agentRun(ws.root);
      writeFileSync(path.join(ws.root, 'out.txt'), 'the user edited this');
      const after = tree(ws.root);
      const r = await restoreCli(['--workspace', ws.root, '--run', 'last', '--before-step', '1', '--yes']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /out\.txt: changed since step 6/);
      assert.match(r.stderr, /nothing was restored/);
      assert.deepEqual(tree(ws.root), after, 'nothing changed');

      const rest = await restoreCli(['--workspace', ws.root, '--run', 'last', '--before-step', '3', '--yes', '--restore-rest']);
      assert.equal(rest.code, 0, rest.stderr);
      assert.equal(readFileSync(path.join(ws.root, 'out.txt'), 'utf8'), 'the user edited this');
      assert.equal(readFileSync(path.join(ws.root, 'old.txt'), 'utf8'), 'to be deleted\n');
      assert.equal(readFileSync(path.join(ws.root, 'src/a.js'), 'utf8'), 'exports.a = 2;\n', 'step 1 is before step 3: kept');
    } finally {
      ws.cleanup();
    }
  });

  test('the next run is told of the restore at its first turn', async () => {
    const ws = workspace(false);
    try {
      await agentRun(ws.root);
      const r = await restoreCli(['--workspace', ws.root, '--run', 'last', '--before-step', '5', '--yes']);
      assert.equal(r.code, 0, r.stderr);
      const server = await ScriptedModelServer.start([
        { reply: { toolCalls: [call('finish', { summary: 'ok' })] }, expect: { lastMessageContains: 'the user restored the workspace to before step 5' } },
      ]);
      try {
        const next = await runCli(['--goal', 'go on', '--workspace', ws.root, '--approve', 'auto', '--base-url', server.baseUrl, '--model', 'scripted-model']);
        assert.equal(next.code, 0, next.stderr);
        assert.deepEqual(server.mismatches, []);
      } finally {
        await server.close();
      }
    } finally {
      ws.cleanup();
    }
  });
});
