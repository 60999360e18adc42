import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkPath, ConfinementError, createIgnoreFilter, openConfined, writeConfined } from '../../../../src/core/policy/path';
import { makeFixture, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => (fx = makeFixture()));
afterEach(() => fx.cleanup());

describe('createIgnoreFilter', () => {
  test('no file: nothing ignored; the file is picked up, changed and removed live', () => {
    const filter = createIgnoreFilter(fx.ws);
    fx.file('.env');
    assert.equal(filter.isIgnored('.env'), false);
    const ignoreFile = path.join(fx.ws, '.patchpilotignore');
    writeFileSync(ignoreFile, '.env\n');
    assert.equal(filter.isIgnored('.env'), true);
    assert.equal(filter.isIgnored(path.join(fx.ws, '.env')), true, 'absolute paths work too');
    // Same size, different content, mtime forced equal to before: the inode/ctime stamp still changes.
    writeFileSync(ignoreFile, '.foo\n');
    utimesSync(ignoreFile, new Date(0), new Date(0));
    assert.equal(filter.isIgnored('.env'), false);
    assert.equal(filter.isIgnored('.foo'), true);
    rmSync(ignoreFile);
    assert.equal(filter.isIgnored('.foo'), false);
  });
  test('directories: pattern with a slash matches the folder and all below; explain names the rule', () => {
    writeFileSync(path.join(fx.ws, '.patchpilotignore'), 'secret/\n!secret/ok.txt\n');
    fx.file('secret/ok.txt');
    const filter = createIgnoreFilter(fx.ws);
    assert.equal(filter.isIgnored('secret'), true, 'detected as a directory by stat');
    assert.equal(filter.isIgnored('secret/ok.txt'), true, 'git semantics: a file in an excluded folder cannot be re-included');
    assert.equal(filter.isIgnored('secret', false), false, 'an explicit file hint is respected');
    assert.deepEqual(filter.explain('secret/x'), { ignored: true, pattern: 'secret/' });
    assert.equal(filter.isIgnored('../elsewhere'), false, 'outside paths are not this filter’s business');
  });
  test('snapshot freezes the rules for a batch', () => {
    writeFileSync(path.join(fx.ws, '.patchpilotignore'), '*.key\n');
    const filter = createIgnoreFilter(fx.ws);
    const snap = filter.snapshot();
    writeFileSync(path.join(fx.ws, '.patchpilotignore'), '*.pem\n');
    assert.equal(snap('a.key'), true);
    assert.equal(filter.isIgnored('a.key'), false);
  });
  test('a directory named .patchpilotignore is reported, not crashed on', () => {
    mkdirSync(path.join(fx.ws, '.patchpilotignore'));
    const filter = createIgnoreFilter(fx.ws);
    assert.equal(filter.isIgnored('x'), false);
    assert.match(filter.loadError ?? '', /not a regular file/);
  });
});

