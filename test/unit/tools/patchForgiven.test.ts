// What the patch engine forgave goes back to the model with the file's actual line (issue 30):
// one wrong context line, wrong hunk counts, whitespace.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PatchManager } from '../../../src/core/patch';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { proposePatchTool } from '../../../src/core/tools/proposePatch';
import { editFileTool } from '../../../src/core/tools/editFile';
import { tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([proposePatchTool, editFileTool]);
const file = ['import a', 'import b', '', 'function f() {', '  const x = 1;', '  return x;', '}', '', 'export { f }', ''].join('\n');

async function propose(patch: string, tool = 'propose_patch', args: Record<string, unknown> = { patch }) {
  const ws = tempWorkspace({ 'm.js': file });
  try {
    const ctx = fakeToolContext(ws.root, { mode: 'auto-edit', patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }) });
    const r = await tools.invoke(tool, args, ctx);
    return { r, after: readFileSync(path.join(ws.root, 'm.js'), 'utf8') };
  } finally {
    ws.cleanup();
  }
}

describe('propose_patch says what the engine forgave', () => {
  test('a wrong context line and wrong hunk counts: the line that differed, the file line and the header', async () => {
    const { r, after } = await propose(
      '--- a/m.js\n+++ b/m.js\n@@ -4,9 +4,9 @@\n function f() {\n   const x = 1;\n-  return x;\n+  return x + 1;\n }\n \n export { f } // wrong\n',
    );
    assert.equal(r.ok, true, r.output);
    assert.equal(after, file.replace('return x;', 'return x + 1;'));
    assert.match(r.output, /m\.js#1 now at lines 4-8 \(matched: context-trimmed\)\nforgiven \(write these as the file has them next time\):/);
    assert.match(
      r.output,
      /  m\.js#1 \(context-trimmed\): ignored 1 context line\(s\) at the hunk edges that differ from the file\n    the patch has "export \{ f \} \/\/ wrong"; line 9 of the file is "export \{ f \}"/,
    );
    assert.match(r.output, /  the patch text: line 3: .*header says -4,9 \+4,9 but the body has 6 old and 6 new line\(s\); the body was used/);
  });

  test('trailing whitespace and indentation: the file line quoted', async () => {
    const trailing = await propose('--- a/m.js\n+++ b/m.js\n@@ -4,4 +4,4 @@\n function f() {\n   const x = 1;   \n-  return x;\n+  return x + 1;\n }\n');
    assert.match(trailing.r.output, /m\.js#1 \(trailing-whitespace\)\n    the patch has "  const x = 1;   "; line 5 of the file is "  const x = 1;"/);
    const indented = await propose('--- a/m.js\n+++ b/m.js\n@@ -4,4 +4,4 @@\n function f() {\n     const x = 1;\n-    return x;\n+    return x + 1;\n }\n');
    assert.equal(indented.after, file.replace('return x;', 'return x + 1;'));
    assert.match(indented.r.output, /the patch has " {4}const x = 1;"; line 5 of the file is " {2}const x = 1;"/);
  });

  test('an exact patch, and edit_file, have nothing forgiven to say', async () => {
    const exact = await propose('--- a/m.js\n+++ b/m.js\n@@ -5,2 +5,2 @@\n   const x = 1;\n-  return x;\n+  return x + 1;\n');
    assert.doesNotMatch(exact.r.output, /forgiven/);
    const edit = await propose('', 'edit_file', { path: 'm.js', old_string: 'return x;', new_string: 'return x + 1;' });
    assert.equal(edit.r.ok, true, edit.r.output);
    assert.doesNotMatch(edit.r.output, /forgiven/);
  });
});
