// The patch benchmark's case generators: each corruption does what its kind says, the expected
// result is right (checked by really applying the uncorrupted equivalents), and it is seeded.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { diffHunks, findBlock, oldSide, splitLines } from '../../../bench/patch/diff-model';
import type { SourcePair, VersionFiles } from '../../../bench/patch/corpus/pairs';
import { makeCases } from '../../../bench/patch/corpus/build';
import { KINDS } from '../../../bench/patch/kinds';
import type { BenchCase, Kind } from '../../../bench/patch/kinds/types';
import { generateLargeFile, editLargeFile } from '../../../bench/patch/perf';
import { Rng } from '../../../bench/patch/rng';
import { applyWithJsdiff } from '../../../bench/patch/tools/jsdiff';
import { filesEqual, outcome } from '../../../bench/patch/score';

function pairOf(path: string, oldText: string, newText: string): SourcePair {
  return { source: `fixture@1..2:${path}`, pkg: 'fixture', from: '1', to: '2', path, oldText, newText, hunks: diffHunks(oldText, newText) };
}

function fixture(seed: number): VersionFiles {
  const rng = new Rng(seed);
  const changed: SourcePair[] = [];
  const oldFiles = new Map<string, string>();
  for (const name of ['lib/a.js', 'lib/b.js', 'lib/c.js']) {
    const old = generateLargeFile(rng, 150);
    // Quotes, dashes and a no-break candidate so the typographic kind has something to change.
    old.splice(5, 0, `  const label = 'name' + "x"; // a - b -- c`);
    const oldText = old.join('\n') + '\n';
    const newText = editLargeFile(rng, old, 3).join('\n') + '\n';
    oldFiles.set(name, oldText);
    changed.push(pairOf(name, oldText, newText));
  }
  oldFiles.set('README.md', '# fixture\n\nSome text.\n');
  return { pair: { pkg: 'fixture', from: '1', to: '2' }, oldFiles, changed };
}

function casesFor(kind: Kind, seed = 3): BenchCase[] {
  return makeCases([fixture(seed)], { seed, limit: 0, maxFilesPerVersion: 12 }, [kind]);
}

const byName = (name: string): Kind => {
  const k = KINDS.find((x) => x.name === name);
  if (!k) throw new Error(name);
  return k;
};

const hunkHeaders = (patch: string): string[] => patch.split(/\r?\n/).filter((l) => l.startsWith('@@'));

/** The first file of a case, as [path, text]; every case has at least one. */
function firstFile(c: BenchCase): [path: string, text: string] {
  const [entry] = Object.entries(c.files);
  assert.ok(entry, `${c.id} has no file`);
  return entry;
}

