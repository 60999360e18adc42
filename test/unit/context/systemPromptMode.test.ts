// The approval mode and what runs without asking in it (issue 30): in auto with the sandbox the
// project's development commands run; without it they ask. Stated with the goal (goalNotes.ts),
// never in the system prompt, which stays the same whatever the mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ApprovalMode } from '../../../src/core/config/settings';
import { modeNote } from '../../../src/core/context/goalNotes';
import { buildSystemPrompt, type WorkspaceFacts } from '../../../src/core/context/systemPrompt';

const facts = (sandboxed?: boolean): WorkspaceFacts => ({
  name: 'ws',
  platform: 'linux',
  git: { isRepo: false } as WorkspaceFacts['git'],
  testCommands: [],
  afterEdit: false,
  topLevel: [],
  ...(sandboxed !== undefined ? { sandboxed } : {}),
});
const modeLine = (mode: ApprovalMode, sandboxed?: boolean) => modeNote(mode, sandboxed).split('\n')[1] ?? '';

test('each mode is named, with what goes ahead without asking', () => {
  assert.match(modeLine('ask'), /^Approval mode ask: the user approves each patch \(hunk by hunk\) and each command\./);
  assert.match(modeLine('auto-edit'), /^Approval mode auto-edit: patches are applied without asking; commands need the user's approval\./);
  assert.match(modeLine('plan'), /^PLAN MODE: nothing is written and no command runs\./);
  assert.match(modeNote('ask', true), /^<approval-mode>\n.*\n<\/approval-mode>$/);
});

test('auto with the sandbox: development commands run; without it, workspace code asks', () => {
  const sandboxed = modeLine('auto', true);
  assert.match(sandboxed, /Commands run in a sandbox; those the policy allows run without asking/);
  for (const c of ['npm run <script>', 'pnpm/yarn scripts', 'npx <test runner>', 'node -e', 'python -c']) assert.ok(sandboxed.includes(c), c);
  const bare = modeLine('auto', false);
  assert.match(
    bare,
    /Commands are not sandboxed here: read-only commands the policy allows \(ls, grep, git status\) run without asking; any that runs workspace code \(node, npm, npx, python, test runners\) needs approval/,
  );
  assert.equal(modeLine('auto'), bare, 'unknown is told as not sandboxed: never promise what may ask');
});

test('the system prompt names no mode: it says where the mode comes from', () => {
  const system = buildSystemPrompt(facts(true), ['edit_file']);
  assert.doesNotMatch(system, /Approval mode (ask|auto)|PLAN MODE/);
  assert.match(system, /The approval mode \(what goes ahead without asking\) comes in an <approval-mode> block with a goal; the latest holds\./);
});

test('the prompt points to edit_file and propose_patch for changes', () => {
  assert.match(buildSystemPrompt(facts(true), ['edit_file']), /Change existing files with edit_file \(exact text copied from read_file output/);
});
