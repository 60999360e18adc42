// The patch benchmark's peer-variant kinds: their expected results are right (checked with the real
// `git apply` for the unified ones) and each case really has the defect or format its kind names.
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { diffHunks } from '../../../bench/patch/diff-model';
import type { SourcePair, VersionFiles } from '../../../bench/patch/corpus/pairs';
import { makeCases } from '../../../bench/patch/corpus/build';
import { KINDS } from '../../../bench/patch/kinds';
import type { BenchCase } from '../../../bench/patch/kinds/types';
import { generateLargeFile, editLargeFile } from '../../../bench/patch/perf';
import { Rng } from '../../../bench/patch/rng';
import { parsePatch } from '../../../src/core/patch/parse';

const dirs: string[] = [];
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function fixture(seed: number): VersionFiles {
  const rng = new Rng(seed);
  const changed: SourcePair[] = [];
  for (const name of ['lib/a.js', 'lib/b.js', 'lib/c.js', 'lib/d.js']) {
    const old = generateLargeFile(rng, 160);
    const oldText = old.join('\n') + '\n';
    const newText = editLargeFile(rng, old, 3).join('\n') + '\n';
    changed.push({ source: `fixture@1..2:${name}`, pkg: 'fixture', from: '1', to: '2', path: name, oldText, newText, hunks: diffHunks(oldText, newText) });
  }
  return { pair: { pkg: 'fixture', from: '1', to: '2' }, oldFiles: new Map(changed.map((p) => [p.path, p.oldText])), changed };
}

function casesOf(name: string): BenchCase[] {
  const kind = KINDS.find((k) => k.name === name)!;
  return [1, 2, 3].flatMap((seed) => makeCases([fixture(seed)], { seed, limit: 0, maxFilesPerVersion: 12 }, [kind]));
}

/** `git apply` (with --unidiff-zero for -U0 patches) in a temp repo: the files it leaves. */
function gitApply(c: BenchCase, zero: boolean): Record<string, string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pp-bench-kind-'));
  dirs.push(dir);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  for (const [p, t] of Object.entries(c.files)) {
    mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    writeFileSync(path.join(dir, p), t);
  }
  writeFileSync(path.join(dir, '.patch'), c.patch);
  execFileSync('git', ['-c', 'core.autocrlf=false', 'apply', '--whitespace=nowarn', ...(zero ? ['--unidiff-zero'] : []), '.patch'], { cwd: dir });
  return Object.fromEntries(Object.keys(c.files).map((p) => [p, readFileSync(path.join(dir, p), 'utf8')]));
}

describe('patch benchmark: peer-variant kinds', () => {
  test('git -U0 and byte-exact endings: git apply gives exactly the expected bytes', () => {
    for (const [name, zero] of [
      ['unified-u0', true],
      ['eol-bytes', false],
    ] as const) {
      const cases = casesOf(name);
      assert.ok(cases.length >= 4, `${name}: ${cases.length} cases`);
      for (const c of cases) assert.deepEqual(gitApply(c, zero), c.expected, c.id);
    }
  });

  test('SEARCH/REPLACE variants parse as SEARCH/REPLACE and carry their format', () => {
    const marks: Record<string, RegExp> = {
      'sr-fence-tags': /^<(?:source|code|pre)/m,
      'sr-filename-fence': /^```\w*\nlib\/\w\.js\n```$/m,
      'sr-roo-headers': /^:start_line:\d+\n:end_line:\d+\n-------$/m,
      'sr-cline-markers': /^-{8,} SEARCH$/m,
      'sr-sequential': /\/\/ follow-up edit/,
    };
    for (const [name, mark] of Object.entries(marks)) {
      const cases = casesOf(name);
      assert.ok(cases.length >= 4, `${name}: ${cases.length} cases`);
      for (const c of cases) {
        assert.match(c.patch, mark, c.id);
        const parsed = parsePatch(c.patch);
        assert.ok(parsed.ok && parsed.value.format === 'search_replace', `${c.id}: ${parsed.ok ? parsed.value.format : parsed.error.message}`);
      }
    }
  });

  test('sequential blocks: the last SEARCH is text only an earlier REPLACE wrote', () => {
    for (const c of casesOf('sr-sequential')) {
      const search = c.patch.split('<<<<<<< SEARCH\n').at(-1)!.split('\n=======')[0]!;
      const file = Object.values(c.files)[0]!;
      assert.ok(!file.split('\n').includes(search), c.id);
    }
  });

  test('one-sided context: one hunk has context on one side of its insertion only; refusal expected', () => {
    const cases = casesOf('one-sided-context');
    assert.ok(cases.length >= 2, `${cases.length} cases`);
    for (const c of cases) {
      assert.equal(c.expected, null);
      const parsed = parsePatch(c.patch);
      assert.ok(parsed.ok);
      const oneSided = parsed.value.files[0]!.hunks.some((h) => {
        const kinds = h.lines.map((l) => l.kind);
        return (kinds[0] === 'add') !== (kinds[kinds.length - 1] === 'add');
      });
      assert.ok(oneSided, c.id);
    }
  });

  test('mixed indentation: context shifted, and at least one run of added lines left as the file has it', () => {
    for (const c of casesOf('mixed-indentation')) {
      const file = Object.values(c.expected!)[0]!.split('\n');
      const added = c.patch.split('\n').filter((l) => l[0] === '+' && !l.startsWith('+++') && l.slice(1).trim() !== '');
      assert.ok(
        added.some((l) => file.includes(l.slice(1))),
        c.id,
      );
      const context = c.patch.split('\n').filter((l) => l[0] === ' ' && l.trim() !== '');
      assert.ok(
        context.some((l) => !file.includes(l.slice(1))),
        c.id,
      );
    }
  });
});