describe('patch benchmark corpus', () => {
  test('every kind makes cases from the fixture, and every case is well formed', () => {
    for (const kind of KINDS) {
      const cases = casesFor(kind);
      // Three files with three separate edits each: every kind fits at least two of them.
      assert.ok(cases.length >= 2, `${kind.name} made ${cases.length} cases`);
      for (const c of cases) {
        assert.equal(c.kind, kind.name);
        assert.ok(c.patch.length > 0);
        assert.equal(c.expected === null, kind.expectation === 'refuse', c.id);
      }
    }
  });

  test('same seed, same corpus; another seed changes the random corruptions', () => {
    const a = makeCases([fixture(3)], { seed: 3, limit: 0, maxFilesPerVersion: 12 });
    const b = makeCases([fixture(3)], { seed: 3, limit: 0, maxFilesPerVersion: 12 });
    assert.deepEqual(a, b);
    const c = makeCases([fixture(3)], { seed: 4, limit: 0, maxFilesPerVersion: 12 });
    const patches = (cs: BenchCase[], kind: string): string[] => cs.filter((x) => x.kind === kind).map((x) => x.patch);
    assert.notDeepEqual(patches(a, 'wrong-line-numbers'), patches(c, 'wrong-line-numbers'));
  });

  test('patches that stay valid unified diffs apply exactly with a strict reference (jsdiff): the expected file is right', () => {
    for (const name of [
      'clean',
      'dropped-context',
      'extra-context',
      'path-prefix',
      'multi-file',
      'new-or-deleted-file',
      'crlf-patch-lf-file',
      'lf-patch-crlf-file',
    ]) {
      for (const c of casesFor(byName(name))) {
        const r = applyWithJsdiff(c);
        assert.equal(r.status, 'applied', `${c.id}: ${r.error}`);
        assert.ok(c.expected && r.files && filesEqual(r.files, c.expected), c.id);
        assert.equal(outcome(c, { ...r, ms: 0 }, true), 'exact');
      }
    }
  });

  test('wrong and missing line numbers change only the headers', () => {
    const clean = new Map(casesFor(byName('clean')).map((c) => [c.source, c.patch]));
    for (const name of ['wrong-line-numbers', 'missing-line-numbers']) {
      for (const c of casesFor(byName(name))) {
        const original = clean.get(c.source) as string;
        const body = (p: string): string[] => p.split('\n').filter((l) => !l.startsWith('@@'));
        assert.deepEqual(body(c.patch), body(original));
        const before = hunkHeaders(original);
        const after = hunkHeaders(c.patch);
        assert.equal(after.length, before.length);
        if (name === 'missing-line-numbers') assert.ok(after.every((h) => h === '@@'));
        else after.forEach((h, i) => assert.notEqual(h, before[i], c.id));
      }
    }
  });

  test('hunks out of order holds the same hunks in another order', () => {
    for (const c of casesFor(byName('hunks-out-of-order'))) {
      const clean = casesFor(byName('clean')).find((x) => x.source === c.source) as BenchCase;
      assert.notDeepEqual(hunkHeaders(c.patch), hunkHeaders(clean.patch));
      assert.deepEqual([...hunkHeaders(c.patch)].sort(), [...hunkHeaders(clean.patch)].sort());
    }
  });

  test('indentation drift shifts every non-blank hunk line by the same amount', () => {
    for (const c of casesFor(byName('indentation-drift'))) {
      const clean = casesFor(byName('clean')).find((x) => x.source === c.source) as BenchCase;
      const lines = (p: string): string[] => p.split('\n').filter((l) => /^[ +-]/.test(l) && !/^(---|\+\+\+) /.test(l));
      const shifted = lines(c.patch);
      const original = lines(clean.patch);
      assert.equal(shifted.length, original.length);
      const deltas = new Set<number>();
      shifted.forEach((l, i) => {
        const o = original[i];
        assert.ok(o !== undefined); // the lengths are equal
        if (o.slice(1).trim() === '') return assert.equal(l, o);
        assert.equal(l.slice(1).trim(), o.slice(1).trim());
        deltas.add(l.length - o.length);
      });
      assert.equal(deltas.size, 1, `${c.id}: one shift for the whole patch`);
      assert.ok([2, -2, 1, -1].some((d) => deltas.has(d)));
      const [, file] = c.source.split(':');
      assert.ok(file !== undefined, `${c.source} names a file`);
      assert.deepEqual(c.expected, { [file]: clean.expected?.[file] });
    }
  });

  test('trailing whitespace touches only the ends of context and removed lines', () => {
    for (const c of casesFor(byName('trailing-whitespace'))) {
      const clean = casesFor(byName('clean')).find((x) => x.source === c.source) as BenchCase;
      const a = c.patch.split('\n');
      const b = clean.patch.split('\n');
      assert.equal(a.length, b.length);
      let changed = 0;
      a.forEach((l, i) => {
        if (l === b[i]) return;
        changed++;
        assert.ok(l[0] === ' ' || l[0] === '-', `only context/removed lines: ${l}`);
        assert.equal(l.trimEnd(), b[i]?.trimEnd());
      });
      assert.ok(changed > 0);
    }
  });

  test('typographic substitutions stay in context lines and map back to the clean patch', () => {
    const ascii = (s: string): string =>
      s
        .replace(/[\u2018\u2019]/g, "'")
        .replace(/[\u201c\u201d]/g, '"')
        .replace(/\u2013/g, '-')
        .replace(/\u2014/g, '--')
        .replace(/\u00a0/g, ' ');
    for (const c of casesFor(byName('unicode-punctuation'))) {
      const clean = casesFor(byName('clean')).find((x) => x.source === c.source) as BenchCase;
      assert.notEqual(c.patch, clean.patch);
      assert.equal(ascii(c.patch), clean.patch);
      for (const l of c.patch.split('\n')) if (/[\u2018-\u201d\u2013\u2014\u00a0]/.test(l)) assert.equal(l[0], ' ');
    }
  });

  test('SEARCH/REPLACE and apply_patch cases carry the same change', () => {
    for (const c of casesFor(byName('search-replace'))) {
      const [path, before] = firstFile(c);
      let text = before;
      for (const block of c.patch.split('>>>>>>> REPLACE').slice(0, -1)) {
        const [, body] = block.split('<<<<<<< SEARCH\n');
        assert.ok(body !== undefined, `a SEARCH marker in ${c.id}`);
        const [search, replace] = body.split('=======\n');
        assert.ok(search !== undefined && replace !== undefined, `a ======= divider in ${c.id}`);
        assert.equal(text.split(search).length, 2, 'each SEARCH block is unique in the file');
        text = text.replace(search, () => replace);
      }
      assert.equal(text, c.expected?.[path]);
    }
    for (const c of casesFor(byName('apply-patch-envelope'))) {
      const lines = c.patch.trimEnd().split('\n');
      assert.equal(lines[0], '*** Begin Patch');
      assert.equal(lines[lines.length - 1], '*** End Patch');
      assert.match(lines[1] ?? '', /^\*\*\* Update File: lib\/[abc]\.js$/);
      assert.ok(
        lines.slice(2, -1).every((l) => /^(@@|[ +-]|\*\*\* End of File$)/.test(l) || l === ''),
        c.id,
      );
    }
  });

  test('missing + writes exactly one added line as context or unprefixed', () => {
    for (const c of casesFor(byName('missing-plus'))) {
      const clean = casesFor(byName('clean')).find((x) => x.source === c.source) as BenchCase;
      const plus = (p: string): number => p.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).length;
      assert.equal(plus(c.patch), plus(clean.patch) - 1, c.id);
      assert.equal(c.expectation, 'exact-or-refuse');
      assert.deepEqual(c.expected, clean.expected);
    }
  });

  test('ambiguous hunk: the old text occurs twice and no header points at either copy', () => {
    for (const c of casesFor(byName('ambiguous-hunk'))) {
      const [path, text] = firstFile(c);
      const file = splitLines(text);
      const hunk = c.patch
        .split('\n')
        .slice(3)
        .filter((l) => /^[ -]/.test(l))
        .map((l) => l.slice(1));
      const hits = findBlock(file, hunk);
      assert.equal(hits.length, 2, c.id);
      const [header] = hunkHeaders(c.patch);
      assert.ok(header !== undefined, `${c.id} has a hunk`);
      if (header !== '@@') {
        const start = Number(/^@@ -(\d+)/.exec(header)?.[1]);
        const [one = NaN, two = NaN] = hits; // two of them, checked above
        assert.equal(Math.abs(start - (one + 1)), Math.abs(start - (two + 1)), 'midpoint between the copies');
      }
      // Expected = input with the change at exactly one place, the copy untouched.
      const expected = splitLines(c.expected?.[path] ?? '');
      assert.equal(findBlock(expected, hunk).length, 1);
    }
  });

  test('wrong deleted line: one removed line altered so it matches no line of the file', () => {
    for (const c of casesFor(byName('wrong-deleted-line'))) {
      const [, text] = firstFile(c);
      const file = new Set(splitLines(text).map((l) => l.trim()));
      const removed = c.patch
        .split('\n')
        .filter((l) => l.startsWith('-') && !l.startsWith('---'))
        .map((l) => l.slice(1));
      assert.equal(removed.filter((l) => !file.has(l.trim())).length, 1, c.id);
      assert.equal(c.expected, null);
      // Any application of a must-refuse case is wrong; a refusal is not.
      assert.equal(outcome(c, { status: 'applied', files: c.files, ms: 0 }, true), 'wrong');
      assert.equal(outcome(c, { status: 'refused', ms: 0 }, true), 'refused');
    }
  });

  test('the old side of a real diff hunk is what the file holds at the header', () => {
    const v = fixture(5);
    for (const p of v.changed) {
      const file = splitLines(p.oldText);
      for (const h of p.hunks) assert.deepEqual(file.slice(h.oldStart - 1, h.oldStart - 1 + h.oldLines), oldSide(h));
    }
  });
});
