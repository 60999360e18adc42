import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyParsedPatch, applyPatchToTexts } from '../../../../src/core/patch/plan';
import { filesOf, hunk, modify, patch } from './helpers';

/**
 * A hunk matched at a shifted indentation: each added line is re-indented relative to its nearest
 * matched line, except a line the model already wrote at the file's indentation.
 */

function applied(src: string, body: string[]): string {
  const r = applyParsedPatch(patch(modify('f', [hunk(body)])), filesOf({ f: src }));
  assert.equal(r.ok, true, r.error);
  return r.files[0]!.newText!;
}

const py = ['class Store:', '    def load(self):', '        data = read()', '        return data', ''].join('\n');

describe('mixed indentation in the added lines', () => {
  test("context written 4 too shallow; one added line in that frame, one already at the file's indentation", () => {
    const out = applied(py, [' def load(self):', '     data = read()', '+    check(data)', '+        log(data)', '     return data']);
    assert.equal(out, py.replace('        return data', '        check(data)\n        log(data)\n        return data'));
  });

  test("every added line already at the file's indentation", () => {
    const out = applied(py, [' def load(self):', '     data = read()', '+        check(data)', '+        log(data)', '     return data']);
    assert.equal(out, py.replace('        return data', '        check(data)\n        log(data)\n        return data'));
  });

  test('tabs: context without indentation, an added line already tab-indented', () => {
    const go = 'func f() {\n\tx := 1\n\treturn x\n}\n';
    const out = applied(go, [' x := 1', '+y := 2', '+\tz := 3', ' return x']);
    assert.equal(out, 'func f() {\n\tx := 1\n\ty := 2\n\tz := 3\n\treturn x\n}\n');
  });

  test('a line deeper than its neighbours after a block opener is shifted, not taken as already fitting', () => {
    const out = applied(py, [' def load(self):', '     data = read()', '+    if not data:', '+        return None', '     return data']);
    assert.equal(out, py.replace('        return data', '        if not data:\n            return None\n        return data'));
  });

  test('2-space code written 2 too shallow: nested added lines follow the shift', () => {
    const js = ['export function f(xs) {', '  for (const x of xs) {', '    use(x);', '  }', '}', ''].join('\n');
    const out = applied(js, [' for (const x of xs) {', '+  if (!x) continue;', '   use(x);', ' }']);
    assert.equal(out, js.replace('    use(x);', '    if (!x) continue;\n    use(x);'));
  });

  test('continuation lines keep the shift', () => {
    const js = ['function g() {', '  return fetch(url)', '    .then(parse);', '}', ''].join('\n');
    const out = applied(js, [' return fetch(url)', '+  .then(check)', '   .then(parse);']);
    assert.equal(out, js.replace('    .then(parse);', '    .then(check)\n    .then(parse);'));
  });

  test("loosely matched hunk (context shifted unevenly): an added line at the file's indentation stays", () => {
    const src = ['def run():', '    a = 1', '    if a:', '        b = 2', '    return b', ''].join('\n');
    // The model lost different amounts of indentation on different context lines.
    const out = applied(src, [' def run():', '   a = 1', '  if a:', '+        c = 3', '      b = 2', '  return b']);
    assert.equal(out, src.replace('        b = 2', '        c = 3\n        b = 2'));
  });

  test('a loose match re-indents from the nearest line the result keeps, not from a removed line', () => {
    const src = [
      'class Box {',
      '    open() {',
      '        this.state = 0;',
      '        if (ready) {',
      '            this.start();',
      '        }',
      '    }',
      '}',
      '',
    ].join('\n');
    // SEARCH has `this.start()` 4 too shallow; REPLACE repeats it and adds a line beside it.
    const patch = [
      'box.js',
      '<<<<<<< SEARCH',
      '    open() {',
      '        this.state = 0;',
      '        if (ready) {',
      '        this.start();',
      '        }',
      '=======',
      '    open() {',
      '        this.state = 1;',
      '        if (ready) {',
      '        this.start();',
      '        this.log();',
      '        }',
      '>>>>>>> REPLACE',
      '',
    ].join('\n');
    const r = applyPatchToTexts(patch, new Map([['box.js', src]]));
    assert.equal(r.ok, true, r.error);
    // The lines beside `open() {` and the closing braces (kept, not shifted) stay as written.
    assert.equal(
      r.files[0]!.newText,
      src.replace('this.state = 0;', 'this.state = 1;').replace('            this.start();\n', '        this.start();\n        this.log();\n'),
    );
  });

  test("a block added at the file's depth under shifted context: the shifted reading would end a block where the file goes on deeper", () => {
    const js = ['function run(jobs) {', '  for (const j of jobs) {', '    start(j);', '  }', '  report();', '}', ''].join('\n');
    // Context 2 too deep; the added `if` block written at the file's depth (2), where shifted it would sit at 0.
    const out = applied(js, ['     start(j);', '   }', '+  if (!jobs.length) {', '+    warn();', '+  }', '   report();']);
    assert.equal(out, js.replace('  report();', '  if (!jobs.length) {\n    warn();\n  }\n  report();'));
  });

  test('lines with less indentation than the shift removes can only be as written', () => {
    const py2 = ['def a():', '    return 1', '', 'def b():', '    return 2', ''].join('\n');
    // Context 4 too deep; the new function is written at column 0 (shifting it would crush its body).
    const out = applied(py2, ['         return 1', '+', '+def c():', '+    return 3', ' ', '     def b():']);
    assert.equal(out, py2.replace('    return 1\n', '    return 1\n\ndef c():\n    return 3\n'));
  });

  test('a consistently shifted hunk is still shifted as a whole', () => {
    const js = ['function run(jobs) {', '  for (const j of jobs) {', '    start(j);', '  }', '  report();', '}', ''].join('\n');
    const out = applied(js, ['       start(j);', '+      log(j);', '     }', '     report();']);
    assert.equal(out, js.replace('    start(j);', '    start(j);\n    log(j);'));
  });

  test('refused: one run shows the model mixed the indentations, another fits either way', () => {
    const src = ['class Q {', '    push(x) {', '        this.items.push(x);', '    }', '', '    reset() {', '    }', '}', ''].join('\n');
    // Context 2 too deep. The first added block is at the file's depth (shifted, it would sit at 2
    // between two lines at 4); the line added to the empty method fits at 6 (shifted) or at 8 (as written).
    const body = [
      '       push(x) {',
      '           this.items.push(x);',
      '       }',
      '+    clear() {',
      '+        this.items = [];',
      '+    }',
      ' ',
      '       reset() {',
      '+        this.n = 0;',
      '       }',
    ];
    const r = applyParsedPatch(patch(modify('f', [hunk(body)])), filesOf({ f: src }));
    assert.equal(r.ok, false);
    assert.match(r.error ?? '', /2 spaces more than the file/);
    assert.match(r.error ?? '', /mix both indentations/);
    assert.match(r.error ?? '', /resend the hunk with the file's own indentation/);
  });

  test('the same line that fits either way, in a hunk that shows no mixing, is shifted', () => {
    const src = ['class Q {', '    reset() {', '    }', '}', ''].join('\n');
    const out = applied(src, ['       reset() {', '+        this.n = 0;', '       }']);
    assert.equal(out, src.replace('    reset() {\n', '    reset() {\n      this.n = 0;\n'));
  });
});

describe('mixed indentation: where the shifted reading is out of place', () => {
  test("Markdown, context a tab too deep: a heading in the context's frame, list items already at the file's (a shift would crush them)", () => {
    const md = ['# T', '', 'intro', '', '## Old', '', '## Next', ''].join('\n');
    const out = applied(md, [' \tintro', ' ', '-\t## Old', '+\t## Info', '+', '+- one', '+- two', ' ', ' \t## Next']);
    // The crushed items are read as written; the heading, apart from them, is shifted (a tab deeper would sit under no opener).
    assert.equal(out, md.replace('## Old\n', '## Info\n\n- one\n- two\n'));
  });

  test('a statement shallower than the closing brace above it is not where code sits: read as written', () => {
    const js = ['function f(xs) {', '  if (!xs) {', '    return;', '  }', '}', ''].join('\n');
    // Context 2 too deep; the added chain at the file's depth (2). Shifted, `xs` would sit at 0 after `  }`, still inside f.
    const out = applied(js, ['       return;', '     }', '+  xs', '+    .forEach(go)', '   }']);
    assert.equal(out, js.replace('  }\n}', '  }\n  xs\n    .forEach(go)\n}'));
  });

  test('a line shallower than a bracket opener above it is not its body: read as written', () => {
    const js = ['function f(x) {', '  if (x) {', '  }', '}', ''].join('\n');
    // Context 4 too deep; the body written at the file's depth (4). Shifted it would sit at 0 under `  if (x) {`.
    const out = applied(js, ['       if (x) {', '+    note(x);', '       }']);
    assert.equal(out, js.replace('  if (x) {\n', '  if (x) {\n    note(x);\n'));
  });

  test('a comment deeper than a chained call is out of place: the call is read as written', () => {
    const js = ['const r = xs', '  .split()', '  // keep the good ones', '  .filter(ok)', '  // then count', '  .length;', ''].join('\n');
    // Context 2 too deep; `.map` at the file's depth. Shifted to 0 it would have the comment below sitting deeper.
    const out = applied(js, ['     // keep the good ones', '-    .filter(ok)', '+  .filter(good)', '     // then count']);
    assert.equal(out, js.replace('.filter(ok)', '.filter(good)'));
  });

  test('a rewritten list item keeps its depth in the file', () => {
    const md = [' * deps: a@1', '   - fix one', '   - fix two', '   - fix three', ''].join('\n');
    // Context 2 too deep; the rewritten item written at the file's depth (3), like the removed one there
    // (shifted, at 1 under `* deps`, it would also fit).
    const out = applied(md, ['      - fix one', '-      - fix two', '+   - fix 2', '      - fix three']);
    assert.equal(out, md.replace('fix two', 'fix 2'));
  });

  test('ambiguous: the context matches as written on a nested copy away from the line numbers, and shifted where they point', () => {
    const src = ['describe(() => {', '  it(() => {', '    t.test(() => {', '      done();', '    });', '    done();', '  });', '});', ''].join('\n');
    // Meant for lines 6-7 (`done();` at 4, `});` at 2), written 2 deeper: as written it matches lines 4-5 exactly.
    const p = ['--- a/f.js', '+++ b/f.js', '@@ -6,2 +6,3 @@', '       done();', '+    log();', '     });', ''].join('\n');
    const r = applyPatchToTexts(p, new Map([['f.js', src]]));
    assert.equal(r.ok, false);
    assert.match(r.error ?? '', /matches as written at line 4, but also, indented differently, at line 6 where its line numbers point/);
  });

  test('clear: the same hunk whose numbers point at its as-written match is applied there', () => {
    const src = ['describe(() => {', '  it(() => {', '    t.test(() => {', '      done();', '    });', '    done();', '  });', '});', ''].join('\n');
    const p = ['--- a/f.js', '+++ b/f.js', '@@ -4,2 +4,3 @@', '       done();', '+      log();', '     });', ''].join('\n');
    const r = applyPatchToTexts(p, new Map([['f.js', src]]));
    assert.equal(r.ok, true, r.error);
    assert.equal(r.files[0]!.newText, src.replace('      done();\n', '      done();\n      log();\n'));
  });
});
