/**
 * What file tools and commands enforce, applied to MCP calls (test/unit/mcp/resultFilter.test.ts; attacks.mcpResults end to end):
 * - an argument that names an ignored path (`.patchpilotignore`, denyPaths) inside the workspace
 *   makes the call ask, even for an always-allowed tool, as a command naming one does;
 * - every call runs inside a guard session, like a command: the result is redacted of every line
 *   of the ignored files as they are now (SecretRedactor, the same as command output), embedded
 *   resources and resource links whose URI is an ignored workspace file are withheld with a note,
 *   and protected paths a local server created or (unsandboxed) changed during the call are moved
 *   aside or restored and reported.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { GuardedRun, type GuardOptions, type ProtectedChange } from '../sandbox/protectedGuard';
import type { SecretRedactor } from '../sandbox/secretRedactor';

export interface McpCallGuard {
  /** The workspace paths among the arguments that the agent may not read (for the question). */
  ignoredArguments(args: unknown): string[];
  /** Runs the call inside a guard session; returns the filtered text and what changed in protected paths. */
  guarded(
    call: () => Promise<CallToolResult>,
    local: { sandboxed: boolean } | undefined,
  ): Promise<{ result: CallToolResult; text: string; protectedChanges: ProtectedChange[] }>;
}

export function createMcpCallGuard(guard: Omit<GuardOptions, 'keepBytes'>): McpCallGuard {
  const root = guard.root;
  /** A checker frozen at the ignore rules of this moment (one snapshot per call, not one per string). */
  const ignoredPaths = () => {
    const isIgnored = guard.ignored();
    const hidden = (rel: string) => {
      // An ignored folder hides what is under it: any ancestor counts; the leaf may be a file or a folder.
      const parts = rel.split('/');
      for (let i = 1; i <= parts.length; i++) {
        const sub = parts.slice(0, i).join('/');
        if (isIgnored(sub, true) || (i === parts.length && isIgnored(sub, false))) return true;
      }
      return false;
    };
    return (value: string): string | undefined => {
      const rel = workspaceRel(root, value);
      if (rel === undefined || rel === '') return undefined;
      if (hidden(rel)) return rel;
      // A link inside the workspace to an ignored file is that file.
      const real = realRel(root, rel);
      return real && real !== rel && hidden(real) ? rel : undefined;
    };
  };
  return {
    ignoredArguments(args) {
      const found = new Set<string>();
      const ignoredPath = ignoredPaths();
      for (const s of strings(args)) {
        const rel = ignoredPath(s);
        if (rel) found.add(rel);
      }
      return [...found];
    },
    async guarded(call, local) {
      // A remote server cannot touch the workspace: its results are redacted all the same.
      const session = await GuardedRun.begin({ ...guard, keepBytes: local ? !local.sandboxed : false });
      let result: CallToolResult;
      let protectedChanges: ProtectedChange[] = [];
      try {
        result = await call();
      } finally {
        if (local) protectedChanges = await session.end();
      }
      return { result, text: filteredText(result, session.redactor, ignoredPaths()), protectedChanges };
    },
  };
}

/** Text for the model: text parts redacted, ignored resources withheld, binary named, never dumped. */
export function filteredText(result: CallToolResult, redactor: Pick<SecretRedactor, 'redact'>, ignoredPath: (uriOrPath: string) => string | undefined): string {
  const clean = (s: string) => redactor.redact(s).text;
  const withheld = (rel: string) => `[resource ${rel} withheld: .patchpilotignore (or denyPaths) hides it from the agent]`;
  const parts: string[] = [];
  for (const c of result.content ?? []) {
    switch (c.type) {
      case 'text':
        parts.push(clean(c.text));
        break;
      case 'image':
      case 'audio':
        parts.push(`[${c.type} ${c.mimeType}, ${Math.floor((c.data.length * 3) / 4)} bytes, not shown]`);
        break;
      case 'resource': {
        const r = c.resource as { uri: string; text?: string; blob?: string; mimeType?: string };
        const hidden = ignoredPath(r.uri);
        if (hidden) parts.push(withheld(hidden));
        else
          parts.push(
            clean(
              typeof r.text === 'string' ? `[resource ${r.uri}]\n${r.text}` : `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}, binary, not shown]`,
            ),
          );
        break;
      }
      case 'resource_link': {
        const hidden = ignoredPath(c.uri);
        parts.push(hidden ? withheld(hidden) : clean(`[link ${c.name}: ${c.uri}]${c.description ? ` ${c.description}` : ''}`));
        break;
      }
      default:
        parts.push(`[${(c as { type: string }).type} content, not shown]`);
    }
  }
  // Structured output stands in when the server sent no text for it.
  if (result.structuredContent && !parts.some((p) => p.trim())) parts.push(clean(JSON.stringify(result.structuredContent, null, 2)));
  return parts.join('\n');
}

/** A workspace-relative POSIX path for a `file:` URI, an absolute path or a relative one inside the workspace; else undefined. */
function workspaceRel(root: string, value: string): string | undefined {
  let p = value.trim();
  if (!p || p.length > 4096 || p.includes('\0') || /[\r\n]/.test(p)) return undefined;
  if (/^file:/i.test(p)) {
    try {
      p = fileURLToPath(p);
    } catch {
      return undefined;
    }
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(p)) return undefined; // another scheme: not a workspace file
  const abs = path.resolve(root, p.replace(/^~(?=\/|$)/, '/nonexistent-home'));
  const rel = path.relative(root, abs);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

function realRel(root: string, rel: string): string | undefined {
  try {
    const r = path.relative(realpathSync(root), realpathSync(path.join(root, rel)));
    return r.startsWith('..') || path.isAbsolute(r) ? undefined : r.split(path.sep).join('/');
  } catch {
    return undefined;
  }
}

/** Every string in an argument object (values of nested objects and arrays), bounded. */
function strings(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length > 500 || depth > 8) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out, depth + 1);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out, depth + 1);
  return out;
}
