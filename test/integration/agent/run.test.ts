// End to end: the built `patchpilot run` binary against the scripted model server on 127.0.0.1,
// in a real git repository with a failing test.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { tempWorkspace } from '../../unit/tools/helpers';
import { BUGGY, FIX, TEST_CMD } from '../../unit/orchestrator/harness';
import { call, events, historyRuns, runCli, skipWithoutBuild, withRepo } from './support';

describe('patchpilot run (built CLI, scripted model server)', { skip: skipWithoutBuild }, () => {
  test('fixes the bug with propose_patch, runs the tests, finishes: exit 0, history recorded', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { text: 'Let me look.', toolCalls: [call('read_file', { path: 'add.js' })] } },
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] }, expect: { lastMessageContains: 'a - b' } },
      { reply: { toolCalls: [call('run_tests', {})] }, expect: { lastMessageContains: 'applied 1 hunk' } },
      { reply: { toolCalls: [call('finish', { summary: 'Fixed add(): it subtracted. The test passes.' })] }, expect: { lastMessageContains: 'tests passed' } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli([
        '--goal',
        'make the add test pass',
        '--workspace',
        root,
        '--approve',
        'auto-edit',
        '--test-cmd',
        TEST_CMD,
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), 'exports.add = (a, b) => a + b;\n');
      const ev = events(r.stdout);
      assert.equal(ev[0]!.type, 'run/started');
      const { usage, ...finished } = ev.find((e) => e.type === 'run/finished') as unknown as {
        usage: { reasoning: { requests: number; model: string }; fast: { requests: number } };
      };
      assert.deepEqual(finished, {
        v: 1,
        type: 'run/finished',
        runId: ev[0]!.runId,
        status: 'finished',
        reason: 'the model called finish',
        summary: 'Fixed add(): it subtracted. The test passes.',
        steps: 4,
        tests: 'passed',
      });
      // No fast model configured: the four agent requests and nothing else.
      assert.deepEqual([usage.reasoning.model, usage.reasoning.requests, usage.fast.requests], ['scripted-model', 4, 0]);
      assert.ok(ev.some((e) => e.type === 'test/finished' && e.exitCode === 0));
      // The key went to the user's endpoint (a flag), as a bearer token.
      assert.equal(server.requests.find((q) => q.path.endsWith('/chat/completions'))!.headers.authorization, 'Bearer test-key');

      const runs = await historyRuns(root);
      assert.equal(runs.length, 1);
      // Three test runs: the baseline before the first edit, after the edit (tests.afterEdit is on when commands
      // exist), then the explicit run_tests.
      assert.deepEqual([runs[0]!.goal, runs[0]!.status, runs[0]!.patchCount, runs[0]!.testRunCount], ['make the add test pass', 'finished', 1, 3]);
    });
  });

  test('--fast-model: insights and the Q&A summary come from the fast model; its usage is reported apart', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('grep', { pattern: 'exports' })] }, expect: { model: 'scripted-model' } },
      { reply: { toolCalls: [call('finish', { summary: 'add() subtracts.' })] }, expect: { model: 'scripted-model' } },
      {
        reply: { text: '{"insights": ["add.js exports add(), which subtracts"]}', usage: { promptTokens: 120, completionTokens: 15 } },
        expect: { model: 'fast-model', lastMessageContains: 'Result 1: grep' },
      },
      {
        reply: { text: 'add() in add.js subtracts; nothing was changed.', usage: { promptTokens: 90, completionTokens: 12 } },
        expect: { model: 'fast-model', anyMessageContains: 'Goal: why does the test fail' },
      },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli([
        '--goal',
        'why does the test fail',
        '--workspace',
        root,
        '--base-url',
        server.baseUrl,
        '--model',
        'scripted-model',
        '--fast-model',
        'fast-model',
        '--json',
      ]);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(server.mismatches, []);
      const last = events(r.stdout).at(-1) as unknown as {
        usage: { fast: { model: string; requests: number; promptTokens: number; completionTokens: number } };
      };
      assert.deepEqual(last.usage.fast, { model: 'fast-model', requests: 2, promptTokens: 210, completionTokens: 27 });
      const show = await runCli(['search', 'subtracts', '--cwd', root, '--json'], { command: 'history' });
      assert.equal(show.code, 0, show.stderr);
      assert.match(show.stdout, /add\(\) in add\.js subtracts; nothing was changed\./);
      assert.match(show.stdout, /add\.js exports add\(\), which subtracts/);
    });
  });

  test('without a terminal, ask mode says up front what will happen; a run whose every edit was refused for want of approval ends blocked (exit 1)', async () => {
    const turns: ScriptedTurn[] = [
      { reply: { toolCalls: [call('propose_patch', { patch: FIX })] } },
      {
        reply: { toolCalls: [call('write_file', { path: 'add2.js', content: 'exports.add = (a, b) => a + b;\n' })] },
        expect: { lastMessageContains: 'nobody could approve the patch' },
      },
      { reply: { text: 'Fixed it.' }, expect: { lastMessageContains: 'nobody could approve it' } },
    ];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'fix add', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model']);
      assert.equal(r.code, 5, r.stderr);
      assert.deepEqual(server.mismatches, []);
      assert.equal(r.stdout, '', 'no success summary for a run that changed nothing');
      const notice = r.stderr.indexOf('no terminal to ask on, and the approval mode is ask');
      assert.ok(notice >= 0 && notice < r.stderr.indexOf('patchpilot: ask mode'), `said before the run starts:\n${r.stderr}`);
      assert.doesNotMatch(r.stderr, /the user rejected/, 'nobody was asked, so nobody rejected anything');
      assert.match(r.stderr, /patchpilot: blocked after 3 steps: every edit needed approval and nobody could give it \(2 refused\)/);
      assert.equal(readFileSync(path.join(root, 'add.js'), 'utf8'), BUGGY['add.js']);
      const runs = await historyRuns(root);
      assert.deepEqual(
        runs.map((x) => [x.status, x.steps]),
        [['blocked', 3]],
      );
    });
  });

  test('without a terminal, a run that needs no approval still finishes (exit 0); --json states the same status', async () => {
    const turns: ScriptedTurn[] = [{ reply: { toolCalls: [call('read_file', { path: 'add.js' })] } }, { reply: { text: 'add() subtracts.' } }];
    await withRepo(turns, async (root, server) => {
      const r = await runCli(['--goal', 'why', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model', '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /no terminal to ask on/);
      const last = events(r.stdout).at(-1)!;
      assert.deepEqual([last.status, last.steps], ['finished', 2]);
      assert.deepEqual(
        (await historyRuns(root)).map((x) => [x.status, x.steps]),
        [['finished', 2]],
      );
    });
  });

  test('the step limit exits 6 (a budget ran out)', async () => {
    const read = { reply: { toolCalls: [call('read_file', { path: 'add.js' })] } };
    await withRepo([read, read], async (root, server) => {
      const r = await runCli(['--goal', 'loop', '--workspace', root, '--max-steps', '1', '--base-url', server.baseUrl, '--model', 'scripted-model']);
      assert.equal(r.code, 6);
      assert.match(r.stderr, /patchpilot: limit after 1 step: reached the step limit \(1\)/);
    });
  });

  test('SIGINT during a test run kills it and exits 130', async () => {
    await withRepo([{ reply: { toolCalls: [call('run_tests', {})] } }, { reply: { text: 'unreachable' } }], async (root, server) => {
      let sent = false;
      const r = await runCli(
        ['--goal', 'test', '--workspace', root, '--approve', 'auto', '--test-cmd', 'sleep 30', '--base-url', server.baseUrl, '--model', 'scripted-model'],
        {
          onStderr: (text, child) => {
            if (!sent && text.includes('> run_tests')) {
              sent = true;
              setTimeout(() => child.kill('SIGINT'), 200);
            }
          },
        },
      );
      assert.equal(r.code, 130, r.stderr);
      assert.match(r.stderr, /cancelled/);
    });
  });

  test('SIGHUP (the terminal closed) cancels like Ctrl-C: exit 130, history says cancelled', async () => {
    await withRepo([{ reply: { toolCalls: [call('run_tests', {})] } }, { reply: { text: 'unreachable' } }], async (root, server) => {
      let sent = false;
      const r = await runCli(
        ['--goal', 'test', '--workspace', root, '--approve', 'auto', '--test-cmd', 'sleep 31', '--base-url', server.baseUrl, '--model', 'scripted-model'],
        {
          onStderr: (text, child) => {
            if (!sent && text.includes('> run_tests')) {
              sent = true;
              setTimeout(() => child.kill('SIGHUP'), 200);
            }
          },
        },
      );
      assert.equal(r.code, 130, r.stderr);
      assert.deepEqual(
        (await historyRuns(root)).map((x) => x.status),
        ['cancelled'],
      );
    });
  });

  test('kill -9: the run stays running while its process lives, and the next open marks it interrupted', async () => {
    await withRepo(
      [{ reply: { toolCalls: [call('read_file', { path: 'add.js' })] } }, { reply: { text: 'never served' }, faults: [{ kind: 'hang' }] }],
      async (root, server) => {
        let seen: { status: string }[] = [];
        const r = await runCli(['--goal', 'hang', '--workspace', root, '--base-url', server.baseUrl, '--model', 'scripted-model'], {
          onStderr: (text, child) => {
            if (seen.length || !text.includes('ok: ')) return;
            seen = [{ status: 'waiting' }];
            // Once the run is on disk (saves are debounced), while the process is still alive: it must read as running.
            const poll = async () => {
              const runs = await historyRuns(root).catch(() => []);
              if (runs.length === 0) return void setTimeout(poll, 100);
              seen = runs;
              child.kill('SIGKILL');
            };
            void poll();
          },
        });
        assert.equal(r.signal, 'SIGKILL', r.stderr);
        assert.deepEqual(
          seen.map((x) => x.status),
          ['running'],
        );
        const after = await historyRuns(root);
        assert.deepEqual(
          after.map((x) => [x.goal, x.status]),
          [['hang', 'interrupted']],
        );
      },
    );
  });

  test('usage and settings errors exit 2 with a clear message', async () => {
    const ws = tempWorkspace();
    try {
      const cases: [string[], RegExp][] = [
        [[], /--goal is required when stdin is not a terminal/],
        [['--json'], /--goal is required with --json/],
        [['--goal', ' '], /--goal is empty/],
        [['--goal', 'x', '--dry-run', '--approve', 'auto'], /--dry-run is --approve plan; it cannot go with --approve auto/],
        [['--goal', 'x', '--approve', 'yolo'], /--approve must be one of ask, auto-edit, auto, plan/],
        [['--goal', 'x', '--max-steps', '0'], /--max-steps must be a positive integer/],
        [['--goal', 'x', '--max-tokens', '1e6'], /--max-tokens must be a positive integer/],
        [['--goal', 'x', '--max-cost-usd', 'ten'], /--max-cost-usd must be a positive number \(US dollars\)/],
        [['--goal', 'x', '--max-cost-usd', '0'], /--max-cost-usd must be a positive number/],
        [['--goal', 'x', '--workspace', ws.root, '--base-url', 'http://127.0.0.1:9/v1'], /no model: set --model/],
        [['--goal', 'x', '--workspace', ws.root, '--model', 'm'], /no model endpoint/],
        // An empty value is unset, as the Settings UI's empty field is: the missing model is named, not "expected a non-empty string".
        [['--goal', 'x', '--workspace', ws.root, '--base-url', 'http://127.0.0.1:9/v1', '--model', ''], /no model: set --model/],
        [['--goal', 'x', '--workspace', ws.root, '--provider', 'vscode', '--model', 'm'], /provider "vscode" .*works only inside VS Code/],
        [
          ['--goal', 'x', '--workspace', ws.root, '--model', 'm', '--base-url', 'ftp://x'],
          /--base-url \(patchpilot\.llm\.baseUrl\): expected an http\(s\) URL/,
        ],
        [['--goal', 'x', '--bogus', 'v'], /unknown option --bogus/],
        [['--goal', 'x', '--verbose'], /unknown option --verbose/],
        [['--goal'], /--goal needs a value/],
        [['--goal', 'x', '--json=yes'], /--json takes no value/],
      ];
      for (const [args, message] of cases) {
        const r = await runCli(args, { env: { PATCHPILOT_BASE_URL: '', PATCHPILOT_MODEL: '', PATCHPILOT_PROVIDER: '' } });
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, message);
      }
    } finally {
      ws.cleanup();
    }
  });

  test('an untrusted workspace cannot point the CLI (and the key) at its own server', async () => {
    const ws = tempWorkspace();
    try {
      mkdirSync(path.join(ws.root, '.vscode'));
      writeFileSync(path.join(ws.root, '.vscode', 'settings.json'), '{ "patchpilot.llm.baseUrl": "http://127.0.0.1:9/v1", "patchpilot.llm.model": "m" }');
      const r = await runCli(['--goal', 'x', '--workspace', ws.root], { env: { PATCHPILOT_BASE_URL: '', PATCHPILOT_MODEL: '' } });
      assert.equal(r.code, 2);
      assert.match(r.stderr, /ignored patchpilot\.llm\.baseUrl = "http:\/\/127\.0\.0\.1:9\/v1" from .*settings\.json: the workspace is not trusted/);
      assert.match(r.stderr, /no model endpoint/);
    } finally {
      ws.cleanup();
    }
  });
});
