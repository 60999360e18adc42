// Issue #6/#7 end to end through the built CLI: credentials in the environment under innocent names,
// a test file rewritten by a shell command, arithmetic/subscript/function tricks in auto mode, and a
// double-forked process. Each where it matters in both sandbox states: real bubblewrap (when it
// works here) and none (a failing fake `bwrap` first on PATH).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { probeSandbox } from '../../../src/core/sandbox';
import { createArena } from './attacks/arena';
import { CLI, call, decisionFor, finish, runAgent, turn } from './attacks/agent';

const sandbox = probeSandbox();

/** The sandbox states to run in: the real one when bubblewrap works, and always none. */
const STATES: [name: string, skip: string | false][] = [
  ['sandboxed', sandbox.available ? false : `bubblewrap unusable here: ${sandbox.message}`],
  ['no sandbox', false],
];

/** PATH with a failing fake bwrap first, for the no-sandbox state; cleaned up by the caller. */
function envFor(state: string, bin: string): NodeJS.ProcessEnv {
  if (state !== 'no sandbox') return {};
  writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: setting up uid map: Permission denied" >&2\nexit 1\n');
  chmodSync(path.join(bin, 'bwrap'), 0o755);
  return { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
}

async function withBin<T>(fn: (bin: string) => Promise<T>): Promise<T> {
  const bin = mkdtempSync(path.join(tmpdir(), 'pp-fake-bwrap-'));
  try {
    return await fn(bin);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
}

describe('attacks: commands without and with a sandbox (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  for (const [state, skip] of STATES) {
    test(`${state}: credentials under innocent names and the API key never reach the model through run_command or the tests`, { skip }, () =>
      withBin(async (bin) => {
        const tag = randomBytes(6).toString('hex');
        const secrets = {
          DATABASE_URL: `postgres://u:DBPW${tag}@h/db`,
          LC_PAPER: `mysql://root:LCPW${tag}@db/x`, // an allowlisted name (LC_*) holding a credential URL
          APP_DSN: `redis://app:DSNPW${tag}@cache:6379`, // listed by the user in envAllow
          PATCHPILOT_API_KEY: `pp-key-${tag}`,
        };
        const arena = createArena({ settings: { 'patchpilot.policy.envAllow': ['APP_DSN', 'APP_MODE'] } });
        try {
          const show = 'echo "db=$DATABASE_URL lc=$LC_PAPER dsn=$APP_DSN key=$PATCHPILOT_API_KEY mode=$APP_MODE"';
          // The test command fails, so its whole output goes to the model. It runs first: without a
          // sandbox, tests after a shell command ask (see the next test).
          const testCmd = `node -e "console.log(JSON.stringify(process.env)); process.exit(1)"`;
          // The tests fail on purpose, before any change too: the run ends with a known failure (exit 3).
          const run = await runAgent(arena, [turn(call('tests', 'run_tests', {})), turn(call('show', 'run_command', { command: show })), finish(), finish()], {
            mode: 'auto',
            args: ['--test-cmd', testCmd, '--trust-workspace'],
            env: { ...envFor(state, bin), ...secrets, APP_MODE: 'plain' },
          });
          assert.equal(run.code, 3, run.stderr);
          assert.match(run.stdout, /"type":"run\/finished"[^\n]*"tests":"known-failures"/);
          assert.match(run.results.get('show') ?? '', /db= lc= dsn= key= mode=plain/, 'run_command saw only the harmless listed variable');
          assert.match(run.results.get('tests') ?? '', /"APP_MODE":"plain"/, 'the test command ran and printed its environment');
          for (const [name, value] of Object.entries(secrets)) {
            assert.ok(!run.allModelInput.includes(value), `${name} reached the model`);
          }
          assert.ok(!/DBPW|LCPW|DSNPW|pp-key-/.test(run.allModelInput));
        } finally {
          arena.cleanup();
        }
      }),
    );
  }

  test('no sandbox: a test file rewritten by a shell command makes run_tests ask (refused without a TTY)', () =>
    withBin(async (bin) => {
      const arena = createArena();
      try {
        const evil = "require('fs').writeFileSync('pwned', 'x')";
        const run = await runAgent(
          arena,
          [turn(call('rewrite', 'run_command', { command: `echo "${evil}" > test.js` })), turn(call('tests', 'run_tests', {})), finish()],
          { mode: 'auto', args: ['--test-cmd', 'node test.js', '--trust-workspace'], env: envFor('no sandbox', bin) },
        );
        assert.equal(run.code, 0, run.stderr);
        assert.match(readFileSync(path.join(arena.ws, 'test.js'), 'utf8'), /pwned/, 'the shell command did rewrite test.js');
        const tests = run.results.get('tests') ?? '';
        assert.match(tests, /nobody could approve it/);
        assert.match(tests, /not sandboxed/);
        assert.match(tests, /shell commands of this run/);
        assert.equal(existsSync(path.join(arena.ws, 'pwned')), false, 'the rewritten test never ran');
        const d = decisionFor(run, 'command', 'node test.js');
        assert.deepEqual([d?.verdict, d?.rule], ['ask', 'ask:unsandboxed-code'], JSON.stringify(run.policy));
      } finally {
        arena.cleanup();
      }
    }));

  test(`auto mode (${sandbox.available ? 'sandboxed' : 'no sandbox'}): arithmetic, subscript and function tricks ask and are declined without a TTY`, async () => {
    const arena = createArena();
    try {
      const commands: Record<string, string> = {
        declare: "declare 'a[$(echo x > p1)]=1'",
        arith: "echo $(( 'a[$(echo x > p2)]' ))",
        subscript: "echo ${a['$(echo x > p3)']}",
        mutual: 'f(){ g; }; g(){ echo x > p4; }; f',
        unset: "unset 'a[$(echo x > p5)]'",
      };
      const run = await runAgent(
        arena,
        [
          ...Object.entries(commands).map(([id, command]) => turn(call(id, 'run_command', { command }))),
          turn(call('bomb', 'run_command', { command: ':(){ :|:& };:' })),
          finish(),
        ],
        { mode: 'auto' },
      );
      assert.equal(run.code, 0, run.stderr);
      for (const [id, command] of Object.entries(commands)) {
        assert.match(run.results.get(id) ?? '', /nobody could approve it/, `${id}: ${run.results.get(id)}`);
        const d = decisionFor(run, 'command', command);
        assert.equal(d?.verdict, 'ask', `${id}: ${JSON.stringify(d)}`);
      }
      assert.match(run.results.get('bomb') ?? '', /denied/);
      assert.deepEqual(
        readdirSync(arena.ws).filter((f) => /^p\d$/.test(f)),
        [],
        'no hidden command ran',
      );
    } finally {
      arena.cleanup();
    }
  });

  for (const [state, skip] of STATES) {
    test(`${state}: a double-forked process does not outlive its command (run_command and the test command)`, { skip }, () =>
      withBin(async (bin) => {
        // daemon.js escapes twice: a detached, unref'd node child, and a shell double fork with setsid.
        // Each would write its marker after a delay if it were still alive.
        const daemon = [
          "const { spawn, execSync } = require('child_process');",
          'const tag = process.argv[2];',
          "spawn('sh', ['-c', `sleep 1.5; echo late > late-node-${tag}`], { detached: true, stdio: 'ignore' }).unref();",
          "execSync(`(setsid sh -c 'sleep 1.5; echo late > late-setsid-${tag}' </dev/null >/dev/null 2>&1 &)`);",
          "console.log('daemons started');",
        ].join('\n');
        const arena = createArena({ files: { 'daemon.js': daemon } });
        try {
          // Without a sandbox, auto mode asks before `node daemon.js` as run_command; the test command runs it anyway.
          const run = await runAgent(
            arena,
            [turn(call('cmd', 'run_command', { command: 'node daemon.js cmd' })), turn(call('tests', 'run_tests', {})), finish()],
            {
              mode: 'auto',
              // Trusted: an untrusted workspace's test command asks first without a sandbox (policy/launch, attacked elsewhere).
              args: ['--test-cmd', 'node daemon.js test', '--trust-workspace'],
              env: envFor(state, bin),
            },
          );
          assert.equal(run.code, 0, run.stderr);
          if (state === 'sandboxed') assert.match(run.results.get('cmd') ?? '', /daemons started/);
          assert.match(run.results.get('tests') ?? '', /tests passed/);
          await new Promise((r) => setTimeout(r, 2500));
          const late = readdirSync(arena.ws).filter((f) => f.startsWith('late-'));
          assert.deepEqual(late, [], 'an escaped process wrote its marker after the command returned');
        } finally {
          arena.cleanup();
        }
      }),
    );
  }
});
