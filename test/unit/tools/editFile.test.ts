import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { editFileTool } from '../../../src/core/tools/editFile';
import { proposePatchTool } from '../../../src/core/tools/proposePatch';
import { tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([editFileTool, proposePatchTool]);
const source = ['function add(a, b) {', '  return a - b;', '}', '', 'function sub(a, b) {', '  return a - b;', '}', ''].join('\n');

async function withFile(content: string, body: (h: { ctx: ReturnType<typeof fakeToolContext>; read(): string }) => Promise<void>, options = {}) {
  const ws = tempWorkspace({ 'src/m.js': content });
  const ctx = fakeToolContext(ws.root, { mode: 'auto-edit', patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }), ...options });
  try {
    await body({ ctx, read: () => readFileSync(path.join(ws.root, 'src/m.js'), 'utf8') });
  } finally {
    ws.cleanup();
  }
}

describe('edit_file', () => {
  test('the result says where each edit text is now: an insertion above moves the next edit down', async () => {
    // The relay: "at lines 16-18" named the matched old lines of an insertion whose text then filled 16-32.
    const long = [
      'function add(a, b) {',
      '  return a - b;',
      '}',
      ...Array.from({ length: 12 }, (_, i) => `// filler ${i}`),
      'function sub(a, b) {',
      '  return a - b;',
      '}',
      '',
    ].join('\n');
    await withFile(long, async ({ ctx, read }) => {
      const r = await tools.invoke(
        'edit_file',
        {
          path: 'src/m.js',
          edits: [
            { old_string: 'function add(a, b) {\n', new_string: 'function add(a, b) {\n  // one\n  // two\n  // three\n  // four\n' },
            { old_string: 'function sub(a, b) {\n  return a - b;', new_string: 'function sub(a, b) {\n  return b - a;' },
          ],
        },
        ctx,
      );
      assert.equal(r.ok, true, r.output);
      const lines = read().split('\n');
      const first = /src\/m\.js#1 now at lines (\d+)-(\d+)/.exec(r.output);
      const second = /src\/m\.js#2 now at lines (\d+)-(\d+)/.exec(r.output);
      assert.ok(first && second, r.output);
      // Each named range holds its edit's new text in the file as it is now.
      assert.ok(lines.slice(Number(first[1]) - 1, Number(first[2])).includes('  // four'), r.output);
      assert.ok(lines.slice(Number(second[1]) - 1, Number(second[2])).includes('  return b - a;'), r.output);
      assert.ok(Number(second[1]) > 16, r.output);
    });
  });

  test('a unique old_string is replaced through a derived unified diff', async () => {
    await withFile(source, async ({ ctx, read }) => {
      const r = await tools.invoke(
        'edit_file',
        { path: 'src/m.js', old_string: 'function add(a, b) {\n  return a - b;', new_string: 'function add(a, b) {\n  return a + b;' },
        ctx,
      );
      assert.equal(r.ok, true, r.output);
      assert.match(r.output, /^applied 1 hunk to src\/m\.js\n  src\/m\.js#1 now at lines 1-5/);
      assert.equal(read(), source.replace('return a - b;', 'return a + b;'));
      const data = r.data as { patch?: string; applied?: string[] };
      assert.match(
        data.patch ?? '',
        /^--- a\/src\/m\.js\n\+\+\+ b\/src\/m\.js\n@@ -1,5 \+1,5 @@\n function add\(a, b\) \{\n-  return a - b;\n\+  return a \+ b;\n/,
      );
      assert.deepEqual(data.applied, ['src/m.js#1']);
      assert.deepEqual([...ctx.state.changedFiles], ['src/m.js']);
    });
  });

  test('an old_string that occurs twice is refused with every occurrence, its line number and the line', async () => {
    await withFile(source, async ({ ctx, read }) => {
      const r = await tools.invoke('edit_file', { path: 'src/m.js', old_string: '  return a - b;', new_string: '  return a + b;' }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /old_string occurs 2 times in the file; it must occur once/);
      assert.match(r.output, /set replace_all/);
      assert.match(r.output, /\n  2 \|   return a - b;\n  6 \|   return a - b;/);
      assert.equal(read(), source);
    });
  });

  test('replace_all changes every occurrence, one hunk per place', async () => {
    await withFile(source, async ({ ctx, read }) => {
      const r = await tools.invoke('edit_file', { path: 'src/m.js', old_string: 'a - b', new_string: 'b - a', replace_all: true }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.equal(read(), source.replaceAll('a - b', 'b - a'));
    });
  });

  test('several edits in one call apply in order, each to what the one before left', async () => {
    await withFile(source, async ({ ctx, read }) => {
      const edits = [
        { old_string: 'function add(a, b) {\n  return a - b;', new_string: 'function add(a, b) {\n  return a + b;' },
        { old_string: 'function sub', new_string: 'function subtract' },
        { old_string: 'return a + b;', new_string: 'return b + a;' },
      ];
      const r = await tools.invoke('edit_file', { path: 'src/m.js', edits }, ctx);
      assert.equal(r.ok, true, r.output);
      assert.equal(read(), source.replace('return a - b;', 'return b + a;').replace('function sub', 'function subtract'));
    });
  });

  test('a failing edit among several changes nothing and names which edit failed', async () => {
    await withFile(source, async ({ ctx, read }) => {
      const edits = [
        { old_string: 'function sub', new_string: 'function subtract' },
        { old_string: 'function sub(', new_string: 'function minus(' },
      ];
      const r = await tools.invoke('edit_file', { path: 'src/m.js', edits }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /edits\[1\]: old_string was not found in the file \(in the file as the earlier edits of this call left it\)/);
      assert.equal(read(), source);
    });
  });

  test('a CRLF file keeps CRLF; the model writes \\n', async () => {
    const crlf = source.replace(/\n/g, '\r\n');
    await withFile(crlf, async ({ ctx, read }) => {
      const r = await tools.invoke(
        'edit_file',
        { path: 'src/m.js', old_string: 'function add(a, b) {\n  return a - b;', new_string: 'function add(a, b) {\n  // sum\n  return a + b;' },
        ctx,
      );
      assert.equal(r.ok, true, r.output);
      assert.equal(read(), crlf.replace('  return a - b;', '  // sum\r\n  return a + b;'));
    });
  });

  test('no-op edits are refused: the same text, or edits that undo each other', async () => {
    await withFile(source, async ({ ctx, read }) => {
      const same = await tools.invoke('edit_file', { path: 'src/m.js', old_string: 'function sub', new_string: 'function sub' }, ctx);
      assert.equal(same.ok, false);
      assert.match(same.output, /old_string and new_string are the same/);
      const undone = await tools.invoke(
        'edit_file',
        {
          path: 'src/m.js',
          edits: [
            { old_string: 'function sub', new_string: 'function minus' },
            { old_string: 'function minus', new_string: 'function sub' },
          ],
        },
        ctx,
      );
      assert.equal(undone.ok, false);
      assert.match(undone.output, /leave the file exactly as it is/);
      assert.equal(read(), source);
    });
  });

  test('a file that does not exist is refused, pointing to write_file', async () => {
    await withFile(source, async ({ ctx }) => {
      const r = await tools.invoke('edit_file', { path: 'src/missing.js', old_string: 'a', new_string: 'b' }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /src\/missing\.js does not exist; create it with write_file/);
    });
  });

  test('an old_string found nowhere is refused with the nearest lines, their numbers and the line that differs', async () => {
    await withFile(source, async ({ ctx }) => {
      const r = await tools.invoke('edit_file', { path: 'src/m.js', old_string: 'function sub(a, b) {\n    return a - b;', new_string: 'x' }, ctx);
      assert.equal(r.ok, false);
      assert.match(r.output, /old_string was not found in the file/);
      assert.match(
        r.output,
        /lines 5-6, 2 of 2 line\(s\) agree ignoring indentation; first difference at line 6 \(only whitespace differs\): old_string has "    return a - b;", the file has "  return a - b;"/,
      );
      assert.match(r.output, /\n  5 \| function sub\(a, b\) \{\n  6 \|   return a - b;/);
    });
  });

  test('one of old_string/new_string and edits, not both', async () => {
    await withFile(source, async ({ ctx }) => {
      const both = await tools.invoke('edit_file', { path: 'src/m.js', old_string: 'a', new_string: 'b', edits: [{ old_string: 'a', new_string: 'b' }] }, ctx);
      assert.match(both.output, /either old_string\/new_string or edits, not both/);
      const neither = await tools.invoke('edit_file', { path: 'src/m.js' }, ctx);
      assert.match(neither.output, /old_string and new_string are required/);
    });
  });

  test('plan mode only checks the derived patch', async () => {
    await withFile(
      source,
      async ({ ctx, read }) => {
        const r = await tools.invoke('edit_file', { path: 'src/m.js', old_string: 'function sub', new_string: 'function minus' }, ctx);
        assert.equal(r.ok, true, r.output);
        assert.match(r.output, /plan mode: the patch applies cleanly but was NOT applied/);
        assert.equal(read(), source);
      },
      { mode: 'plan' },
    );
  });
});
