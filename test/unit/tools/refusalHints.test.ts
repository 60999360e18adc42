// Every refusal's hint must be true for the mode and the action (issue 30): generated across the
// approval modes x kinds of action, through the real tools, the real command policy and the CLI's
// headless approver (nobody to ask, so whatever asks is refused with a hint).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { NonInteractiveApprover } from '../../../src/cli/node/approvers';
import type { ApprovalMode } from '../../../src/core/config/settings';
import { PatchManager } from '../../../src/core/patch';
import { createCommandPolicy } from '../../../src/core/policy/command';
import type { CommandExecutor } from '../../../src/core/ports';
import { editFileTool } from '../../../src/core/tools/editFile';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { NodeWorkspaceFs } from '../../../src/host/node/nodeWorkspaceFs';
import { tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([runCommandTool, writeFileTool, editFileTool]);
const MODES: ApprovalMode[] = ['ask', 'auto-edit', 'auto'];

interface Action {
  label: string;
  kind: 'command' | 'edit';
  sandboxed?: boolean;
  /** The modes in which nobody being there refuses it (the others let it go ahead). */
  refusedIn: ApprovalMode[];
  tool: string;
  args: Record<string, unknown>;
}

const ACTIONS: Action[] = [
  { label: 'an allowed read-only command', kind: 'command', refusedIn: ['ask', 'auto-edit'], tool: 'run_command', args: { command: 'ls' } },
  {
    label: 'a dev command with the sandbox',
    kind: 'command',
    sandboxed: true,
    refusedIn: ['ask', 'auto-edit'],
    tool: 'run_command',
    args: { command: 'npx tap' },
  },
  {
    label: 'a dev command without the sandbox',
    kind: 'command',
    sandboxed: false,
    refusedIn: MODES,
    tool: 'run_command',
    args: { command: 'python -c "print(1)"' },
  },
  { label: 'a command off the allow list', kind: 'command', refusedIn: MODES, tool: 'run_command', args: { command: 'rm notes.txt' } },
  { label: 'a new file', kind: 'edit', refusedIn: ['ask'], tool: 'write_file', args: { path: 'new.txt', content: 'x\n' } },
  { label: 'an overwrite', kind: 'edit', refusedIn: MODES, tool: 'write_file', args: { path: 'notes.txt', content: 'y\n' } },
  { label: 'a string edit', kind: 'edit', refusedIn: ['ask'], tool: 'edit_file', args: { path: 'notes.txt', old_string: 'hello', new_string: 'bye' } },
];

function executor(sandboxed: boolean): CommandExecutor {
  return {
    sandboxed,
    run: async () => ({ exitCode: 0, output: '', truncated: false, durationMs: 1, timedOut: false, cancelled: false }),
  };
}

async function refusal(mode: ApprovalMode, a: Action): Promise<string | undefined> {
  const ws = tempWorkspace({ 'notes.txt': 'hello\n', 'node_modules/.bin/tap': '#!/usr/bin/env node\n' });
  try {
    const commandPolicy = await createCommandPolicy({ trusted: true });
    const ctx = fakeToolContext(ws.root, { mode, approver: new NonInteractiveApprover(), commandPolicy, exec: executor(a.sandboxed ?? true) });
    ctx.services.patches = new PatchManager({ root: ws.root, fs: new NodeWorkspaceFs(ws.root) });
    const r = await tools.invoke(a.tool, a.args, ctx);
    return r.ok ? undefined : r.output;
  } finally {
    ws.cleanup();
  }
}

describe('refusal hints are true for the mode and the action', () => {
  for (const mode of MODES) {
    for (const a of ACTIONS) {
      test(`${mode} mode, ${a.label}`, async () => {
        const out = await refusal(mode, a);
        if (!a.refusedIn.includes(mode)) {
          assert.equal(out, undefined, `went ahead: ${out}`);
          return;
        }
        assert.ok(out, 'refused');
        assert.match(out, /nobody could approve/);
        if (mode === 'auto') assert.doesNotMatch(out, /--approve|auto-edit/, 'no mode change offered in a run already in auto');
        if (a.kind === 'command') assert.doesNotMatch(out, /allow edits|edits go ahead|edit_file|propose_patch/, 'no edit hint for a command');
        if (a.kind === 'edit') assert.doesNotMatch(out, /commands? the policy allows|sandbox/, 'no command hint for an edit');
        if (a.label === 'an overwrite') assert.match(out, /To change an existing file, use edit_file or propose_patch/);
        if (a.kind === 'command' && mode !== 'auto' && a.sandboxed !== false && a.args.command !== 'rm notes.txt')
          assert.match(out, /In approval mode auto \(--approve auto\), the commands the policy allows run without asking/);
        if (a.kind === 'edit' && mode === 'ask' && a.label !== 'an overwrite')
          assert.match(out, /In approval mode auto-edit \(--approve auto-edit\) or auto, edits go ahead/);
        if (a.sandboxed === false && mode === 'auto') assert.match(out, /not sandboxed on this machine/);
        if (a.args.command === 'rm notes.txt') assert.match(out, /No allow rule covers it; the user can add one \(patchpilot\.policy\.allow\)/);
      });
    }
  }
});
