/**
 * Options that make an "output-only" command read or write a file: `date -f FILE` prints every line
 * of FILE in its error messages, `sort --files0-from=FILE` and `wc --files0-from` print FILE's bytes
 * as file names, `git blame --contents FILE` prints FILE, `sort -T DIR` writes into DIR. Without a
 * sandbox such a read reaches whatever the user can read (a key in the home folder), so the value of
 * every such option is checked as a path, whatever the form it is given in (`-fFILE`, `-f FILE`,
 * `--file=FILE`, a GNU prefix like `--fil=FILE`, `-newer FILE`): reads must stay inside the workspace
 * and off ignored files, writes off protected paths too; a value known only at run time asks.
 *
 * Every program of the default allow list declares its file options here, or none (`{}`); a test
 * enumerates the defaults and fails for a program without an entry, so a new default rule must say.
 * A program an allow rule of the user adds, unknown here, gets the cautious reading: an attached
 * option value that looks like a path (`-X/abs/file`, `-X~/file`) is checked as a read.
 */
import { classifyReadTarget, classifyWriteTarget, type PathContext } from './paths';
import type { Finding, Word } from './types';

export interface FileOptions {
  /**
   * Options whose value is a file or folder the program reads. `-f` is a short option (attached,
   * combined or next word), `--file` a long one (`=` or next word, unambiguous prefixes too), and a
   * single-dash name like `-newer` is matched whole (find, go), with `=value` or the next word.
   */
  reads?: readonly string[];
  /** Options whose value is a file or folder the program writes or creates files in. */
  writes?: readonly string[];
  /** Option names are compared without case (tsc). */
  ignoreCase?: boolean;
  /** `@FILE` arguments are files of more arguments (tsc, pytest): FILE is read. */
  responseFiles?: boolean;
}

const NONE: FileOptions = {};
const GREP: FileOptions = { reads: ['-f', '--file', '--exclude-from'] };
const GIT_DIFF: FileOptions = { reads: ['-O'], writes: ['--output'] };

/**
 * Keyed by program, or `git <subcommand>`. Sources: the programs' manuals (GNU coreutils, findutils,
 * grep, diffutils; git; ripgrep; node; tsc; eslint; prettier; jest; vitest; mocha; pytest; cargo; go).
 */
