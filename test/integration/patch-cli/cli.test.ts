import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CLI = path.resolve('dist/cli.js');
const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function cli(args: string[], opts: { cwd?: string; input?: string } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd, input: opts.input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-cli-'));
  dirs.push(dir);
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 't@example.invalid');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'core.autocrlf', 'false');
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'base');
  return dir;
}

const SRC = 'function add(a, b) {\r\n  return a + b;\r\n}\r\n\r\nfunction sub(a, b) {\r\n  return a - b;\r\n}\r\n';
// Written by a model: LF, wrong line numbers, smart quotes nowhere, one hunk out of order.
const PATCH = `Here is the fix:

\`\`\`diff
--- a/src/math.js
+++ b/src/math.js
@@ -50,3 +50,4 @@
 function sub(a, b) {
-  return a - b;
+  // subtract
+  return a - b;
 }
@@ -1,3 +1,3 @@
 function add(a, b) {
-  return a + b;
+  return b + a;
 }
--- /dev/null
+++ b/NOTES.md
@@ -0,0 +1,1 @@
+notes
\`\`\`
`;

describe('patchpilot patch (real binary)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test('apply: exit 0, byte-exact CRLF result, and git apply of the reverse patch restores the repo', () => {
    const dir = repo({ 'src/math.js': '\uFEFF' + SRC });
    writeFileSync(path.join(dir, '..', path.basename(dir) + '.diff'), PATCH);
    const patchFile = path.join(dir, '..', path.basename(dir) + '.diff');
    dirs.push(patchFile);
    const dry = cli(['patch', 'apply', patchFile, '--cwd', dir, '--dry-run', '--json']);
    assert.equal(dry.code, 0, dry.stderr);
    const result = JSON.parse(dry.stdout);
    assert.equal(result.ok, true);
    assert.equal(result.dryRun, true);
    assert.equal(git(dir, 'status', '--porcelain'), '', 'dry run wrote nothing');

    const run = cli(['patch', 'apply', patchFile, '--cwd', dir]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /M src\/math\.js: ok\n  hunk #1 applied lines 5-7 exact/);
    assert.match(run.stdout, /A NOTES\.md: ok/);
    assert.equal(
      readFileSync(path.join(dir, 'src/math.js'), 'utf8'),
      '\uFEFF' + SRC.replace('  return a + b;', '  return b + a;').replace('  return a - b;', '  // subtract\r\n  return a - b;'),
    );
    assert.equal(readFileSync(path.join(dir, 'NOTES.md'), 'utf8'), 'notes\n');

    writeFileSync(patchFile + '.rev', result.reversePatch);
    git(dir, 'apply', patchFile + '.rev');
    dirs.push(patchFile + '.rev');
    assert.equal(git(dir, 'status', '--porcelain'), '', 'the reverse patch restored every byte');
  });

  test('apply from stdin with --json; refused: exit 1, reason, nothing written', () => {
    const dir = repo({ 'a.txt': 'one\ntwo\nthree\n' });
    const bad = '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-TWO\n+2\n three\n';
    const human = cli(['patch', 'apply', '-', '--cwd', dir], { input: bad });
    assert.equal(human.code, 1);
    assert.match(human.stderr, /a\.txt hunk #1 \(@@ -1,3 \+1,3 @@, patch line 3\): not found in the file/);
    assert.match(human.stderr, /line 2: patch "TWO"/);
    const json = cli(['patch', 'apply', '-', '--cwd', dir, '--json'], { input: bad });
    assert.equal(json.code, 1);
    const r = JSON.parse(json.stdout);
    assert.equal(r.ok, false);
    assert.equal(r.files[0].hunks[0].status, 'refused');
    assert.equal(git(dir, 'status', '--porcelain'), '');
    const good = cli(['patch', 'apply', '-', '--cwd', dir, '--json'], { input: bad.replace('-TWO', '-two') });
    assert.equal(good.code, 0, good.stderr);
    assert.equal(readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\n2\nthree\n');
  });

  test('--accept takes the hunk numbers the output shows (from 1); an unknown id is a usage error and writes nothing', () => {
    const dir = repo({ 'a.txt': 'a\nb\nc\nd\ne\nf\ng\nh\n' });
    const p = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -7,2 +7,2 @@\n g\n-h\n+H\n';
    const r = cli(['patch', 'apply', '-', '--cwd', dir, '--accept', 'a.txt#2'], { input: p });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /hunk #1 rejected\n  hunk #2 applied/);
    assert.equal(readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\nb\nc\nd\ne\nf\ng\nH\n');
    const json = JSON.parse(cli(['patch', 'apply', '-', '--cwd', dir, '--dry-run', '--json'], { input: p.replace('-h\n+H', '-H\n+h') }).stdout);
    assert.deepEqual(
      json.files[0].hunks.map((h: { id: string }) => h.id),
      ['a.txt#1', 'a.txt#2'],
      'the JSON ids use the same numbers',
    );

    git(dir, 'checkout', '--', 'a.txt');
    for (const bad of ['a.txt#0', 'a.txt#3', 'b.txt#1', 'a.txt']) {
      const u = cli(['patch', 'apply', '-', '--cwd', dir, '--accept', 'a.txt#1', '--accept', bad], { input: p });
      assert.equal(u.code, 2, `${bad}: ${u.stderr}`);
      assert.match(u.stderr, new RegExp(`unknown hunk id ${bad} for --accept: the patch's hunks are a\\.txt#1, a\\.txt#2`));
      assert.equal(git(dir, 'status', '--porcelain'), '', 'nothing written');
    }
  });

  test('--dry-run prints the diff it would apply (normalised: the placed hunks, not the text as sent)', () => {
    const dir = repo({ 'a.txt': 'one\ntwo\nthree\n' });
    const r = cli(['patch', 'apply', '-', '--cwd', dir, '--dry-run'], { input: '--- a/a.txt\n+++ b/a.txt\n@@ -40,2 +40,2 @@\n one\n-two\n+2\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /dry run: the patch would apply; nothing written\ndiff --git a\/a\.txt b\/a\.txt\n--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@ -1,3 \+1,3 @@\n one\n-two\n\+2\n three\n$/,
    );
    assert.equal(git(dir, 'status', '--porcelain'), '');
  });

  test('what the parser tolerated reaches the user as warnings on stderr (and in the JSON)', () => {
    const dir = repo({ 'a.txt': 'a\nb\n' });
    const fenced = 'Sure, here is the change:\n```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n```\nThat should do it.\n';
    const r = cli(['patch', 'apply', '-', '--cwd', dir, '--dry-run'], { input: fenced });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^patchpilot patch: warning: .*prose/m);
    const noEnd = cli(['patch', 'apply', '-', '--cwd', dir, '--json'], { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+B\n' });
    assert.equal(noEnd.code, 0, noEnd.stderr);
    assert.match(noEnd.stderr, /warning: .*\*\*\* End Patch/);
    assert.ok(JSON.parse(noEnd.stdout).warnings.some((w: string) => w.includes('End Patch')));
  });

  test('applied from the wrong folder: says which folder was searched, mentions --cwd, and names the folder that has the files', () => {
    const dir = repo({ 'src/a.txt': 'a\nb\n', 'src/deep/x.txt': 'x\n' });
    const p = '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n';
    const inside = cli(['patch', 'apply', '-', '--cwd', path.join(dir, 'src', 'deep')], { input: p });
    assert.equal(inside.code, 1);
    assert.match(inside.stderr, new RegExp(`looked for under ${escape(path.join(dir, 'src', 'deep'))}; .*--cwd DIR`));
    assert.match(inside.stderr, new RegExp(`src/a\\.txt exists under ${escape(dir)}: --cwd ${escape(dir)}\n`));
    const above = cli(['patch', 'apply', '-', '--cwd', path.dirname(dir)], { input: p });
    assert.equal(above.code, 1);
    assert.match(above.stderr, new RegExp(`exists under ${escape(dir)}: --cwd ${escape(dir)}`));
    assert.equal(git(dir, 'status', '--porcelain'), '');
  });

  test('usage errors exit 2', () => {
    const dir = repo({ 'a.txt': 'a\n' });
    assert.equal(cli(['patch', 'apply', path.join(dir, 'missing.diff'), '--cwd', dir]).code, 2);
    assert.equal(cli(['patch', 'apply', '-', '--bogus'], { input: '' }).code, 2);
    const trailing = cli(['patch', 'apply', '-', '--cwd', dir, '--verbose'], { input: '' });
    assert.equal(trailing.code, 2);
    assert.match(trailing.stderr, /unknown option --verbose/);
    const noValue = cli(['patch', 'apply', '-', '--cwd'], { input: '' });
    assert.equal(noValue.code, 2);
    assert.match(noValue.stderr, /--cwd needs a value/);
    assert.equal(cli(['patch', 'apply']).code, 2);
    assert.equal(cli(['patch', 'apply', '-', '--cwd', path.join(dir, 'nope')], { input: 'x' }).code, 2);
    assert.equal(cli(['patch']).code, 2);
    assert.equal(cli(['patch', 'frobnicate']).code, 2);
    assert.equal(cli(['patch', 'eval']).code, 2);
    assert.equal(cli(['patch', 'eval', '--jsonl', path.join(dir, 'none.jsonl')]).code, 2);
    const help = cli(['patch', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /patchpilot patch eval --jsonl FILE/);
  });

  test('eval: one output line per input line, complete file sets, malformed lines refused', () => {
    const lines = [
      {
        id: 'ok',
        files: { 'a.txt': 'a\nb\n', 'keep.txt': 'k\n', 'gone.txt': 'g\n', 'old.txt': 'o\n' },
        patch:
          '*** Begin Patch\n*** Update File: a.txt\n@@\n a\n-b\n+B\n*** Delete File: gone.txt\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n-o\n+O\n*** End Patch\n',
      },
      { id: 'no', files: { 'a.txt': 'a\n' }, patch: '--- a/a.txt\n+++ b/a.txt\n@@\n-zzz\n+y\n' },
    ].map((x) => JSON.stringify(x));
    const input = [lines[0], '{not json', '', JSON.stringify({ id: 'bad', files: { x: 1 }, patch: '' }), lines[1]].join('\n') + '\n';
    const r = cli(['patch', 'eval', '--jsonl', '-'], { input });
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(out.length, 4);
    assert.equal(out[0].id, 'ok');
    assert.equal(out[0].status, 'applied', out[0].error);
    assert.deepEqual(out[0].files, { 'a.txt': 'a\nB\n', 'keep.txt': 'k\n', 'new.txt': 'O\n' });
    assert.equal(typeof out[0].ms, 'number');
    assert.equal(out[1].status, 'refused');
    assert.match(out[1].error, /malformed input line/);
    assert.equal(out[2].id, 'bad');
    assert.equal(out[2].status, 'refused');
    assert.equal(out[3].id, 'no');
    assert.equal(out[3].status, 'refused');
    assert.deepEqual(out[3].files, { 'a.txt': 'a\n' });
    assert.match(out[3].error, /not found/);
  });
});
