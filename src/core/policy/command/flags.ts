import { findOptions, positionals } from './options';
import { classifyWriteTarget, isInside, resolveWordPath, type PathContext } from './paths';
import { sedScriptFindings } from './sedScript';
import type { Finding, Word } from './types';

/**
 * Flags that turn an allowed, read-only command into one that executes or writes. Each vetter sees
 * the arguments after the program name and returns what must not simply be allowed.
 */
export interface VetContext extends PathContext {
  cwds: string[];
}

type Vetter = (args: Word[], ctx: VetContext) => Finding[];

const ask = (rule: string, reason: string, flag?: string): Finding => ({ verdict: 'ask', rule, reason, flag });

function flagAsks(cmd: string, args: Word[], long: string[], short: string[], why: string): Finding[] {
  return findOptions(args, { long, short }).map((o) => ask(`ask:${cmd}${o.flag}`, `\`${cmd} ${o.flag}\` ${why}.`, o.flag));
}

function writeOptions(cmd: string, args: Word[], ctx: VetContext, long: string[], short: string[] = []): Finding[] {
  const out: Finding[] = [];
  for (const o of findOptions(args, { long, short, takesValue: true })) {
    out.push(...classifyWriteTarget(o.value, ctx.cwds, ctx, `\`${cmd} ${o.flag}\``));
  }
  return out;
}

const FIND_EXEC = ['-exec', '-execdir', '-ok', '-okdir'];
const FIND_WRITE = ['-delete', '-fprint', '-fprint0', '-fprintf', '-fls'];

const find: Vetter = (args, ctx) => {
  const out: Finding[] = [];
  args.forEach((a, i) => {
    if (FIND_EXEC.includes(a.value)) out.push(ask(`ask:find${a.value}`, `\`find ${a.value}\` runs a command on every match.`, a.value));
    if (a.value === '-delete') out.push(ask('ask:find-delete', '`find -delete` deletes files.', a.value));
    if (FIND_WRITE.includes(a.value) && a.value !== '-delete') {
      out.push(ask(`ask:find${a.value}`, `\`find ${a.value}\` writes a file.`, a.value));
      out.push(...classifyWriteTarget(args[i + 1], ctx.cwds, ctx, `\`find ${a.value}\``));
    }
  });
  return out;
};

const rg: Vetter = (args) => flagAsks('rg', args, ['--pre', '--pre-glob', '--hostname-bin'], [], 'runs an external program');

const sed: Vetter = (args, ctx) => {
  const out: Finding[] = [];
  const sandboxed = findOptions(args, { long: ['--sandbox'] }).length > 0;
  const inPlace = findOptions(args, { long: ['--in-place'], short: ['-i'] });
  const scripts = findOptions(args, { long: ['--expression'], short: ['-e'], takesValue: true });
  const scriptFiles = findOptions(args, { long: ['--file'], short: ['-f'], takesValue: true });
  const pos = positionals(args, ['-e', '-f', '--expression', '--file', '-l', '--line-length']);
  const scriptWords = scripts.length || scriptFiles.length ? scripts.map((s) => s.value) : [pos.shift()];
  if (scriptFiles.length) out.push(ask('ask:sed-script-file', '`sed -f` runs a script file that was not checked.', '-f'));
  if (!sandboxed) {
    for (const w of scriptWords) {
      if (!w) continue;
      if (w.dynamic) out.push(ask('ask:sed-dynamic-script', 'The sed script is known only at run time.'));
      else out.push(...sedScriptFindings(w.value));
    }
  }
  if (inPlace.length) {
    out.push(ask('ask:sed-in-place', '`sed -i` edits files in place, outside the patch preview.', inPlace[0]!.flag));
    for (const f of pos) out.push(...classifyWriteTarget(f, ctx.cwds, ctx, '`sed -i`'));
  }
  return out;
};

const sort: Vetter = (args, ctx) => [
  ...writeOptions('sort', args, ctx, ['--output'], ['-o']),
  ...flagAsks('sort', args, ['--compress-program'], [], 'runs an external program'),
];

const tee: Vetter = (args, ctx) => positionals(args).flatMap((f) => classifyWriteTarget(f, ctx.cwds, ctx, '`tee`'));

