import { baseName, SHELLS } from './commandClasses';
import type { Finding, Redirect, Word } from './types';

/**
 * Programs that run another program: `env A=b cmd`, `timeout 5 cmd`, `xargs cmd`, `bash -c '...'`,
 * `eval '...'`. The wrapped command is evaluated like any other; a wrapper never hides it.
 */
export interface Unwrapped {
  wrapper: string;
  /** The command that will run, as argv. */
  inner?: Word[];
  /** A shell string that will run: parsed recursively. */
  script?: Word;
  /** Variables the wrapper sets for the inner command. */
  envNames: string[];
  findings: Finding[];
  /** xargs appends words read at run time. */
  appendsArgs?: boolean;
}

const ask = (rule: string, reason: string): Finding => ({ verdict: 'ask', rule, reason });

/** Skip options; `withValue` lists the ones whose value is the next word when not attached. */
function skipOptions(args: Word[], withValue: RegExp, stopAtFirstPositional = true): number {
  let i = 0;
  while (i < args.length) {
    const v = args[i]!.value;
    if (v === '--') return i + 1;
    if (!v.startsWith('-') || v === '-' || (!stopAtFirstPositional && false)) break;
    if (withValue.test(v)) i++;
    i++;
  }
  return i;
}

export function unwrap(argv: Word[], redirects: Redirect[]): Unwrapped | undefined {
  const name = baseName(argv[0]?.value ?? '');
  const args = argv.slice(1);
  const base = (wrapper: string): Unwrapped => ({ wrapper, envNames: [], findings: [] });
  switch (name) {
    case 'env':
      return unwrapEnv(args);
    case 'nice':
    case 'nohup':
    case 'setsid':
    case 'stdbuf':
    case 'builtin':
    case 'ionice': {
      const i = skipOptions(args, /^(-n|-c|-p|-i|-o|-e|--adjustment|--classdata|--class)$/);
      return { ...base(name), inner: args.slice(i) };
    }
    case 'command': {
      if (args.some((a) => /^-[a-zA-Z]*[vV]/.test(a.value))) return undefined; // `command -v x` only looks up
      return { ...base('command'), inner: args.slice(skipOptions(args, /^$/)) };
    }
    case 'exec': {
      const i = skipOptions(args, /^-a$/);
      return { ...base('exec'), inner: args.slice(i) };
    }
    case 'timeout': {
      let i = skipOptions(args, /^(-s|-k|--signal|--kill-after)$/);
      i++; // the duration
      return { ...base('timeout'), inner: args.slice(i) };
    }
    case 'time': {
      const u = base('time');
      const i = skipOptions(args, /^(-o|-f|--output|--format)$/);
      if (args.slice(0, i).some((a) => /^(-o|--output|-a|--append)/.test(a.value))) u.findings.push(ask('ask:time-output', '`time -o` writes a file.'));
      u.inner = args.slice(i);
      return u;
    }
    case 'xargs': {
      const i = skipOptions(args, /^(-I|-L|-n|-P|-s|-d|-E|-a|--arg-file|--delimiter|--max-args|--max-lines|--max-procs|--max-chars|--replace|--eof)$/);
      const inner = args.slice(i);
      return { ...base('xargs'), inner: inner.length ? inner : [{ value: 'echo', dynamic: false, glob: false, raw: 'echo' }], appendsArgs: true };
    }
    case 'eval':
    case 'watch':
      return unwrapScriptWords(name, args);
  }
  if (SHELLS.has(name)) return unwrapShell(name, args, redirects);
  return undefined;
}

/** `env [-u X] [-C dir] [A=b…] cmd`, and `env -S 'string'`, which splits a string into a command. */
function unwrapEnv(args: Word[]): Unwrapped {
  const u: Unwrapped = { wrapper: 'env', envNames: [], findings: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (/^(-S|--split-string)/.test(v) || /^-[a-zA-Z]*S/.test(v)) {
      const attached = v.startsWith('--split-string=') ? v.slice(15) : v.startsWith('-S') && v.length > 2 ? v.slice(2) : undefined;
      u.script = attached !== undefined ? { ...args[i]!, value: attached } : args[i + 1];
      u.findings.push(ask('ask:env-split-string', '`env -S` splits a string into a command.'));
      return u;
    }
    if (/^(-C|--chdir)/.test(v)) {
      u.findings.push(ask('ask:env-chdir', '`env -C` changes the directory.'));
      if (v === '-C' || v === '--chdir') i++;
      continue;
    }
    if (/^(-u|--unset)$/.test(v)) {
      i++;
      continue;
    }
    if (v.startsWith('-') && v !== '-') continue;
    if (v === '-') continue;
    break;
  }
  for (; i < args.length && /^[^=\s]+=/.test(args[i]!.value); i++) u.envNames.push(args[i]!.value.split('=')[0]!);
  if (args.slice(i).length) u.inner = args.slice(i);
  else u.findings.push(ask('ask:env-print', '`env` without a command prints every environment variable, secrets included.'));
  return u;
}

/** `eval words…` and `watch [-n s] words…`: the words joined are a shell string. */
function unwrapScriptWords(name: 'eval' | 'watch', args: Word[]): Unwrapped {
  const i = name === 'watch' ? skipOptions(args, /^(-n|-d|--interval|--differences)$/) : 0;
  const words = args.slice(i);
  return {
    wrapper: name,
    envNames: [],
    findings: [],
    script: {
      value: words.map((w) => w.value).join(' '),
      dynamic: words.some((w) => w.dynamic),
      glob: false,
      raw: words.map((w) => w.raw).join(' '),
    },
  };
}

/** `bash -c 'string'`, `sh -ec "..."`, `bash <<EOF ... EOF`, `bash <<< '...'`. */
function unwrapShell(name: string, args: Word[], redirects: Redirect[]): Unwrapped | undefined {
  let hasC = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    if (/^[-+]o$|^[-+]O$/.test(v)) {
      i++;
      continue;
    }
    if (v.startsWith('--')) continue;
    if (/^[-+][a-zA-Z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) hasC = true;
      if (v.startsWith('-') && v.includes('s')) hasC = hasC || false;
      continue;
    }
    break;
  }
  const u: Unwrapped = { wrapper: `${name} -c`, envNames: [], findings: [] };
  if (hasC) {
    const script = args[i];
    if (!script) return { ...u, findings: [ask('ask:shell-c-missing', `\`${name} -c\` without a command string.`)] };
    u.script = script;
    return u;
  }
  if (i < args.length) return undefined; // `bash script.sh`: a script file, decided by the rules (ask)
  const feed = redirects.find((r) => r.kind === 'heredoc' || r.kind === 'herestring');
  if (feed?.body) return { ...u, wrapper: `${name} <<`, script: feed.body };
  return { ...u, wrapper: name, findings: [ask('ask:shell-stdin', `\`${name}\` would run whatever arrives on its standard input.`)] };
}
