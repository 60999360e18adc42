import { readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { createIgnoreFilter, IGNORE_FILE_NAME, type IgnoreFilter } from '../policy/path/ignoreFilter';

/** The file whose patterns hide paths from the agent entirely (read, search, list, write). */
export const AGENT_IGNORE_FILE = IGNORE_FILE_NAME;

/**
 * .gitignore semantics (nested files, .git/info/exclude) plus `.patchpilotignore` (the path policy's
 * filter, so tools and the command policy agree), for walks outside `git ls-files` and for checking
 * single paths. Paths are workspace-relative with forward slashes. .gitignore files are read once,
 * lazily; the .patchpilotignore filter notices edits by itself.
 */
export class IgnoreRules {
  private readonly gitByDir = new Map<string, Ignore | null>();
  /** The path policy's `.patchpilotignore` filter; pass it to checkPath and the command policy too. */
  readonly agentFilter: IgnoreFilter;

  /** `agentFilter`: the run's one `.patchpilotignore` filter (createAgent), so tools and policies never disagree. */
  constructor(
    readonly root: string,
    agentFilter?: IgnoreFilter,
  ) {
    this.agentFilter = agentFilter ?? createIgnoreFilter(root);
  }

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
    return rel !== '' && this.agentFilter.isIgnored(rel, isDir);
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
