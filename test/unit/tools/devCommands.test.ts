// Issue 30: the project's ordinary development commands run in auto mode when the sandbox contains
// them, and ask without it. Generated: each runner through npx, inline code, package scripts of each
// manager, through the real command policy and run_command's gate (the executor is a recorder).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCommandPolicy } from '../../../src/core/policy/command';
import type { CommandExecutor } from '../../../src/core/ports';
import { ToolRegistry } from '../../../src/core/tools/registry';
import { runCommandTool } from '../../../src/core/tools/runCommand';
import { ScriptedApprover, tempWorkspace } from './helpers';
import { fakeToolContext } from '../../support/fakes';

const tools = new ToolRegistry([runCommandTool]);
const RUNNERS = ['tap', 'jest', 'vitest run', 'mocha', 'ava', 'c8 node --test', 'playwright test', 'tsx src/a.ts', 'uvu tests'];
const SCRIPTS = ['build', 'lint', 'typecheck', 'test:unit'];
const PACKAGE_JSON = JSON.stringify({ scripts: Object.fromEntries(SCRIPTS.map((s) => [s, 'node -e 1'])) });

/** Every ordinary development command the issue names, generated. */
export const DEV_COMMANDS: string[] = [
  ...RUNNERS.map((r) => `npx ${r}`),
  ...RUNNERS.map((r) => `pnpm exec ${r}`),
  'python -c "print(1)"',
  "python3 -c 'import sys; print(sys.version)'",
  'python3 -m unittest discover -s tests',
  'python -m pytest -q',
  'node -e "console.log(1)"',
  'node -p 1+1',
  'node --test',
  ...SCRIPTS.flatMap((s) => [`npm run ${s}`, `pnpm run ${s}`, `pnpm ${s}`, `yarn run ${s}`, `yarn ${s}`]),
  'npm test',
  'pnpm test',
  'yarn test',
];

function recorder(sandboxed: boolean): CommandExecutor & { ran: string[] } {
  const ran: string[] = [];
  return {
    sandboxed,
    ran,
    async run(r) {
      ran.push(r.command);
      return { exitCode: 0, output: 'ok\n', truncated: false, durationMs: 1, timedOut: false, cancelled: false };
    },
  };
}

async function inAuto(sandboxed: boolean, command: string) {
  const bins = Object.fromEntries(RUNNERS.map((r) => [`node_modules/.bin/${r.split(' ')[0]}`, '#!/usr/bin/env node\n']));
  const ws = tempWorkspace({ 'package.json': PACKAGE_JSON, 'src/a.ts': 'export {};\n', 'tests/t.py': '', ...bins });
  try {
    const approver = new ScriptedApprover({ action: () => ({ approved: false, unattended: 'no terminal to ask the user' }) });
    const exec = recorder(sandboxed);
    const ctx = fakeToolContext(ws.root, { mode: 'auto', approver, commandPolicy: await createCommandPolicy({ trusted: true }), exec });
    const r = await tools.invoke('run_command', { command }, ctx);
    return { r, asked: approver.actionRequests.length, ran: exec.ran };
  } finally {
    ws.cleanup();
  }
}

describe('ordinary development commands in auto mode', () => {
  for (const command of DEV_COMMANDS) {
    test(`sandboxed: \`${command}\` runs without asking`, async () => {
      const { r, asked, ran } = await inAuto(true, command);
      assert.equal(asked, 0, r.output);
      assert.deepEqual(ran, [command]);
    });
    test(`not sandboxed: \`${command}\` asks, and the refusal says why truly`, async () => {
      const { r, asked, ran } = await inAuto(false, command);
      assert.equal(asked, 1);
      assert.deepEqual(ran, []);
      assert.match(r.output, /Commands are not sandboxed on this machine/);
      assert.doesNotMatch(r.output, /auto-edit|allow edits/);
    });
  }

  // The managers' own commands are not scripts; npx and pnpm exec run only a locally installed bin
  // (else npx downloads one, and pnpm exec runs any program on PATH); npx's install flags still ask.
  const NOT_DEV = ['pnpm install', 'yarn add left-pad', 'pnpm dlx cowsay', 'yarn nonexistent-script', 'npx --yes tap', 'npx -p x y', 'npm install'];
  for (const command of [...NOT_DEV, 'npx cowsay hi', 'pnpm exec curl http://127.0.0.1/', 'pnpm exec rm -rf src']) {
    test(`sandboxed: \`${command}\` still asks`, async () => {
      const { asked, ran } = await inAuto(true, command);
      assert.equal(asked, 1);
      assert.deepEqual(ran, []);
    });
  }
});
