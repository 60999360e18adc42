// Faults end to end: the built `patchpilot run` binary against the real scripted model server
// (which injects 429s and cut streams) on temp git repositories, and signals from outside.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BUGGY, FIX } from '../../unit/orchestrator/harness';
import { call, events, historyRuns, runCli, skipWithoutBuild, sleepers, uniqueSleep, withRepo } from './support';

const NOTES = 'Line one of the notes.\nLine two of the notes, long enough to be split into several deltas.\n';

describe('patchpilot run under faults (built CLI, scripted model server)', { skip: skipWithoutBuild }, () => {
  test('a 429 with Retry-After is waited out and retried; the run finishes and the retry is in the events', async () => {
    const turns = [
      { reply: { toolCalls: [call('read_file', { path: 'add.js' })] }, faults: [{ kind: 'rate-limit' as const, retryAfterSeconds: 1 }] },
      { reply: { toolCalls: [call('finish', { summary: 'read it' })] } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'read add.js', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json']);
      assert.equal(r.code, 0, r.stderr);
      const ev = events(r.stdout);
      const retry = ev.find((e) => e.type === 'model/retrying');
      assert.ok(retry, 'a model/retrying event');
      assert.equal(retry.attempt, 2);
      assert.ok((retry.delayMs as number) >= 1000, `waited as asked: ${retry.delayMs} ms`);
      assert.match(retry.reason as string, /429|rate limit/i);
      assert.equal(server.attemptsForTurn(0), 2);
      assert.equal(ev.at(-1)!.status, 'finished');
    });
  });

  test('a stream cut in the middle of a tool call: the partial call never runs, the step is asked again, the run finishes', async () => {
    // Chunks: role, call header, then the arguments in 3 deltas: the cut lands after the first delta.
    const turns = [
      { reply: { toolCalls: [call('write_file', { path: 'notes.txt', content: NOTES })] }, faults: [{ kind: 'cut' as const, afterChunks: 3 }] },
      { reply: { toolCalls: [call('finish', { summary: 'wrote the notes' })] } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli([
        '--goal',
        'write notes',
        '--workspace',
        root,
        '--approve',
        'auto-edit',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const ev = events(r.stdout);
      const restart = ev.findIndex((e) => e.type === 'text/restart');
      const writes = ev.flatMap((e, i) => (e.type === 'tool/started' && e.name === 'write_file' ? [i] : []));
      assert.ok(restart > 0, 'the broken reply was announced as void');
      assert.deepEqual(writes.length, 1, 'one write: the complete call, never the partial one');
      assert.ok(writes[0]! > restart, 'the write came from the retried reply');
      assert.deepEqual(ev[writes[0]!]!.args, { path: 'notes.txt', content: NOTES });
      assert.equal(readFileSync(path.join(root, 'notes.txt'), 'utf8'), NOTES);
      assert.equal(server.attemptsForTurn(0), 2);
      assert.equal(ev.at(-1)!.status, 'finished');
    });
  });

  test('a second cut in the same step stops the run as interrupted: exit 1, the file untouched, history says interrupted', async () => {
    const turns = [
      {
        reply: { toolCalls: [call('propose_patch', { patch: FIX })] },
        faults: [
          { kind: 'cut' as const, afterChunks: 3 },
          { kind: 'cut' as const, afterChunks: 4 },
        ],
      },
      { reply: { text: 'never asked' } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli([
        '--goal',
        'fix add',
        '--workspace',
        root,
        '--approve',
        'auto-edit',
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--json',
      ]);
      assert.equal(r.code, 1, r.stderr);
      const ev = events(r.stdout);
      assert.equal(ev.filter((e) => e.type === 'tool/started').length, 0);
      const last = ev.at(-1)!;
      assert.equal(last.type, 'result');
      assert.equal(last.status, 'interrupted');
      assert.match(last.reason as string, /broke off twice/);
      assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), BUGGY['add.js']);
      assert.equal(server.chatRequests.length, 2);
      assert.deepEqual(
        (await historyRuns(root)).map((x) => x.status),
        ['interrupted'],
      );
    });
  });

  test('--dry-run (plan mode) writes nothing: git status stays clean but for the history folder, the run is in the history', async () => {
    const turns = [
      {
        reply: { toolCalls: [call('propose_patch', { patch: FIX }), call('write_file', { path: 'new.js', content: 'x' })] },
        expect: { toolsInclude: ['propose_patch', 'read_file'] },
      },
      { reply: { text: 'Plan: in add.js, change a - b to a + b.' }, expect: { anyMessageContains: 'NOT applied' } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'plan the fix', '--workspace', root, '--dry-run', '--base-url', server.baseUrl, '--model', 'scripted-model']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.equal(r.stdout, 'Plan: in add.js, change a - b to a + b.\n');
      assert.match(r.stderr, /patchpilot: plan mode/);
      // The user sees what would have changed, as the engine would write it.
      assert.match(
        r.stderr,
        /--- proposed patch \(dry run, not applied\) ---\ndiff --git a\/add\.js b\/add\.js\n[^]*\n-exports\.add = \(a, b\) => a - b;\n\+exports\.add = \(a, b\) => a \+ b;\n---/,
      );
      assert.match(r.stderr, /patchpilot: finished after 2 steps/);
      // Nothing shows: the history store's folder ignores its own files, .gitignore included.
      const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
      assert.deepEqual(status.split('\n').filter(Boolean), []);
      assert.ok(!existsSync(path.join(root, 'new.js')));
      const runs = await historyRuns(root);
      assert.deepEqual(
        runs.map((x) => [x.goal, x.status]),
        [['plan the fix', 'finished']],
      );
      assert.equal(runs[0]!.steps, 2, 'history counts the steps the CLI showed');
    });
  });

  test('SIGINT during a long run_command kills its whole process tree (grandchildren too), exits 130, history flushed', async () => {
    const seconds = uniqueSleep();
    // The executor's shell -> sh -> two sleeps (one in the background): the sleeps are grandchildren.
    // Only allowlisted programs, so auto mode runs it with or without the bubblewrap sandbox.
    const command = `sh -c 'sleep ${seconds} & sleep ${seconds}'`;
    const turns = [{ reply: { toolCalls: [call('run_command', { command })] } }, { reply: { text: 'never asked' } }];
    await withRepo(turns, async (root, server) => {
      let sent = false;
      const r = await runCli(
        ['--goal', 'run the sleepers', '--workspace', root, '--approve', 'auto', '--base-url', server.baseUrl, '--model', 'scripted-model'],
        {
          onStderr: (text, child) => {
            if (sent || !text.includes('> run_command')) return;
            sent = true;
            const poll = setInterval(() => {
              if (sleepers(seconds).length < 2) return; // both grandchildren are up
              clearInterval(poll);
              child.kill('SIGINT');
            }, 50);
            setTimeout(() => clearInterval(poll), 20_000).unref();
          },
        },
      );
      assert.equal(r.code, 130, r.stderr);
      assert.match(r.stderr, /patchpilot: cancelled/);
      assert.deepEqual(sleepers(seconds), [], 'no process of the tree survived');
      assert.deepEqual(
        (await historyRuns(root)).map((x) => [x.goal, x.status]),
        [['run the sleepers', 'cancelled']],
      );
    });
  });
});
