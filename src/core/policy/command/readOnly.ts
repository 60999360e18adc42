/**
 * "Read-only": a command that cannot write the workspace or run the project's code. Such a command
 * cannot disturb a test run going on in the same tree (the early baseline), so run_command runs it
 * at once instead of waiting for the baseline (orchestrator/earlyBaseline.ts).
 *
 * The class is closed: every simple command the shell would run (pipelines, lists, substitutions
 * included, as the policy's parser extracts them) must be one of a small set of programs that only
 * read and print, called in a form the default allow rules list for it, with none of its options
 * that write or execute (the vetters and file-option tables the policy already keeps: `find -exec`,
 * `sed -i`, `sort -o`, `rg --pre`, `git --output`, writing git subcommands), no redirection to a
 * file (only to /dev/null and the standard streams), no assignments (`GIT_PAGER=... git log`), no
 * word known only at run time, and no glob where an expanded file name could become an option.
 * Anything else, unknown programs first of all, is not read-only. Interpreters are never read-only:
 * `node -e "console.log(require('./lib').x)"` runs project code
 * (test/unit/policy/command/readOnly.test.ts runs generated commands to hold the class to that).
 */
import { DATA_ONLY, isPathQualified } from './commandClasses';
import { DEFAULT_ALLOW_RULES } from './defaults';
import { FILE_OPTIONS } from './fileOptions';
import { GLOB_SAFE, VETTERS, type VetContext } from './flags';
import { gitView } from './git';
import { findOptions, positionals } from './options';
import { ruleMatches } from './rules';
import type { Redirect, SimpleCommand, Word } from './types';

/**
 * Programs that only read and print but are not GLOB_SAFE: an option of some writes, runs a program
 * or reads another file (`find -exec`, `sort -o`, `sed -i`, `rg --pre`, `git --output`, `uniq IN
 * OUT`); the others take operands a glob must not replace (`tr`'s sets, `test`'s expression, `cd`'s
 * folder). Their options are vetted below, and a glob among their arguments is not read-only.
 */
const READERS_NOT_GLOB_SAFE = ['rg', 'find', 'sort', 'uniq', 'tr', 'sed', 'which', 'type', 'test', '[', 'cd', 'pushd', 'popd', 'command', 'git'];

/**
 * Programs that only read files and print: those whose every option is harmless (GLOB_SAFE, kept
 * with the command policy's flags: one place for that fact), the readers above, and the programs
 * that touch no file at all (DATA_ONLY).
 */
export const READ_ONLY_PROGRAMS: ReadonlySet<string> = new Set([...GLOB_SAFE, ...READERS_NOT_GLOB_SAFE, ...DATA_ONLY]);

/** Where output may go without writing a file. */
const NOT_A_FILE = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** git options that run configured programs beyond what git.ts vets for every subcommand. */
const GIT_RUNS_FILTERS = ['--filters'];

/** Why one simple command is not read-only, or undefined when it is. */
export function notReadOnly(cmd: SimpleCommand, vctx: VetContext): string | undefined {
  if (cmd.assignments.length) return 'it sets variables, which can change what a program runs';
  const redirect = cmd.redirects.find(writesAFile);
  if (redirect) return `it redirects output to a file (${redirect.operator} ${redirect.target?.raw ?? ''})`;
  const [name, ...args] = cmd.argv;
  if (!name) return undefined;
  if (name.dynamic || name.glob || isPathQualified(name.value) || !READ_ONLY_PROGRAMS.has(name.value)) {
    return `"${name.raw}" is not a known read-only program`;
  }
  const n = name.value;
  const unknown = args.find((a) => a.dynamic || (a.glob && !GLOB_SAFE.has(n) && !DATA_ONLY.has(n)));
  if (unknown) return `argument "${unknown.raw}" is known only at run time`;
  if (n === 'git') return gitNotReadOnly(cmd.argv, vctx);
  if (!DEFAULT_ALLOW_RULES.some((r) => ruleMatches(r, cmd.argv))) return `"${n}" is read-only only in its listed forms`;
  if ((VETTERS[n]?.(args, vctx) ?? []).length) return `an option of ${n} writes files or runs a program`;
  if (writeOptionUsed(n, args)) return `an option of ${n} writes a file`;
  // `uniq IN OUT` writes OUT.
  if (n === 'uniq' && positionals(args, ['-f', '-s', '-w']).length > 1) return 'uniq writes its second file';
  return undefined;
}

function writesAFile(r: Redirect): boolean {
  if (r.kind !== 'write') return false;
  return !r.target || r.target.dynamic || r.target.glob || !NOT_A_FILE.has(r.target.value);
}

/** git reads only in the forms the default allow list names for it, with nothing git.ts objects to. */
function gitNotReadOnly(argv: Word[], vctx: VetContext): string | undefined {
  const view = gitView(argv, { ...vctx, isIgnoredPath: undefined });
  if (view.findings.length) return `git ${view.findings[0]!.reason}`;
  if (view.argv.some((w) => GIT_RUNS_FILTERS.includes(w.value))) return '`git --filters` runs configured filter programs';
  const listed = DEFAULT_ALLOW_RULES.some((r) => r.command === 'git' && ruleMatches(r, view.argv));
  return listed ? undefined : `\`git ${view.argv[1]?.raw ?? ''}\` is not one of git's read-only forms`;
}

/** The program's file-writing options (fileOptions.ts), in any spelling findOptions knows. */
function writeOptionUsed(n: string, args: Word[]): boolean {
  const writes = FILE_OPTIONS[n]?.writes ?? [];
  if (!writes.length) return false;
  const long = writes.filter((w) => w.startsWith('--'));
  const short = writes.filter((w) => /^-[^-]$/.test(w));
  const whole = writes.filter((w) => !long.includes(w) && !short.includes(w));
  return findOptions(args, { long, short }).length > 0 || args.some((a) => whole.includes(a.value.split('=')[0]!));
}
