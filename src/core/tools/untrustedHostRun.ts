/**
 * What a workspace's files choose to run runs sandboxed or asked. An untrusted workspace decides
 * what `npm test`, `make test` or `pytest` do (package scripts, Makefiles, test configs, conftest),
 * whoever chose the command: without the sandbox such a command would run that code with the user's
 * full rights. So every test and check command of an untrusted workspace, outside the sandbox, asks
 * before it runs, in every approval mode, showing the exact command; the yes binds the workspace as
 * it is (policy/launch: the whole tree), so the command asks again once anything in it changed (an
 * edit of the agent, a file a command wrote). This is the one place; runTests.ts calls it before
 * every test-like command.
 */
import path from 'node:path';
import { bindCode, bindingKey } from '../policy/launch';
import type { ToolContext } from './types';

/** Asks when needed; true when it asked (and the user said yes), so no other question about running it unsandboxed is needed. */
export async function approveUntrustedHostRun(ctx: ToolContext, command: string): Promise<boolean> {
  if (ctx.run.tests.workspaceTrusted || ctx.run.tests.sandboxed === true) return false;
  const key = bindingKey(
    bindCode({
      root: ctx.root,
      launch: { command: 'bash', args: ['-c', command], env: {} },
      identity: 'test-command',
      outsideSandbox: true,
      stateDir: stateDir(ctx),
    }),
  );
  const approved = (ctx.state.hostRuns ??= new Map());
  if (approved.get(command) === key) return false;
  const again = approved.has(command) ? 'The workspace changed since you approved it. ' : '';
  const reason = `${again}Commands are not sandboxed here and this workspace is not trusted: "${command}" runs what the workspace's files choose (package scripts, Makefiles, test configurations) with your full rights.`;
  await ctx.ask({ kind: 'tests', title: command, reason }, { verdict: 'ask', rule: 'ask:untrusted-unsandboxed', reason });
  approved.set(command, key);
  return true;
}

/** The state folder, workspace-relative: left out of the tree like `.git` (PatchPilot writes it every step). */
function stateDir(ctx: ToolContext): string {
  const rel = path.relative(ctx.root, path.dirname(path.resolve(ctx.root, ctx.workspace.settings.history.path)));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel.split(path.sep).join('/') : '.patchpilot';
}
