// The protected guard and the hidden home around runCommand, with real processes: without a sandbox
// a protected file a command rewrote or deleted gets its bytes back and a new one is moved aside; in
// the sandbox the home is hidden but for named exceptions, and ignored files (and their hard links) read empty.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { probeSandbox, runCommand } from '../../../src/core/sandbox';

const sandbox = probeSandbox();
let ws: string;
let home: string;

before(() => {
  ws = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'pp-guard-ws-')));
  home = realpathSync(mkdtempSync(path.join('/var/tmp', 'pp-guard-home-')));
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
  writeFileSync(path.join(ws, '.env'), 'DB_PASSWORD=hunter2-hunter2\n');
  writeFileSync(path.join(ws, '.gitignore'), 'dist/\n');
  writeFileSync(path.join(ws, '.patchpilotignore'), 'secrets/\n');
  mkdirSync(path.join(ws, 'secrets'));
  writeFileSync(path.join(ws, 'secrets', 'key.pem'), 'PEM-SECRET-0123456789\n');
  linkSync(path.join(ws, 'secrets', 'key.pem'), path.join(ws, 'copy.pem'));
  mkdirSync(path.join(home, '.gradle'));
  writeFileSync(path.join(home, '.gradle', 'gradle.properties'), 'repoPassword=GRADLE-SECRET\n');
  mkdirSync(path.join(home, '.m2', 'repository'), { recursive: true });
  writeFileSync(path.join(home, '.m2', 'repository', 'lib.jar'), 'jar');
});

after(() => {
  for (const d of [ws, home]) rmSync(d, { recursive: true, force: true });
});

describe('protected guard (real processes)', () => {
  test('without a sandbox: rewritten and deleted protected files are restored, new ones moved aside, the output says so', async () => {
    const r = await runCommand({
      command:
        "printf '[core]\\n\\tfsmonitor = touch /tmp/x\\n' > .git/config; rm .gitignore; echo hi > .envrc; mkdir -p .github/workflows; echo on > .github/workflows/ci.yml",
      cwd: ws,
      workspaceRoot: ws,
      homeDir: home,
      sandbox: 'off',
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(readFileSync(path.join(ws, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
    assert.equal(readFileSync(path.join(ws, '.gitignore'), 'utf8'), 'dist/\n');
    assert.equal(existsSync(path.join(ws, '.envrc')), false);
    assert.equal(existsSync(path.join(ws, '.github', 'workflows')), false);
    const byPath = Object.fromEntries(r.protectedChanges.map((c) => [c.path, `${c.change}/${c.action}`]));
    assert.deepEqual(byPath, {
      '.git/config': 'modified/restored',
      '.gitignore': 'deleted/restored',
      '.envrc': 'created/moved-aside',
      '.github/workflows': 'created/moved-aside',
    });
    const moved = r.protectedChanges.find((c) => c.path === '.envrc')!.movedTo!;
    assert.equal(readFileSync(path.join(ws, moved), 'utf8'), 'hi\n', 'what the command made is kept in the quarantine');
  });

  test('without a sandbox: the content of an ignored file is cut from the output, whatever printed it', async () => {
    const r = await runCommand({ command: 'cat copy.pem; date -f .env 2>&1 || true', cwd: ws, workspaceRoot: ws, homeDir: home, sandbox: 'off' });
    assert.doesNotMatch(r.stdout, /PEM-SECRET/);
    assert.match(r.stdout, /\[redacted: content of (secrets\/key\.pem|copy\.pem)/);
    assert.ok(r.redactions >= 1);
  });

  test(
    'in the sandbox: the home is hidden but for toolchain exceptions; ignored files and their hard links read empty',
    { skip: sandbox.available ? false : sandbox.message },
    async () => {
      const r = await runCommand({
        command: `cat ${home}/.gradle/gradle.properties 2>&1; ls ${home}/.m2/repository; cat secrets/key.pem copy.pem; echo end`,
        cwd: ws,
        workspaceRoot: ws,
        homeDir: home,
      });
      assert.equal(r.sandboxed, true);
      assert.doesNotMatch(r.stdout, /GRADLE-SECRET/);
      assert.match(r.stdout, /No such file/);
      assert.match(r.stdout, /lib\.jar/, 'a toolchain cache stays readable');
      assert.doesNotMatch(r.stdout, /PEM-SECRET|redacted/, 'the masked files are empty: nothing to redact');
      assert.match(r.stdout, /end/);
      assert.deepEqual(readdirSync(path.join(ws, 'secrets')), ['key.pem'], 'the mask changed nothing on disk');
    },
  );
});
