import type { Verdict } from '../types';
import { compileWildcard, type Matcher } from '../../base/wildcard';
import { baseName } from './commandClasses';
import type { Word } from './types';

export type RuleSource = 'default' | 'user' | 'workspace';

/**
 * A rule matches the parsed argv, never the raw text. Pattern "npm run *": command "npm", then one
 * glob per argument; a final "*" matches any remaining arguments (or none).
 * - allow rules match the whole argv ("git status" allows exactly `git status`);
 * - deny and ask rules match a prefix ("git push" also catches `git push --force origin`) and the
 *   program's base name (`/usr/bin/git push` too), because for them erring wide is the safe side.
 */
export interface CommandRule {
  name: string;
  verdict: Verdict;
  command: string;
  /** Optional first argument, for rules built in code; pattern strings put it in argsPattern. */
  subcommand?: string;
  argsPattern: string[];
  source: RuleSource;
  pattern: string;
}

export function parseRulePattern(pattern: string, verdict: Verdict, source: RuleSource, name?: string): CommandRule {
  const tokens = tokenize(pattern.trim());
  if (tokens.length === 0) throw new Error(`empty command pattern "${pattern}"`);
  const [command, ...argsPattern] = tokens as [string, ...string[]];
  return {
    name: name ?? `${source === 'default' ? '' : source + '-'}${verdict}:${tokens.join(' ')}`,
    verdict,
    command,
    argsPattern,
    source,
    pattern,
  };
}

function tokenize(s: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

export function ruleMatches(rule: CommandRule, argv: readonly Word[]): boolean {
  const name = argv[0];
  if (!name || name.dynamic || name.glob) return false;
  if (rule.verdict === 'allow' ? name.value !== rule.command : baseName(name.value) !== baseName(rule.command)) {
    return false;
  }
  let args = argv.slice(1);
  if (rule.subcommand !== undefined) {
    if (args[0]?.dynamic || args[0]?.value !== rule.subcommand) return false;
    args = args.slice(1);
  }
  const pats = rule.argsPattern;
  const trailingStar = pats[pats.length - 1] === '*';
  const fixed = trailingStar ? pats.slice(0, -1) : pats;
  if (args.length < fixed.length) return false;
  for (let i = 0; i < fixed.length; i++) {
    const a = args[i]!;
    if (fixed[i] === '*') continue;
    if (a.dynamic || !argMatcher(fixed[i]!).test(a.value)) return false;
  }
  if (rule.verdict !== 'allow' || trailingStar) return true;
  return args.length === fixed.length;
}

// Linear matching (base/wildcard): the argument is the model's and may be long (attacks.patterns).
const cache = new Map<string, Matcher>();
function argMatcher(glob: string): Matcher {
  let m = cache.get(glob);
  if (!m) {
    try {
      m = compileWildcard(glob);
    } catch {
      m = { test: () => false }; // an over-long rule pattern matches nothing: allow rules fail closed
    }
    cache.set(glob, m);
  }
  return m;
}

/** Does the (user) allow rule spell out this flag, e.g. "sed -i *" for `sed -i`? */
export function ruleNamesFlag(rule: CommandRule, flag: string): boolean {
  return rule.source !== 'default' && rule.argsPattern.some((p) => p === flag || p.startsWith(flag + '='));
}
