// edit_file has no review of its own: in ask mode the host's Approver receives the same patch
// proposal propose_patch would send for the derived diff, and VS Code's diff review (src/host/vscode/diff)
// builds its per-hunk view and right side from that request alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PatchManager } from '../../../src/core/patch';
import type { PatchApprovalRequest } from '../../../src/core/ports';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { editFileTool } from '../../../src/core/tools/editFile';
import { proposePatchTool } from '../../../src/core/tools/proposePatch';
import { reviewFiles, rightTexts } from '../../../src/host/vscode/diff/diffReviewLogic';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([editFileTool, proposePatchTool]);
const source = Array.from({ length: 20 }, (_, i) => `const v${i + 1} = ${i + 1};\n`).join('');

async function askedFor(call: (ctx: ReturnType<typeof fakeToolContext>) => Promise<unknown>): Promise<{ request: PatchApprovalRequest; after: string }> {
  const ws = tempWorkspace({ 'm.js': source });
  // The reviewer accepts the first hunk only, as a user clicking Accept on hunk 1 and Reject on hunk 2.
  const approver = new ScriptedApprover({ patch: () => ({ acceptedHunks: ['m.js#1'], hunkReasons: { 'm.js#2': 'keep v18' } }) });
  const ctx = fakeToolContext(ws.root, { mode: 'ask', approver, patches: new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) }) });
  try {
    await call(ctx);
    assert.equal(approver.patchRequests.length, 1);
    return { request: approver.patchRequests[0]!, after: readFileSync(path.join(ws.root, 'm.js'), 'utf8') };
  } finally {
    ws.cleanup();
  }
}

test('edit_file reaches the host as the same patch proposal as propose_patch, reviewed per hunk', async () => {
  let derived = '';
  const edits = [
    { old_string: 'const v1 = 1;', new_string: 'const v1 = 10;' },
    { old_string: 'const v18 = 18;', new_string: 'const v18 = 180;' },
  ];
  const viaEdit = await askedFor(async (ctx) => {
    const r = await tools.invoke('edit_file', { path: 'm.js', edits }, ctx);
    assert.equal(r.ok, true, r.output);
    assert.match(r.output, /rejected by the user \(not applied\):\n  m\.js#2: keep v18/);
    derived = (r.data as { patch: string }).patch;
  });
  const viaPatch = await askedFor((ctx) => tools.invoke('propose_patch', { patch: derived }, ctx));
  assert.deepEqual(viaEdit.request, viaPatch.request);
  assert.equal(viaEdit.request.patchText, derived);
  assert.equal(viaEdit.after, source.replace('const v1 = 1;', 'const v1 = 10;'));
  assert.equal(viaEdit.after, viaPatch.after);
  // What the diff editor shows: two hunks, and the right side of the accepted one is the engine's result.
  const files = reviewFiles(viaEdit.request.preview);
  assert.deepEqual(
    files[0]!.hunks.map((h) => h.id),
    ['m.js#1', 'm.js#2'],
  );
  assert.equal(rightTexts(viaEdit.request.patchText, files, new Set(['m.js#1'])).get('m.js'), viaEdit.after);
});
