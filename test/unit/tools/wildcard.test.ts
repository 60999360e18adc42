// Model-chosen patterns match in linear time. Each case here would take minutes to years
// as a backtracking RegExp; the automaton answers in milliseconds.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGlob, compileWildcard } from '../../../src/core/base/wildcard';
import { fileGlob } from '../../../src/core/tools/globPattern';

function timed<T>(f: () => T): [T, number] {
  const t = performance.now();
  const r = f();
  return [r, performance.now() - t];
}

describe('linear glob and wildcard matching', () => {
  const long = 'a'.repeat(5000);
  const catastrophic: [string, () => boolean][] = [
    ['glob *a*a*a*a*a*a*a*b', () => fileGlob('*a*a*a*a*a*a*a*b').test(long)],
    ['glob **/**/**/**/**/b', () => fileGlob('**/**/**/**/**/**/b').test(`${'a/'.repeat(2000)}c`)],
    ['glob **a**a**a**a**b', () => fileGlob('src/**a**a**a**a**a**b').test(`src/${'a/'.repeat(2000)}`)],
    ['glob nested braces', () => fileGlob(`${'{a,*a,**a,'.repeat(30)}b${'}'.repeat(30)}`).test(`${long}c`)],
    ['glob classes', () => fileGlob('*[a-z]*[a-z]*[a-z]*[a-z]*[a-z]*1').test(long)],
    ['command rule wildcard', () => compileWildcard('*a*a*a*a*a*a*a*a*b').test(long)],
    ['shell word glob', () => compileGlob('*a*a*a*a*a*a*a*a*b', { braces: false }).test(long)],
  ];
  for (const [name, run] of catastrophic) {
    test(`${name}: no match, at once`, () => {
      const [matched, ms] = timed(run);
      assert.equal(matched, false);
      // A hang detector, not a timing: backtracking takes minutes here, a loaded CI machine at most a second.
      assert.ok(ms < 10_000, `${name} took ${ms.toFixed(0)} ms`);
    });
  }

  test('still a full matcher: stars, classes, braces, directories', () => {
    const cases: [string, string, boolean][] = [
      ['*a*a*b', 'xaxaxb', true],
      ['*a*a*b', 'xaxb', false],
      ['src/**', 'src/a/b/c.ts', true],
      ['src/**/x.ts', 'src/x.ts', true],
      ['src/**/x.ts', 'src/a/b/x.ts', true],
      ['src/**/x.ts', 'srcx.ts', false],
      ['a/**b', 'a/x/yb', true],
      ['{src,test}/**/*.{ts,tsx}', 'test/u/a.tsx', true],
      ['{src,test}/**/*.{ts,tsx}', 'lib/a.ts', false],
      ['{a,{b,c}d}.md', 'cd.md', true],
      ['{a,{b,c}d}.md', 'c.md', false],
      ['[a-c]?.txt', 'bz.txt', true],
      ['[!a-c]?.txt', 'bz.txt', false],
      ['?', '/', false],
      ['[!a]', '/', false],
      ['x,y}', 'x,y}', true],
    ];
    for (const [pattern, text, expected] of cases) assert.equal(compileGlob(pattern).test(text), expected, `${pattern} ${text}`);
    assert.equal(compileWildcard('--out=*').test('--out=a/b'), true);
    assert.equal(compileWildcard('?.txt').test('/.txt'), true);
    assert.equal(compileWildcard('[a].txt').test('[a].txt'), true);
    assert.throws(() => compileGlob('x'.repeat(5000)), /longer than/);
  });
});
