import { spawn } from 'node:child_process';
// The one file-system call of the tools that is not the WorkspaceFs port's: the rg executable is a
// file of the host's PATH, never of the workspace (a relative PATH entry is skipped below), so the
// workspace port cannot and should not see it. ripgrep itself reads the workspace as a process.
// eslint-disable-next-line no-restricted-imports
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { AGENT_IGNORE_FILE } from '../git/ignoreRules';
import { buildChildEnv } from '../sandbox/childEnv';
import { ToolError } from './types';
import { cutLine, type GrepOutcome, type GrepQuery } from './grepTypes';

/** The `rg` binary on PATH, or null. Looked up once per process. */
let cached: string | null | undefined;
export function findRipgrep(env: NodeJS.ProcessEnv = process.env): string | null {
  if (cached !== undefined) return cached;
  cached = null;
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir)) continue; // a relative PATH entry could be a workspace folder
    const candidate = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
    try {
      accessSync(candidate, constants.X_OK);
      cached = candidate;
      break;
    } catch {
      /* next */
    }
  }
  return cached;
}

/**
 * ripgrep with the same visibility as the JS fallback: .gitignore even outside git (--no-require-git),
 * hidden files searched but .git skipped, .patchpilotignore as an ignore file, no user config (a
 * RIPGREP_CONFIG_PATH could add --pre). Every result is filtered again by the agent-ignore rules.
 */
export async function grepWithRipgrep(rg: string, query: GrepQuery): Promise<GrepOutcome> {
  const args = [
    '--no-config',
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--color',
    'never',
    '--hidden',
    '--no-require-git',
    '--glob',
    '!.git',
    '--max-columns',
    '1000',
    '--max-columns-preview',
    '--max-filesize',
    '2M',
    '--sort',
    'path',
  ];
  args.push('--ignore-file', path.join(query.root, AGENT_IGNORE_FILE));
  const include = query.include;
  args.push('--regexp', query.pattern, '--', query.path || '.');

  // The common child environment (PATH and locale are all rg needs); RIPGREP_CONFIG_PATH is not on it.
  const { env } = buildChildEnv();
  const child = spawn(rg, args, { cwd: query.root, env, stdio: ['ignore', 'pipe', 'pipe'], signal: query.signal });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.on('error', () => undefined); // reported through `closed` / the abort below

  const matches: GrepOutcome['matches'] = [];
  let truncated = false;
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  for await (const raw of lines) {
    const m = /^(.*?):(\d+):(.*)$/.exec(raw);
    if (!m) continue;
    const file = m[1]!.replace(/^\.\//, '').split(path.sep).join('/');
    if (query.rules.isAgentIgnored(file)) continue;
    if (include && !include.test(file)) continue;
    if (matches.length >= query.maxMatches) {
      truncated = true;
      child.kill();
      break;
    }
    matches.push({ path: file, line: Number(m[2]), text: cutLine(m[3]!.replace(/\r$/, '')) });
  }
  const code = await closed;
  query.signal.throwIfAborted();
  if (code === 2 && matches.length === 0 && !truncated) {
    const message = stderr.trim().split('\n').slice(0, 6).join('\n');
    throw new ToolError(message.includes('regex') ? `invalid regular expression: ${message}` : `ripgrep failed: ${message}`);
  }
  matches.sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));
  return { matches, truncated, engine: 'ripgrep' };
}