const uniq: Vetter = (args, ctx) => {
  const pos = positionals(args, ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars']);
  return pos.length > 1 ? classifyWriteTarget(pos[1], ctx.cwds, ctx, '`uniq` (second file is its output)') : [];
};

const printfOrTest =
  (cmd: string): Vetter =>
  (args) =>
    args.some((a, i) => a.value === '-v' && args[i + 1]?.value.includes('['))
      ? [ask(`ask:${cmd}-v-subscript`, `\`${cmd} -v\` with an array subscript evaluates it, which can run code.`)]
      : [];

const date: Vetter = (args) => flagAsks('date', args, ['--set'], ['-s'], 'changes the system clock');

const PKG_FLAGS = ['--script-shell', '--global', '--prefix', '--userconfig', '--globalconfig', '--node-options', '--dir', '--cwd'];
const pkg =
  (cmd: string): Vetter =>
  (args) =>
    flagAsks(cmd, args, PKG_FLAGS, ['-g', '-C'], 'changes which code or configuration runs');

const npx: Vetter = (args) => flagAsks('npx', args, ['--package', '--yes', '--call'], ['-p', '-y', '-c'], 'installs or runs other code');

const tsc: Vetter = (args, ctx) =>
  writeOptions(
    'tsc',
    args.map((a) => ({ ...a, value: a.value.replace(/^--[A-Za-z]+/, (m) => m.toLowerCase()) })),
    ctx,
    ['--outdir', '--outfile', '--out', '--declarationdir', '--tsbuildinfofile', '--generatetrace', '--generatecpuprofile'],
  );

const eslint: Vetter = (args, ctx) => [
  ...writeOptions('eslint', args, ctx, ['--output-file'], ['-o']),
  ...findOptions(args, { long: ['--fix'], exactLong: true }).map((o) =>
    ask('ask:eslint--fix', '`eslint --fix` rewrites files outside the patch preview.', o.flag),
  ),
];

const prettier: Vetter = (args) => flagAsks('prettier', args, ['--write'], ['-w'], 'rewrites files outside the patch preview');

const testRunner =
  (cmd: string): Vetter =>
  (args, ctx) =>
    writeOptions(cmd, args, ctx, ['--outputFile', '--output-file', '--coverageDirectory', '--junitxml', '--junit-xml', '--basetemp']);

const node: Vetter = (args) => flagAsks('node', args, ['--inspect', '--inspect-brk', '--inspect-wait'], [], 'opens a debugger port');

const go: Vetter = (args, ctx) => [
  ...args.filter((a) => /^--?(exec|toolexec)(=|$)/.test(a.value)).map((a) => ask('ask:go-exec', '`go -exec/-toolexec` runs another program.', a.value)),
  ...writeOptions(
    'go',
    args.map((a) => ({ ...a, value: a.value.replace(/^-o(?=$|=)/, '--o') })),
    ctx,
    ['--o'],
  ),
];

const cargo: Vetter = (args) => flagAsks('cargo', args, ['--config'], ['-Z'], 'changes which programs cargo runs');

/** `cd` outside the workspace would make later relative paths point anywhere. */
const cd: Vetter = (args, ctx) => {
  const target = args.find((a) => !a.value.startsWith('-') || a.value === '-');
  if (!target) return [ask('ask:cd-outside-workspace', '`cd` without a directory goes to the home directory.')];
  if (target.dynamic || target.glob || target.value === '-') {
    return [ask('ask:cd-dynamic', `\`cd ${target.raw}\` goes to a directory known only at run time.`)];
  }
  return ctx.cwds.flatMap((c) => {
    const abs = resolveWordPath(target, c, ctx.homeDir);
    return abs && isInside(ctx.workspaceRoot, abs) ? [] : [ask('ask:cd-outside-workspace', `\`cd ${target.raw}\` leaves the workspace.`)];
  });
};

/** `declare -i`, `-n` and friends evaluate values as code or references; plain exports are fine. */
const declaration =
  (cmd: string): Vetter =>
  (args) =>
    args
      .filter((a) => /^[-+]/.test(a.value) && /[^xragAp\-+]/.test(a.value.slice(1)))
      .map((a) => ask(`ask:${cmd}-flag`, `\`${cmd} ${a.value}\` may evaluate values as code.`, a.value));

export const VETTERS: Record<string, Vetter> = {
  find,
  rg,
  sed,
  sort,
  tee,
  uniq,
  date,
  npx,
  tsc,
  eslint,
  prettier,
  node,
  go,
  cargo,
  cd,
  pushd: cd,
  printf: printfOrTest('printf'),
  test: printfOrTest('test'),
  '[': printfOrTest('['),
  npm: pkg('npm'),
  pnpm: pkg('pnpm'),
  yarn: pkg('yarn'),
  jest: testRunner('jest'),
  vitest: testRunner('vitest'),
  mocha: testRunner('mocha'),
  pytest: testRunner('pytest'),
  declare: declaration('declare'),
  local: declaration('local'),
  export: declaration('export'),
  readonly: declaration('readonly'),
  typeset: declaration('typeset'),
};

/** Commands whose options are harmless, so a glob expanding into an option cannot hurt (all of them read-only programs: readOnly.ts builds on this list). */
export const GLOB_SAFE = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'echo',
  'printf',
  'du',
  'stat',
  'diff',
  'cmp',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'nl',
  'cut',
  'comm',
]);

/**
 * Arguments that are patterns or scripts, not paths (`grep '/usr/' f`, `sed -e '/x/d' f`): they
 * are not checked as paths, which would ask for no reason.
 */
export function nonPathArgIndexes(cmd: string, args: readonly Word[]): Set<number> {
  const out = new Set<number>();
  const patternCmds: Record<string, string[]> = {
    sed: ['-e', '--expression'],
    grep: ['-e', '--regexp'],
    egrep: ['-e', '--regexp'],
    fgrep: ['-e', '--regexp'],
    rg: ['-e', '--regexp'],
  };
  const valueFlags = patternCmds[cmd];
  if (!valueFlags) return out;
  // With -f/--file the pattern or script comes from a file: every positional is then a path.
  let sawFlagged = args.some((a) => /^(-f|--file)(=|$)/.test(a.value) || /^-[a-zA-Z]*f$/.test(a.value));
  args.forEach((a, i) => {
    if (valueFlags.includes(a.value)) {
      out.add(i + 1);
      sawFlagged = true;
    } else if (valueFlags.some((f) => f.startsWith('--') && a.value.startsWith(f + '='))) {
      out.add(i);
      sawFlagged = true;
    }
  });
  if (!sawFlagged) {
    // The first positional is the pattern (grep, rg) or the script (sed).
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === '--') {
        if (i + 1 < args.length) out.add(i + 1);
        break;
      }
      if (v.startsWith('-') && v !== '-') continue;
      out.add(i);
      break;
    }
  }
  return out;
}
