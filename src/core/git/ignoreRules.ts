import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The file whose patterns hide paths from the agent entirely (read, search, list, write). */
export const AGENT_IGNORE_FILE = '.patchpilotignore';

/**
 * .gitignore semantics (nested files, .git/info/exclude) plus `.patchpilotignore`, for walks outside
 * `git ls-files` and for checking single paths. Paths are workspace-relative with forward slashes.
 * Files are read once, lazily; make a new instance to see edits.
 */
export class IgnoreRules {
  private readonly gitByDir = new Map<string, Ignore | null>();
  private agent: Ignore | null | undefined;

  constructor(readonly root: string) {}

  /** Hidden by a .gitignore (or `.git/`): left out of listings and searches, still readable by explicit path. */
  isGitIgnored(rel: string, isDir = false): boolean {
    const parts = rel.split('/').filter(Boolean);
    if (parts.includes('.git')) return true;
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      const rules = this.gitRules(dir);
      if (!rules) continue;
      const sub = parts.slice(i).join('/');
      if (rules.ignores(isDir ? sub + '/' : sub)) return true;
      // A file inside an ignored directory is ignored too, even if no pattern names the file.
      for (let j = i + 1; j < parts.length; j++) {
        if (rules.ignores(parts.slice(i, j).join('/') + '/')) return true;
      }
    }
    return false;
  }

  /** Hidden by `.patchpilotignore`: the agent may not read, search, list or write it. */
  isAgentIgnored(rel: string, isDir = false): boolean {
    if (this.agent === undefined) this.agent = load(path.join(this.root, AGENT_IGNORE_FILE));
    if (!this.agent || !rel) return false;
    const parts = rel.split('/').filter(Boolean);
    for (let j = 1; j < parts.length; j++) if (this.agent.ignores(parts.slice(0, j).join('/') + '/')) return true;
    return this.agent.ignores(isDir ? rel.replace(/\/?$/, '/') : rel);
  }

  private gitRules(dir: string): Ignore | null {
    let rules = this.gitByDir.get(dir);
    if (rules !== undefined) return rules;
    const files = [path.join(this.root, dir, '.gitignore')];
    if (dir === '') files.unshift(path.join(this.root, '.git', 'info', 'exclude'));
    rules = null;
    for (const file of files) {
      const loaded = load(file);
      if (loaded) rules = rules ? rules.add(loaded) : loaded;
    }
    this.gitByDir.set(dir, rules);
    return rules;
  }
}

function load(file: string): Ignore | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  return ignore({ allowRelativePaths: true }).add(text);
}