export const FILE_OPTIONS: Readonly<Record<string, FileOptions>> = {
  // reading and listing
  ls: NONE,
  cat: NONE,
  head: NONE,
  tail: NONE,
  pwd: NONE,
  echo: NONE,
  printf: NONE,
  true: NONE,
  false: NONE,
  ':': NONE,
  uniq: NONE,
  cmp: NONE,
  comm: NONE,
  cut: NONE,
  tr: NONE,
  nl: NONE,
  basename: NONE,
  dirname: NONE,
  readlink: NONE,
  stat: NONE,
  which: NONE,
  type: NONE,
  sleep: NONE,
  test: NONE,
  '[': NONE,
  tee: NONE,
  cd: NONE,
  pushd: NONE,
  popd: NONE,
  export: NONE,
  local: NONE,
  declare: NONE,
  readonly: NONE,
  unset: NONE,
  command: NONE,
  wc: { reads: ['--files0-from'] },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: { reads: ['-f', '--file', '--ignore-file'] },
  find: {
    reads: ['-files0-from', '-newer', '-anewer', '-cnewer', '-samefile'],
    writes: ['-fprint', '-fprint0', '-fprintf', '-fls'],
  },
  sort: { reads: ['--files0-from', '--random-source'], writes: ['-o', '--output', '-T', '--temporary-directory'] },
  diff: { reads: ['--from-file', '--to-file', '-X', '--exclude-from'] },
  realpath: { reads: ['--relative-to', '--relative-base'] },
  du: { reads: ['--files0-from', '-X', '--exclude-from'] },
  date: { reads: ['-f', '--file', '-r', '--reference'] },
  sed: { reads: ['-f', '--file'] },
  // build and test: they run workspace code (the sandbox contains them; without one they ask), but
  // their own options must not read or write outside the workspace either.
  node: {
    reads: [
      '-r',
      '--require',
      '--import',
      '--loader',
      '--experimental-loader',
      '--env-file',
      '--env-file-if-exists',
      '--openssl-config',
      '--icu-data-dir',
      '--snapshot-blob',
      '--experimental-config-file',
    ],
    writes: [
      '--cpu-prof-dir',
      '--heap-prof-dir',
      '--diagnostic-dir',
      '--report-dir',
      '--report-directory',
      '--redirect-warnings',
      '--test-reporter-destination',
    ],
  },
  npm: { reads: ['--userconfig', '--globalconfig'], writes: ['--cache', '--logs-dir', '--prefix'] },
  pnpm: { reads: ['--userconfig', '--globalconfig'], writes: ['--store-dir', '--cache-dir', '--prefix'] },
  yarn: { reads: ['--use-yarnrc'], writes: ['--cache-folder', '--modules-folder', '--prefix'] },
  tsc: {
    reads: ['-p', '--project'],
    writes: ['--outdir', '--outfile', '--out', '--declarationdir', '--tsbuildinfofile', '--generatetrace', '--generatecpuprofile'],
    ignoreCase: true,
    responseFiles: true,
  },
  eslint: {
    reads: ['-c', '--config', '--ignore-path', '--rulesdir', '--resolve-plugins-relative-to'],
    writes: ['-o', '--output-file', '--cache-location'],
  },
  prettier: { reads: ['--config', '--ignore-path'], writes: ['--cache-location'] },
  jest: { reads: ['-c', '--config', '--rootDir', '--roots'], writes: ['--outputFile', '--coverageDirectory', '--cacheDirectory'] },
  vitest: { reads: ['-c', '--config', '-r', '--root', '--dir'], writes: ['--outputFile', '--coverage.reportsDirectory'] },
  mocha: { reads: ['--config', '--package', '--file', '-r', '--require', '--spec'] },
  pytest: {
    reads: ['-c', '--config-file', '--rootdir', '--confcutdir'],
    writes: ['--junitxml', '--junit-xml', '--basetemp', '--resultlog', '--result-log'],
    responseFiles: true,
  },
  unittest: { reads: ['-s', '--start-directory', '-t', '--top-level-directory'] },
  // Inline code (`python -c`) is judged as text by the deny rules; the interpreter's own options name no file to judge.
  python: NONE,
  python3: NONE,
  // `npx` alone: the tool npx runs is judged under its own name (fileOptionsKey); an undeclared one has its attached path values judged.
  npx: NONE,
  make: { reads: ['-f', '--file', '--makefile', '-I', '--include-dir', '-C', '--directory'] },
  cargo: { reads: ['--manifest-path', '--config', '--lockfile-path'], writes: ['--target-dir', '--artifact-dir'] },
  go: {
    reads: ['-modfile', '-C', '-overlay', '-pgo'],
    writes: ['-o', '-coverprofile', '-cpuprofile', '-memprofile', '-blockprofile', '-mutexprofile', '-trace', '-outputdir'],
  },
  // git: global options are vetted in git.ts; these are the subcommands' own.
  'git status': NONE,
  'git branch': NONE,
  'git rev-parse': NONE,
  'git remote': NONE,
  'git describe': NONE,
  'git shortlog': NONE,
  'git tag': NONE,
  'git rev-list': NONE,
  'git merge-base': NONE,
  'git cat-file': NONE,
  'git ls-tree': NONE,
  'git --version': NONE,
  'git version': NONE,
  // `stash list` and `reflog show` take log and diff options.
  'git diff': GIT_DIFF,
  'git log': GIT_DIFF,
  'git show': GIT_DIFF,
  'git stash': GIT_DIFF,
  'git reflog': GIT_DIFF,
  'git ls-files': { reads: ['-X', '--exclude-from'] },
  'git blame': { reads: ['--contents', '-S', '--ignore-revs-file'] },
  'git grep': { reads: ['-f'] },
  'git config': { reads: ['-f', '--file'] },
};

/** The FILE_OPTIONS key for a command: `git <subcommand>`, the tool `npx` runs, else the program. */
export function fileOptionsKey(program: string, args: readonly Word[]): { key: string; args: readonly Word[] } {
  if (program === 'git') {
    const sub = args[0]?.value ?? '';
    return { key: `git ${sub}`, args: args.slice(1) };
  }
  if (program === 'npx' || program === 'pnpx') {
    const at = args.findIndex((a) => !a.value.startsWith('-'));
    if (at >= 0) return { key: args[at]!.value, args: args.slice(at + 1) };
  }
  return { key: program, args };
}

interface FoundValue {
  flag: string;
  value?: Word;
  write: boolean;
}

