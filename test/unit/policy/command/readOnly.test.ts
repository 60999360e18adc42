import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatedCommands } from '../../../support/readOnlyShapes';
import { createFixture, type PolicyFixture } from './fixture';

let f: PolicyFixture;
const readOnly = (command: string) => (f.policy.check({ command, workspaceRoot: f.ws, cwd: f.ws, homeDir: f.home }) as { readOnly?: true }).readOnly === true;

/** Every file of the tree with its bytes, mode and mtime (git's index and locks aside: `git status` refreshes them; objects: a commit changes refs too). */
function snapshot(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const rel = path.relative(f.ws, full);
    if (rel === path.join('.git', 'index') || rel === path.join('.git', 'objects') || name.endsWith('.lock')) continue;
    const st = lstatSync(full);
    if (st.isDirectory()) snapshot(full, out.set(rel, 'dir'));
    else out.set(rel, `${st.mode} ${st.mtimeMs} ${st.isFile() ? createHash('sha1').update(readFileSync(full)).digest('hex') : 'link'}`);
  }
  return out;
}

before(async () => {
  f = await createFixture();
  const write = (rel: string, text: string) => writeFileSync(path.join(f.ws, rel), text);
  execFileSync('mkdir', ['-p', path.join(f.ws, 'sub')]);
  write('a.txt', 'foo\nbar\nfoo\n');
  write('b.txt', 'foo\nbaz\n');
  write('sub/c.txt', 'foo\n');
  // The project's code: whatever runs it leaves a file behind.
  write('lib.js', "require('fs').writeFileSync(__dirname + '/ran-lib', '1');\n");
  write('run.sh', 'touch "$(dirname "$0")/ran-script"\n');
  chmodSync(path.join(f.ws, 'run.sh'), 0o755);
  write('package.json', JSON.stringify({ scripts: { test: 'node lib.js' } }));
  write('Makefile', 'all:\n\ttouch ran-make\n');
  // Files named like options: a glob that expands to them turns into `--output=x`, `-delete`, `-i`.
  for (const name of ['--output=globbed', '-delete', '-i', '-ofile']) write(name, '');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: f.ws, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init');
  write('b.txt', 'foo\nqux\n');
});
after(() => f.dispose());

describe('read-only commands (run_command need not wait for the baseline test run)', () => {
  test('generated commands classified read-only change nothing in the workspace when run, and run none of its code', () => {
    const commands = generatedCommands(200);
    const classified = commands.filter((c) => readOnly(c.command));
    // The generator reaches both sides of the class.
    assert.ok(classified.length >= 50, `only ${classified.length} of ${commands.length} generated commands were read-only`);
    assert.ok(commands.length - classified.length >= 70);
    const env = { PATH: process.env.PATH, HOME: f.home, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' };
    for (const { command } of classified) {
      const before = snapshot(f.ws);
      try {
        execFileSync('bash', ['-c', command], { cwd: f.ws, env, stdio: 'ignore', timeout: 10_000 });
      } catch {
        // A read-only command may fail (grep finds nothing); it still must not have written.
      }
      assert.deepEqual(snapshot(f.ws), before, `read-only command changed the workspace: ${command}`);
    }
    for (const marker of ['ran-lib', 'ran-script', 'ran-make']) assert.equal(existsSync(path.join(f.ws, marker)), false, marker);
  });

  test('a command with any part that writes, runs project code or runs a shell string is never read-only', () => {
    const wrong = generatedCommands(600, 31).filter((c) => c.writes && readOnly(c.command));
    assert.deepEqual(
      wrong.map((c) => c.command),
      [],
    );
  });

  test("the brief's shapes", () => {
    for (const c of ['git log -p a.txt', 'ls', 'cat a.txt', 'grep -rn foo .', 'git diff', 'git log -p a.txt | head -40', 'cd sub && ls -la'])
      assert.equal(readOnly(c), true, c);
    for (const c of [
      'node -e "console.log(require(\'./lib\').x)"',
      'sed -i s/a/b/ a.txt',
      'find . -exec cat {} +',
      'sort -o x a.txt',
      'git commit -m x',
      'ls > listing',
    ])
      assert.equal(readOnly(c), false, c);
  });
});
