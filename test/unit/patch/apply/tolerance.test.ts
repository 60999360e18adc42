import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyParsedPatch } from '../../../../src/core/patch/plan';
import { filesOf, hunk, lines, modify, patch } from './helpers';

/** Applies one file's hunks and returns the new text (asserting success). */
function applyOk(text: string, hunks: ReturnType<typeof hunk>[], path = 'f.txt') {
  const r = applyParsedPatch(patch(modify(path, hunks)), filesOf({ [path]: text }));
  assert.equal(r.ok, true, r.error);
  return { text: r.files[0]!.newText!, result: r };
}

const py = ['def a():', '    x = 1', '    return x', '', 'def b():', '    y = 2', '    return y', ''].join('\n');

describe('tolerances: all apply exactly', () => {
  test('wrong line numbers are only a hint', () => {
    const { text, result } = applyOk(py, [
      hunk([' def b():', '-    y = 2', '+    y = 3', '     return y'], { oldStart: 40, oldCount: 3, newStart: 40, newCount: 3 }),
    ]);
    assert.equal(text, py.replace('y = 2', 'y = 3'));
    assert.deepEqual(result.files[0]!.hunks[0]!.range, { start: 5, end: 7 });
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'exact');
  });

  test('bare @@ (no numbers)', () => {
    const { text } = applyOk(py, [hunk([' def a():', '-    x = 1', '+    x = 10'])]);
    assert.equal(text, py.replace('x = 1\n', 'x = 10\n'));
  });

  test('hunks out of order are matched independently and applied bottom-up', () => {
    const { text } = applyOk(py, [hunk([' def b():', '-    y = 2', '+    y = 20']), hunk([' def a():', '-    x = 1', '+    x = 10', '+    x += 1'])]);
    assert.equal(text, py.replace('x = 1\n', 'x = 10\n    x += 1\n').replace('y = 2', 'y = 20'));
  });

  test('extra context lines beyond the usual three', () => {
    const { text } = applyOk(py, [hunk([' def a():', '     x = 1', '     return x', ' ', ' def b():', '-    y = 2', '+    y = 3', '     return y', ' '])]);
    assert.equal(text, py.replace('y = 2', 'y = 3'));
  });

  test('dropped context line in the middle keeps the file line', () => {
    const src = lines(20);
    const { text, result } = applyOk(src, [hunk([' line 5', ' line 7', '-line 8', '+LINE 8', ' line 9'])]);
    assert.equal(text, src.replace('line 8\n', 'LINE 8\n'));
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'fuzzy');
  });

  test('indentation drift: matched ignoring a consistent delta, added lines re-indented', () => {
    const src = 'class A:\n    def f(self):\n        if x:\n            return 1\n        return 2\n';
    // The model wrote the method 4 spaces too shallow.
    const { text, result } = applyOk(src, [hunk([' def f(self):', '     if x:', '-        return 1', '+        log()', '+        return 1', '     return 2'])]);
    assert.equal(text, 'class A:\n    def f(self):\n        if x:\n            log()\n            return 1\n        return 2\n');
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'indentation');
  });

  test('indentation drift with tabs in the file and spaces in the patch', () => {
    const src = 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n';
    const { text } = applyOk(src, [hunk(['     if x {', '-        return 1', '+        log()', '+        return 2', '     }'])]);
    assert.equal(text, 'func f() {\n\tif x {\n\t\tlog()\n\t\treturn 2\n\t}\n}\n');
  });

  test('trailing whitespace differences', () => {
    const src = 'a  \nb\t\nc\n';
    const { text, result } = applyOk(src, [hunk([' a', '-b', '+B', ' c  '])]);
    assert.equal(text, 'a  \nB\nc\n');
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'trailing-whitespace');
  });

  test('smart quotes in the patch context: context stays as in the file, added lines as in the patch', () => {
    const src = 'say("hello")\nx = 1 - 2\nend\n';
    const { text, result } = applyOk(src, [hunk([' say(\u201Chello\u201D)', '-x = 1 \u2013 2', '+x = 3', ' end'])]);
    assert.equal(text, 'say("hello")\nx = 3\nend\n');
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'unicode');
  });

  test('smart quotes and nbsp in the file, ASCII in the patch', () => {
    const src = 'msg = \u2018it\u2019s\u2019\nnext\u00A0line\n';
    const { text } = applyOk(src, [hunk([" msg = 'it's'", '-next line', '+changed'])]);
    assert.equal(text, 'msg = \u2018it\u2019s\u2019\nchanged\n');
  });

  test('whitespace collapsed inside lines', () => {
    const src = 'if (a  &&   b) {\n  go();\n}\n';
    const { text, result } = applyOk(src, [hunk([' if (a && b) {', '-  go();', '+  stop();', ' }'])]);
    assert.equal(text, 'if (a  &&   b) {\n  stop();\n}\n');
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'whitespace');
  });

  test('apply_patch anchors pick the match after the anchor line', () => {
    const src = 'def a():\n    return 0\n\ndef b():\n    return 0\n';
    const { text } = applyOk(src, [hunk(['-    return 0', '+    return 1'], { anchors: ['def b():'] })]);
    assert.equal(text, 'def a():\n    return 0\n\ndef b():\n    return 1\n');
  });

  test('atEndOfFile picks the match at the end', () => {
    const src = 'x\nend\ny\nend\n';
    const { text } = applyOk(src, [hunk([' end', '+after'], { atEndOfFile: true })]);
    assert.equal(text, 'x\nend\ny\nend\nafter\n');
  });

  test('an ambiguous hunk is placed by a credible header hint', () => {
    const src = 'a\n}\nb\nc\nd\ne\nf\ng\nh\n}\n';
    const { text } = applyOk(src, [hunk([' }', '+x'], { oldStart: 10, oldCount: 1 })]);
    assert.equal(text, 'a\n}\nb\nc\nd\ne\nf\ng\nh\n}\nx\n');
  });

  test('the hint follows the offset the other hunks showed', () => {
    // Every header is 100 lines off; the first hunk is unique and reveals the offset.
    const src = lines(30, (i) => (i % 10 === 0 ? 'return' : `l${i}`));
    const { text } = applyOk(src, [
      hunk([' l3', '-l4', '+L4'], { oldStart: 103, oldCount: 2 }),
      hunk([' l19', '-return', '+RETURN'], { oldStart: 119, oldCount: 2 }),
      hunk(['-return', '+RET'], { oldStart: 130, oldCount: 1 }),
    ]);
    assert.equal(
      text,
      src
        .replace('l4\n', 'L4\n')
        .replace('l19\nreturn', 'l19\nRETURN')
        .replace(/return\n$/, 'RET\n'),
    );
  });

  test('an unprefixed line (missing +) absent from the file is recovered as added', () => {
    const src = 'a\nb\nc\nd\n';
    const { text, result } = applyOk(src, [hunk([' a', ' b', '?new', ' c', ' d'])]);
    assert.equal(text, 'a\nb\nnew\nc\nd\n');
    assert.match(result.files[0]!.hunks[0]!.note ?? '', /unprefixed/);
  });

  test('unprefixed context lines that exist stay context', () => {
    const src = 'a\n\nb\nc\n';
    const { text } = applyOk(src, [hunk([' a', '?', '-b', '+B', ' c'])]);
    assert.equal(text, 'a\n\nB\nc\n');
  });

  test('a context line that is really new (space prefix instead of +) is recovered when the header counts say so', () => {
    const src = 'function f() {\n  one();\n  two();\n}\n';
    const body = [' function f() {', '   one();', '   inserted();', '   two();', ' }'];
    const { text } = applyOk(src, [hunk(body, { oldStart: 1, oldCount: 4, newStart: 1, newCount: 5 })]);
    assert.equal(text, 'function f() {\n  one();\n  inserted();\n  two();\n}\n');
    // Without counts, or with counts that tally it as context, it is a context line the model got
    // wrong (the file does not have it): refused, never turned into an added line.
    for (const extra of [{}, { oldStart: 1, oldCount: 5, newStart: 1, newCount: 5 }]) {
      const r = applyParsedPatch(patch(modify('f', [hunk(body, extra)])), filesOf({ f: src }));
      assert.equal(r.ok, false, JSON.stringify(extra));
    }
  });

  test('stale context at the hunk edge is trimmed when the file holds a look-alike line there', () => {
    const src = 'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\n';
    const { text, result } = applyOk(src, [hunk([' const a = 100;', ' const b = 2;', '-const c = 3;', '+const c = 30;', ' const d = 4;'])]);
    assert.equal(text, 'const a = 1;\nconst b = 2;\nconst c = 30;\nconst d = 4;\n');
    assert.equal(result.files[0]!.hunks[0]!.strategy, 'context-trimmed');
  });

  test('pure insertion into an empty file, at the start with context after it, and -0,0 on a file with lines refused', () => {
    assert.equal(applyOk('', [hunk(['+a', '+b'], { oldStart: 0, oldCount: 0 })]).text, 'a\nb\n');
    assert.equal(applyOk('b\nc\n', [hunk(['+a', ' b'], { oldStart: 1, oldCount: 1 })]).text, 'a\nb\nc\n');
    // `@@ -0,0` alone says the file was empty (git's reading), or "at the top": not certain.
    const r = applyParsedPatch(patch(modify('f', [hunk(['+a'], { oldStart: 0, oldCount: 0, newStart: 1, newCount: 1 })])), filesOf({ f: 'b\n' }));
    assert.equal(r.ok, false);
    assert.match(r.error!, /@@ -0,0`, which says the file was empty, but it has 1 line/);
  });

  test('a 6-hunk patch on a 10,000-line file', () => {
    const src = lines(10000, (i) => `const v${i} = ${i};`);
    const hunks = [9000, 100, 5000, 7000, 3000, 1].map((n) =>
      hunk([` const v${n} = ${n};`, ` const v${n + 1} = ${n + 1};`, `-const v${n + 2} = ${n + 2};`, `+const v${n + 2} = -1;`, ` const v${n + 3} = ${n + 3};`], {
        oldStart: n + 7,
      }),
    );
    const { text } = applyOk(src, hunks);
    let want = src;
    for (const n of [9000, 100, 5000, 7000, 3000, 1]) want = want.replace(`const v${n + 2} = ${n + 2};\n`, `const v${n + 2} = -1;\n`);
    assert.equal(text, want);
  });
});

describe('a missing + recovered only when its exact text is certain', () => {
  test('"+" dropped from an indented line: the raw line is the text (indentation of the neighbours)', () => {
    const src = 'function f() {\n  const a = 1;\n  const c = 3;\n  return a;\n}\n';
    // The model wrote `  const b = 2;` (no +): parsed as context "  const b = 2;" minus one space.
    const { text } = applyOk(src, [
      hunk([' function f() {', '   const a = 1;', '  const b = 2;', '   const c = 3;', '   return a;'], { oldStart: 1, oldCount: 4, newStart: 1, newCount: 5 }),
    ]);
    assert.equal(text, 'function f() {\n  const a = 1;\n  const b = 2;\n  const c = 3;\n  return a;\n}\n');
  });

  test('"+" turned into a space: the parsed text is the line', () => {
    const src = 'function f() {\n  const a = 1;\n  const c = 3;\n  return a;\n}\n';
    const { text } = applyOk(src, [
      hunk([' function f() {', '   const a = 1;', '   const b = 2;', '   const c = 3;', '   return a;'], {
        oldStart: 1,
        oldCount: 4,
        newStart: 1,
        newCount: 5,
      }),
    ]);
    assert.equal(text, 'function f() {\n  const a = 1;\n  const b = 2;\n  const c = 3;\n  return a;\n}\n');
  });

  test('a new line whose indentation matches neither neighbour is refused', () => {
    const src = 'if (x) {\n}\nnext();\nmore();\n';
    const r = applyParsedPatch(patch(modify('f', [hunk([' if (x) {', '     deeper();', ' }', ' next();'])])), filesOf({ f: src }));
    assert.equal(r.ok, false);
  });

  test('an edge line is recovered only when the header counts show one old line too many', () => {
    const src = '// take a string\nexport function f() {\n  return 1;\n}\n';
    const body = [' /**', ' * doc', '+ */', ' // take a string', ' export function f() {'];
    // Without counts: the top lines could be stale context, so refuse.
    assert.equal(applyParsedPatch(patch(modify('f', [hunk(body)])), filesOf({ f: src })).ok, false);
    const good = [' /**', '+ * doc', '+ */', ' // take a string', ' export function f() {'];
    const { text } = applyOk(src, [hunk(good, { oldStart: 1, oldCount: 2, newStart: 1, newCount: 5 })]);
    assert.equal(text, '/**\n * doc\n */\n// take a string\nexport function f() {\n  return 1;\n}\n');
  });
});