/** The values of the declared options, in every form the program accepts. */
export function findFileOptionValues(args: readonly Word[], spec: FileOptions): FoundValue[] {
  const fold = (s: string) => (spec.ignoreCase ? s.toLowerCase() : s);
  const names = [...(spec.reads ?? []).map((n) => ({ n: fold(n), write: false })), ...(spec.writes ?? []).map((n) => ({ n: fold(n), write: true }))];
  const longs = names.filter((x) => x.n.startsWith('--'));
  const shorts = names.filter((x) => /^-[^-]$/.test(x.n));
  const singleDash = names.filter((x) => /^-[^-]./.test(x.n));
  const out: FoundValue[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (w.value === '--') break;
    if (!w.value.startsWith('-') || w.value === '-') continue;
    const eq = w.value.indexOf('=');
    const name = fold(eq >= 0 ? w.value.slice(0, eq) : w.value);
    const valueOf = (): Word | undefined => (eq >= 0 ? { ...w, value: w.value.slice(eq + 1), raw: w.value.slice(eq + 1) } : args[i + 1]);
    // A single-dash long name (`-newer`, `-modfile`), also written with two dashes (go accepts both).
    const whole = singleDash.find((x) => x.n === name || `-${x.n}` === name);
    if (whole) {
      out.push({ flag: whole.n, value: valueOf(), write: whole.write });
      continue;
    }
    if (name.startsWith('--')) {
      // GNU accepts unambiguous prefixes (`--files0` is `--files0-from`): any declared name it begins counts.
      for (const x of longs.filter((l) => l.n === name || (name.length >= 4 && l.n.startsWith(name))))
        out.push({ flag: x.n, value: valueOf(), write: x.write });
      continue;
    }
    // Short options combine (`-rf FILE`, `-fFILE`): the first declared letter takes the rest or the next word.
    const letters = w.value.slice(1);
    for (let k = 0; k < letters.length; k++) {
      const hit = shorts.find((x) => x.n === fold(`-${letters[k]}`));
      if (!hit) continue;
      // go and a few others write `-o=FILE`; for GNU `-f=x` names `=x`, so checking `x` errs on the safe side.
      const attached = letters.slice(k + 1).replace(/^=/, '');
      out.push({ flag: hit.n, value: attached ? { ...w, value: attached, raw: attached } : args[i + 1], write: hit.write });
      break;
    }
  }
  return out;
}

/** What the file options of one command read and write, judged as paths. */
export function fileOptionFindings(program: string, rawArgs: readonly Word[], ctx: PathContext & { cwds: string[] }): Finding[] {
  const { key, args } = fileOptionsKey(program, rawArgs);
  const spec = FILE_OPTIONS[key];
  const out: Finding[] = [];
  const found = spec ? findFileOptionValues(args, spec) : attachedPathValues(args);
  for (const f of found) {
    const what = `\`${key} ${f.flag}\``;
    if (!f.value) continue; // no value: the program reads stdin or fails
    if (f.value.dynamic) {
      out.push({
        verdict: 'ask',
        rule: 'ask:file-option-unknown',
        reason: `${what} ${f.write ? 'writes' : 'reads'} "${f.value.raw}", known only at run time.`,
      });
      continue;
    }
    out.push(...(f.write ? classifyWriteTarget(f.value, ctx.cwds, ctx, what) : classifyReadTarget(f.value, ctx.cwds, ctx, what)));
  }
  if (!spec || spec.responseFiles) {
    for (const a of args) {
      if (!a.value.startsWith('@') || a.value.length < 2) continue;
      const file = { ...a, value: a.value.slice(1), raw: a.raw.replace(/^@/, '') };
      out.push(...classifyReadTarget(file, ctx.cwds, ctx, `\`${key} @${file.raw}\` (a file of arguments)`));
    }
  }
  return out;
}

/**
 * A program whose options nobody declared: an option with an attached value that looks like a path
 * (`-X/abs/file`, `-X~/file`, `-X../file`) is read as one. `--name=value` and separate words are
 * already checked as paths by the caller.
 */
function attachedPathValues(args: readonly Word[]): FoundValue[] {
  const out: FoundValue[] = [];
  for (const w of args) {
    if (w.value === '--') break;
    const m = /^-([A-Za-z0-9])(.+)$/.exec(w.value);
    if (!m || w.value.startsWith('--')) continue;
    const rest = m[2]!.replace(/^=/, '');
    if (/^(\/|~|\.\.?\/|\$\{?HOME)/.test(rest)) out.push({ flag: `-${m[1]}`, value: { ...w, value: rest, raw: rest }, write: false });
  }
  return out;
}
