import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { applyPatchToTexts, PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { seededRandom } from '../../support/seededRandom';

const FILES: Record<string, string> = {
  'src/a.ts': Array.from({ length: 40 }, (_, i) => `export const v${i} = ${i}; // item ${i % 7}`).join('\n') + '\n',
  'src/b.py': 'def f():\r\n    return 1\r\n\r\ndef g():\r\n    return 1\r\n',
  'README.md': '# Title\n\nSome “quoted” text — here.\nlast line',
};

function basePatches(rand: () => number): string[] {
  const a = FILES['src/a.ts']!;
  const i = Math.floor(rand() * 35);
  const changed = a.replace(`v${i} = ${i};`, `v${i} = -${i};`).replace(`v${i + 3} = ${i + 3};`, `v${i + 3} = 0;\nexport const extra = 1;`);
  return [
    createTwoFilesPatch('a/src/a.ts', 'b/src/a.ts', a, changed),
    createTwoFilesPatch('a/src/b.py', 'b/src/b.py', FILES['src/b.py']!, FILES['src/b.py']!.replace('return 1\r\n\r\n', 'return 2\r\n\r\n')),
    `*** Begin Patch\n*** Update File: README.md\n@@\n # Title\n-\n+Intro.\n*** Add File: new/x.txt\n+hello\n*** Delete File: src/b.py\n*** End Patch\n`,
    `src/a.ts\n<<<<<<< SEARCH\nexport const v${i} = ${i}; // item ${i % 7}\n=======\nexport const v${i} = 1;\n>>>>>>> REPLACE\n`,
    '--- /dev/null\n+++ b/made.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n',
  ];
}

const JUNK = [
  '@@',
  '@@ -1,3 +1,3 @@',
  '+',
  '-',
  ' ',
  '\\ No newline at end of file',
  '*** End Patch',
  '=======',
  '--- a/../../etc/passwd',
  '+++ /abs',
  '```',
  '\r',
  '\t',
  '\u201C',
  '\0',
];

function mutate(text: string, rand: () => number): string {
  const lines = text.split('\n');
  const n = 1 + Math.floor(rand() * 4);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(rand() * (lines.length + 1));
    switch (Math.floor(rand() * 6)) {
      case 0:
        return lines.slice(0, at).join('\n') + (rand() < 0.5 ? '' : (lines[at]?.slice(0, Math.floor(rand() * 5)) ?? ''));
      case 1:
        lines.splice(at, 1);
        break;
      case 2:
        lines.splice(at, 0, JUNK[Math.floor(rand() * JUNK.length)]!);
        break;
      case 3:
        if (lines[at]) lines[at] = lines[at]!.slice(1);
        break;
      case 4:
        if (lines[at]) lines[at] = ['+', '-', ' ', ''][Math.floor(rand() * 4)] + lines[at]!.slice(1);
        break;
      default:
        if (lines[at] !== undefined) lines.splice(at, 0, lines[at]!);
    }
  }
  return lines.join('\n');
}

function randomText(rand: () => number): string {
  const alphabet = ['@', '-', '+', ' ', '\n', 'a', '/', '*', '<', '=', '>', '\r', '\\', 'SEARCH', 'diff --git a/x b/x\n', '*** Begin Patch\n'];
  let s = '';
  const len = Math.floor(rand() * 120);
  for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function writeWorkspace(dir: string): void {
  for (const name of readdirSync(dir)) rmSync(path.join(dir, name), { recursive: true, force: true });
  for (const [p, t] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
}

function snapshot(dir: string): string {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, name.name);
      if (name.isDirectory()) walk(full);
      else out.push(`${path.relative(dir, full)}=${readFileSync(full, 'latin1')}`);
    }
  };
  walk(dir);
  return out.sort().join('\0');
}

describe('fuzz: random and truncated patches', () => {
  test('in memory: never throws; an applied patch is undone exactly by its reverse patch', () => {
    const rand = seededRandom(20260521);
    const files = new Map(Object.entries(FILES));
    let applied = 0;
    for (let c = 0; c < 3000; c++) {
      const bases = basePatches(rand);
      const text = c % 5 === 0 ? randomText(rand) : mutate(bases[c % bases.length]!, rand);
      const r = applyPatchToTexts(text, files);
      assert.equal(typeof r.ok, 'boolean', `case ${c}`);
      if (!r.ok) {
        assert.ok(r.error && r.error.length > 0, `case ${c}: a refusal needs a reason`);
        assert.equal(r.reversePatch, '', `case ${c}`);
        continue;
      }
      applied++;
      const afterState = new Map(files);
      for (const f of r.files) {
        if (f.oldPath && f.oldText !== undefined && f.newPath !== f.oldPath) afterState.delete(f.oldPath);
        if (f.newPath && typeof f.newText === 'string') afterState.set(f.newPath, f.newText);
      }
      if (!r.reversePatch) continue;
      const back = applyPatchToTexts(r.reversePatch, afterState);
      assert.equal(back.ok, true, `case ${c}: reverse refused: ${back.error}\n${text}`);
    }
    assert.ok(applied > 100, `only ${applied} mutated patches applied; the fuzz lost its teeth`);
  });

  test('on disk: never throws and never writes when refused', async () => {
    const rand = seededRandom(7);
    const dir = mkdtempSync(path.join(tmpdir(), 'pp-fuzz-'));
    dirs.push(dir);
    const mgr = new PatchManager({ root: dir, fs: new NodeWorkspaceFs(dir) });
    writeWorkspace(dir);
    const pristine = snapshot(dir);
    for (let c = 0; c < 600; c++) {
      const bases = basePatches(rand);
      const text = c % 4 === 0 ? randomText(rand) : mutate(bases[c % bases.length]!, rand);
      const r = await mgr.apply(text, { dryRun: c % 7 === 0 });
      if (!r.ok || r.dryRun) {
        assert.equal(snapshot(dir), pristine, `case ${c} wrote although ${r.ok ? 'dry run' : 'refused'}`);
        continue;
      }
      writeWorkspace(dir);
    }
    assert.equal(existsSync(path.join(dir, 'etc')), false);
  });
});