describe('writeConfined / openConfined: the check-to-write gap', () => {
  test('writes, creates parents, keeps an existing mode, leaves no temp files', async () => {
    fx.file('src/a.ts', 'old');
    const r = await writeConfined(fx.ws, 'src/a.ts', 'new');
    assert.equal(r.realPath, path.join(fx.ws, 'src/a.ts'));
    assert.equal(readFileSync(r.realPath, 'utf8'), 'new');
    await writeConfined(fx.ws, 'n/e/w.txt', 'deep', { mkdirs: true });
    assert.equal(readFileSync(path.join(fx.ws, 'n/e/w.txt'), 'utf8'), 'deep');
    await writeConfined(fx.ws, 'src/a.ts', 'in place', { atomic: false });
    assert.equal(readFileSync(r.realPath, 'utf8'), 'in place');
    assert.deepEqual(readdirSync(path.join(fx.ws, 'src')), ['a.ts']);
  });
  test('a parent swapped for a symlink after the check is not followed', async () => {
    fx.file('dir/id_rsa', 'inside');
    const decision = await checkPath({ workspaceRoot: fx.ws, path: 'dir/id_rsa', operation: 'write' });
    assert.equal(decision.verdict, 'allow');
    // The swap, between check and write: dir becomes a link to the outside folder.
    renameSync(path.join(fx.ws, 'dir'), path.join(fx.ws, 'dir-old'));
    symlinkSync(fx.outside, path.join(fx.ws, 'dir'));
    for (const atomic of [true, false]) {
      await assert.rejects(writeConfined(fx.ws, decision.realPath!, 'pwned', { atomic }), ConfinementError);
    }
    await assert.rejects(openConfined(fx.ws, decision.realPath!), ConfinementError);
    assert.equal(readFileSync(path.join(fx.outside, 'id_rsa'), 'utf8'), 'PRIVATE KEY');
    assert.deepEqual(readdirSync(fx.outside).sort(), ['aws', 'id_rsa']);
  });
  test('a deeper parent chain swapped (a/b -> outside) is caught too', async () => {
    fx.file('a/b/c/f.txt', 'inside');
    const decision = await checkPath({ workspaceRoot: fx.ws, path: 'a/b/c/f.txt', operation: 'create' });
    rmSync(path.join(fx.ws, 'a/b'), { recursive: true });
    mkdirSync(path.join(fx.outside, 'c'));
    symlinkSync(fx.outside, path.join(fx.ws, 'a/b'));
    await assert.rejects(writeConfined(fx.ws, decision.realPath!, 'pwned', { mkdirs: true }), ConfinementError);
    assert.deepEqual(readdirSync(path.join(fx.outside, 'c')), []);
  });
  test('a final component swapped for a symlink: in place refuses, atomic replaces the link itself', async () => {
    fx.file('target.txt', 'inside');
    const decision = await checkPath({ workspaceRoot: fx.ws, path: 'target.txt', operation: 'write' });
    assert.equal(decision.verdict, 'allow');
    rmSync(path.join(fx.ws, 'target.txt'));
    symlinkSync(path.join(fx.outside, 'id_rsa'), path.join(fx.ws, 'target.txt'));
    await assert.rejects(writeConfined(fx.ws, decision.realPath!, 'pwned', { atomic: false }), ConfinementError);
    await assert.rejects(openConfined(fx.ws, decision.realPath!, 'r+'), ConfinementError);
    await writeConfined(fx.ws, decision.realPath!, 'replaced');
    assert.equal(lstatSync(path.join(fx.ws, 'target.txt')).isSymbolicLink(), false);
    assert.equal(readFileSync(path.join(fx.ws, 'target.txt'), 'utf8'), 'replaced');
    assert.equal(readFileSync(path.join(fx.outside, 'id_rsa'), 'utf8'), 'PRIVATE KEY');
  });
  test('a path through an in-workspace link must be passed as its real path', async () => {
    fx.file('src/a.ts', 'x');
    symlinkSync('src', path.join(fx.ws, 'src-link'));
    await assert.rejects(writeConfined(fx.ws, 'src-link/a.ts', 'y'), ConfinementError);
    const d = await checkPath({ workspaceRoot: fx.ws, path: 'src-link/a.ts', operation: 'write' });
    await writeConfined(fx.ws, d.realPath!, 'y');
    assert.equal(readFileSync(path.join(fx.ws, 'src/a.ts'), 'utf8'), 'y');
  });
  test('hard links: in-place writes refuse, atomic writes break the link instead of writing through it', async () => {
    linkSync(path.join(fx.outside, 'id_rsa'), path.join(fx.ws, 'hl'));
    await assert.rejects(writeConfined(fx.ws, 'hl', 'pwned', { atomic: false }), /hard links/);
    assert.equal(readFileSync(path.join(fx.outside, 'id_rsa'), 'utf8'), 'PRIVATE KEY');
    await writeConfined(fx.ws, 'hl', 'own copy');
    assert.equal(readFileSync(path.join(fx.ws, 'hl'), 'utf8'), 'own copy');
    assert.equal(readFileSync(path.join(fx.outside, 'id_rsa'), 'utf8'), 'PRIVATE KEY');
    assert.equal(lstatSync(path.join(fx.ws, 'hl')).nlink, 1);
  });
  test('paths outside, the root itself and directories are refused', async () => {
    await assert.rejects(writeConfined(fx.ws, '../outside/x', 'x'), ConfinementError);
    await assert.rejects(writeConfined(fx.ws, '.', 'x'), ConfinementError);
    mkdirSync(path.join(fx.ws, 'd'));
    await assert.rejects(writeConfined(fx.ws, 'd', 'x'), /directory/);
  });
  test('openConfined reads a workspace file and refuses a link that leads out', async () => {
    fx.file('r.txt', 'hello');
    const { handle } = await openConfined(fx.ws, 'r.txt');
    try {
      assert.equal(await handle.readFile('utf8'), 'hello');
    } finally {
      await handle.close();
    }
    symlinkSync(path.join(fx.outside, 'id_rsa'), path.join(fx.ws, 'leak'));
    await assert.rejects(openConfined(fx.ws, 'leak'), ConfinementError);
  });
});
