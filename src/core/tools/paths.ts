import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { PolicyDecision } from '../policy/types';
import { ToolError, type PathAccess, type ToolContext } from './types';

export interface ResolvedPath {
  /** Absolute path to use for I/O (symlinks resolved for existing parts). */
  abs: string;
  /** Workspace-relative, forward slashes; '' for the root itself. */
  rel: string;
  /** The path policy's word; `ask` is left to the caller (a write asks the Approver). */
  decision?: PolicyDecision;
}

/**
 * Turns a path from the model into a workspace path, or refuses with a reason the model can act on:
 * outside the workspace (also through symlinks: the real path of the target, or of its nearest
 * existing parent for a new file, must be inside), hidden by .patchpilotignore, denied by policy.
 */
export async function resolveWorkspacePath(ctx: ToolContext, input: string, access: PathAccess): Promise<ResolvedPath> {
  if (typeof input !== 'string' || input.includes('\0')) throw new ToolError('invalid path');
  const trimmed = input.trim() === '' ? '.' : input.trim();
  const lexical = path.resolve(ctx.root, trimmed);
  const rel = toRel(ctx.root, lexical);
  if (rel === null) throw new ToolError(`${input}: outside the workspace; paths are relative to the workspace root`);

  const real = await realOfNearest(lexical);
  const realRel = toRel(ctx.root, real.path);
  if (realRel === null) throw new ToolError(`${input}: resolves (through a symbolic link) outside the workspace`);
  const abs = real.rest ? path.join(real.path, real.rest) : real.path;

  for (const candidate of new Set([rel, toRel(ctx.root, abs) ?? rel])) {
    if (candidate && ctx.ignore.isAgentIgnored(candidate)) throw new ToolError(`${input}: hidden from the agent by .patchpilotignore`);
  }
  const decision = await ctx.pathPolicy?.check(rel, access);
  if (decision?.verdict === 'deny') throw new ToolError(`${input}: ${decision.reason}`);
  return { abs, rel, decision };
}

function toRel(root: string, abs: string): string | null {
  const rel = path.relative(root, abs);
  if (rel === '') return '';
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

/** Real path of the longest existing prefix, plus the part that does not exist yet. */
async function realOfNearest(abs: string): Promise<{ path: string; rest: string }> {
  let current = abs;
  const missing: string[] = [];
  for (;;) {
    try {
      return { path: await realpath(current), rest: missing.reverse().join(path.sep) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw new ToolError(`${abs}: ${(err as Error).message}`);
      const parent = path.dirname(current);
      if (parent === current) throw new ToolError(`${abs}: no existing parent directory`);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
