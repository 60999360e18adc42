/**
 * The rules of one run. At the start: every `always` rule, and the description-only ones listed.
 * Then, each time the run reads or edits files: the nested AGENTS.md / CLAUDE.md of their folders
 * (shallowest first, so the closest comes last and takes precedence) and the glob rules that match
 * one of them. A rule, once in, stays for the rest of the run (it sits in the system prompt, which
 * compaction never touches).
 */
import { fileGlob } from '../../base/wildcard';
import type { Matcher } from '../../base/wildcard';
import type { RuleSourceName } from '../../config/settings';
import type { WorkspaceReader } from '../workspaceText';
import { folderRuleNames, ruleReader } from './ruleDiscovery';
import { describeActivation, MAX_RULES_TOTAL_BYTES, type RuleFile } from './ruleFiles';

/** A rule that came in, and why (for the chat, the CLI and the tool result that brought it). */
export interface LoadedRule {
  rule: RuleFile;
  why: string;
}

export class ActiveRules {
  private readonly active: RuleFile[] = [];
  private readonly pending: { rule: RuleFile; matchers: Matcher[] }[] = [];
  private readonly checkedFolders = new Set<string>();
  private readonly names: string[];
  private bytes = 0;
  private warnedTotal = false;

  constructor(
    private readonly reader: WorkspaceReader,
    discovered: readonly RuleFile[],
    sources: Record<RuleSourceName, boolean>,
    /** What the start has to say (a glob that does not compile, the total spent). */
    warnings: string[],
  ) {
    this.names = folderRuleNames(sources);
    for (const rule of discovered) {
      if (rule.activation.kind === 'always' || rule.activation.kind === 'requested') this.admit(rule, warnings);
      else if (rule.activation.kind === 'globs') this.pending.push({ rule, matchers: compile(rule.activation.globs, rule.path, warnings) });
    }
  }

  /** In prompt order: the loaded ones (always first, then as they came), the listed ones apart. */
  get loaded(): readonly RuleFile[] {
    return this.active.filter((r) => r.activation.kind !== 'requested');
  }

  get listed(): readonly RuleFile[] {
    return this.active.filter((r) => r.activation.kind === 'requested');
  }

  /** What the start brought in, with why. */
  get initial(): LoadedRule[] {
    return this.active.map((rule) => ({ rule, why: describeActivation(rule) }));
  }

  /** Files the run read or edited (workspace-relative): the rules they bring in, in order, none twice; and what went wrong. */
  async notePaths(paths: readonly string[]): Promise<{ added: LoadedRule[]; warnings: string[] }> {
    const added: LoadedRule[] = [];
    const warnings: string[] = [];
    for (const raw of paths) {
      const rel = normalize(raw);
      if (!rel) continue;
      for (const rule of await this.nestedFor(rel, warnings)) if (this.admit(rule, warnings)) added.push({ rule, why: describeActivation(rule) });
      for (let i = 0; i < this.pending.length;) {
        const p = this.pending[i]!;
        if (p.matchers.some((m) => m.test(rel))) {
          this.pending.splice(i, 1);
          if (this.admit(p.rule, warnings)) added.push({ rule: p.rule, why: describeActivation(p.rule, rel) });
        } else i++;
      }
    }
    return { added, warnings };
  }

  /** The nested rules files of the folders above `rel` not looked at yet, shallowest first. */
  private async nestedFor(rel: string, warnings: string[]): Promise<RuleFile[]> {
    const parts = rel.split('/').slice(0, -1);
    const found: RuleFile[] = [];
    const loader = ruleReader(this.reader, warnings);
    for (let depth = 1; depth <= parts.length; depth++) {
      const folder = parts.slice(0, depth).join('/');
      if (this.checkedFolders.has(folder)) continue;
      this.checkedFolders.add(folder);
      // A folder the path policy refuses (or that holds nothing real) lists as empty: skipped quietly,
      // not a warning for every file touched in it. Its rules files are then read by name (a link
      // to another protected file is followed, like the root's).
      if (!(await this.reader.list(folder)).length) continue;
      for (const name of this.names) {
        const rule = await loader.plain(`${folder}/${name}`, { kind: 'nested', folder });
        if (rule) found.push(rule);
      }
    }
    return found;
  }

  /**
   * Takes a rule unless the total is spent (then says so once). The same text twice (CLAUDE.md a
   * link to AGENTS.md, the usual way to share one file) is taken once, under the first name.
   */
  private admit(rule: RuleFile, warnings: string[]): boolean {
    if (this.active.some((r) => r.text.trim() === rule.text.trim())) return false;
    const size = Buffer.byteLength(rule.text);
    if (this.bytes + size > MAX_RULES_TOTAL_BYTES) {
      if (!this.warnedTotal) warnings.push(`rules files over ${MAX_RULES_TOTAL_BYTES / 1024} KB in all are not loaded: ${rule.path} and any later ones`);
      this.warnedTotal = true;
      return false;
    }
    this.bytes += size;
    this.active.push(rule);
    return true;
  }
}

function compile(globs: readonly string[], path: string, warnings: string[]): Matcher[] {
  const out: Matcher[] = [];
  for (const g of globs) {
    try {
      out.push(fileGlob(g.replace(/^\/+/, '')));
    } catch (err) {
      warnings.push(`${path}: the glob "${g}" is not used: ${(err as Error).message}`);
    }
  }
  return out;
}

/** A workspace-relative POSIX path, or undefined for one outside it ("..", absolute). */
function normalize(raw: string): string | undefined {
  const rel = raw
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '');
  if (!rel || rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) return undefined;
  const parts = rel.split('/').filter((p) => p && p !== '.');
  if (parts.includes('..')) return undefined;
  return parts.join('/');
}
