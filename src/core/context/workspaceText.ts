/**
 * Reading the workspace files that go into the prompt (AGENTS.md, rules, memory, workspace skills)
 * the way the file tools read: the path policy first (.patchpilotignore, denyPaths, nothing outside
 * the workspace: an AGENTS.md linked to ~/.ssh/id_rsa is refused; a link to a file that is not a
 * protected path is refused too), then a confined open that
 * follows no link below the root. A file that is not there is simply absent.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { openConfined } from '../policy/path/confinedIo';
import { createProtectedMatcher } from '../policy/path/protectedPaths';
import type { PathPolicy } from '../ports';

export interface WorkspaceReader {
  /** The text of a workspace file (cut at `maxBytes`), undefined when missing; throws with the policy's reason when refused. */
  read(rel: string, maxBytes: number): Promise<{ text: string; truncated: boolean } | undefined>;
  /** Names of the entries of a workspace folder (no links), empty when missing or refused. */
  list(rel: string): Promise<{ name: string; isDir: boolean }[]>;
}

export class PromptFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PromptFileRefused';
  }
}

const instructionMatcher = createProtectedMatcher();

export function workspaceReader(root: string, policy: PathPolicy): WorkspaceReader {
  return {
    async read(rel, maxBytes) {
      const decision = await policy.check(rel, 'read');
      if (decision.verdict === 'deny') throw new PromptFileRefused(decision.reason);
      // A link inside the workspace (AGENTS.md -> CLAUDE.md) is read at the real path the policy checked.
      const real = decision.relativePath ?? rel;
      // What the prompt loads must be a protected path, or the agent could rewrite it unasked and steer
      // the next run: a link from AGENTS.md to an ordinary file is not followed.
      if (real !== rel && !instructionMatcher.match(real))
        throw new PromptFileRefused(`${rel} links to ${real}, which is not a protected path (the agent could change it without asking)`);
      const st = await lstat(path.join(root, real)).catch(() => undefined);
      if (!st) return undefined;
      if (!st.isFile()) throw new PromptFileRefused(`${rel} is not a regular file`);
      const { handle } = await openConfined(root, real, 'r');
      try {
        const size = (await handle.stat()).size;
        const buffer = Buffer.alloc(Math.min(size, maxBytes));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return {
          text: buffer
            .subarray(0, bytesRead)
            .toString('utf8')
            .replace(/^\uFEFF/, ''),
          truncated: size > maxBytes,
        };
      } finally {
        await handle.close();
      }
    },
    async list(rel) {
      const decision = await policy.check(rel, 'list');
      if (decision.verdict === 'deny' || !decision.realPath) return [];
      // Only a real folder inside the workspace: a linked folder is not listed.
      const st = await lstat(path.join(root, rel)).catch(() => undefined);
      if (!st?.isDirectory()) return [];
      const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
      return entries
        .filter((e) => e.isFile() || e.isDirectory())
        .map((e) => ({ name: e.name, isDir: e.isDirectory() }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
  };
}
