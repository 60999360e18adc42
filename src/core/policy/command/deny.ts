import path from 'node:path';
import { baseName, PRIVILEGE } from './commandClasses';
import { findOptions, positionals } from './options';
import { resolveWordPath } from './paths';
import type { Finding, Word } from './types';

/**
 * Built-in deny rules, matched on the program's base name (so `/bin/rm` and `\rm` are rm too).
 * No approval mode turns these into anything else.
 */
export interface DenyContext {
  homeDir: string;
  cwds: string[];
}

const deny = (rule: string, reason: string): Finding => ({ verdict: 'deny', rule, reason });

const SYSTEM_TOP = new Set([
  '/',
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib64',
  '/boot',
  '/var',
  '/home',
  '/root',
  '/opt',
  '/dev',
  '/sys',
  '/proc',
  '/Users',
  '/System',
  '/Library',
]);

/** `/`, the home directory, anything above it, a top-level system directory, or a glob right in one of them. */
function isCatastrophicTarget(w: Word, ctx: DenyContext): boolean {
  const v = w.value;
  // `"$HOME"`, `~`, `${HOME}` with any trailing slashes, dots or a glob.
  const candidates = ctx.cwds.map((c) => resolveWordPath({ ...w, value: v.replace(/\/(\*|\.\*|\.)?$/, '') || '/' }, c, ctx.homeDir));
  return candidates.some((abs) => {
    if (!abs) return false;
    const home = path.resolve(ctx.homeDir);
    return SYSTEM_TOP.has(abs) || abs === home || home.startsWith(abs === '/' ? '/' : abs + '/');
  });
}

type DenyCheck = (args: Word[], ctx: DenyContext) => Finding[];

const rm: DenyCheck = (args, ctx) => {
  const recursive = findOptions(args, { long: ['--recursive'], short: ['-r', '-R'] }).length > 0;
  const noPreserve = findOptions(args, { long: ['--no-preserve-root'], exactLong: true }).length > 0;
  if (noPreserve) return [deny('deny:rm-no-preserve-root', '`rm --no-preserve-root` exists only to delete /.')];
  if (!recursive) return [];
  const hit = positionals(args).find((w) => isCatastrophicTarget(w, ctx));
  return hit ? [deny('deny:rm-recursive-root', `Recursive delete of "${hit.raw}" (the root, home or a system directory).`)] : [];
};

const chmodChown =
  (cmd: string): DenyCheck =>
  (args, ctx) => {
    const recursive = findOptions(args, { long: ['--recursive'], short: ['-R'] }).length > 0;
    const pos = positionals(args, ['--reference', '--from']);
    const targets = cmd === 'chmod' || cmd === 'chown' || cmd === 'chgrp' ? pos.slice(1) : pos;
    const hit = targets.find((w) => isCatastrophicTarget(w, ctx));
    if (!hit) return [];
    if (cmd === 'chmod' && !recursive && hit.value !== '/') return [];
    return [deny(`deny:${cmd}-root`, `\`${cmd}\` on "${hit.raw}" (the root, home or a system directory).`)];
  };

const dd: DenyCheck = (args) =>
  args.some((a) => /^of=\/dev\//.test(a.value) && !/^of=\/dev\/(null|stdout|stderr)$/.test(a.value))
    ? [deny('deny:dd-device', '`dd of=/dev/...` overwrites a device.')]
    : [];

const always =
  (rule: string, reason: string): DenyCheck =>
  () => [deny(rule, reason)];

const systemctl: DenyCheck = (args) =>
  args.some((a) => /^(poweroff|reboot|halt|kexec|suspend|hibernate|rescue|emergency|isolate)$/.test(a.value))
    ? [deny('deny:shutdown', '`systemctl` power or rescue action.')]
    : [];

const init: DenyCheck = (args) => (args.some((a) => /^[016sS]$/.test(a.value)) ? [deny('deny:shutdown', '`init`/`telinit` runlevel change.')] : []);

/** `kill -9 -1` (or `kill -- -1`): a pid of -1 signals every process we may signal. */
const kill: DenyCheck = (args) => (args.slice(1).some((a) => a.value === '-1') ? [deny('deny:kill-all', '`kill -1` signals every process of the user.')] : []);

const DENY: Record<string, DenyCheck> = {
  rm,
  dd,
  systemctl,
  init,
  telinit: init,
  kill,
  chmod: chmodChown('chmod'),
  chown: chmodChown('chown'),
  chgrp: chmodChown('chgrp'),
  shutdown: always('deny:shutdown', 'Shuts the machine down.'),
  reboot: always('deny:shutdown', 'Reboots the machine.'),
  halt: always('deny:shutdown', 'Halts the machine.'),
  poweroff: always('deny:shutdown', 'Powers the machine off.'),
  wipefs: always('deny:mkfs', 'Erases file system signatures.'),
  mkswap: always('deny:mkfs', 'Formats a device.'),
  shred: always('deny:shred', 'Irrecoverably overwrites files.'),
};

export function builtinDenyFindings(name: string, args: Word[], ctx: DenyContext): Finding[] {
  const base = baseName(name);
  if (PRIVILEGE.has(base)) return [deny('deny:privilege-escalation', `\`${base}\` runs commands with other privileges.`)];
  if (/^mkfs(\..*)?$|^mke2fs$|^newfs/.test(base)) return [deny('deny:mkfs', 'Formats a file system.')];
  return DENY[base]?.(args, ctx) ?? [];
}

/**
 * Second line of defence, used when the structure could not be fully read (parse errors, limits,
 * code in strings): deny patterns on the text itself, after removing quotes and line continuations.
 */
const TEXT_DENY: [RegExp, string, string][] = [
  [
    /\brm\s+(?:-[-\w]{0,40}\s+){0,8}-[a-zA-Z]{0,10}[rR][a-zA-Z]{0,10}\s+(?:-[-\w]{0,40}\s+){0,8}(\/|\/\*|~\/?|\$\{?HOME\}?\/?)(\s|;|&|\||\)|$)/,
    'deny:rm-recursive-root',
    'Recursive delete of /, ~ or $HOME.',
  ],
  [/\brm\s+(?:-[-\w]{0,40}\s+){0,8}--no-preserve-root/, 'deny:rm-no-preserve-root', '`rm --no-preserve-root`.'],
  // Bounded name length: an unbounded (\S+) backtracks quadratically on long words.
  [/(?:^|[\s;&|(])([^\s();&|{}]{1,64})\s*\(\)\s*\{[^}]{0,200}\1\s*\|\s*\1\s*&/, 'deny:fork-bomb', 'A fork bomb.'],
  [/\bmkfs(\.\w+)?\b/, 'deny:mkfs', 'Formats a file system.'],
  [/\bdd\b[^|;&]{0,300}\bof=\/dev\/(?!null\b)/, 'deny:dd-device', '`dd` onto a device.'],
  [/>\s*\/dev\/(sd|hd|nvme|vd|xvd|mmcblk|disk)/, 'deny:write-device', 'A write onto a disk device.'],
  [
    /\b(curl|wget|fetch|aria2c|nc|ncat)\b[^|;&]{0,300}\|\s*(\S*\/)?(env\s+)?(sudo\s+)?(ba|z|da|k|fi)?sh\b/,
    'deny:download-into-interpreter',
    'A download piped into a shell.',
  ],
  [/\b(curl|wget)\b[^|;&]{0,300}\|\s*(\S*\/)?(python[23]?|node|perl|ruby|php)\b/, 'deny:download-into-interpreter', 'A download piped into an interpreter.'],
  [/(^|[\s;&|(`])(sudo|doas|pkexec|su)\s/, 'deny:privilege-escalation', 'Privilege escalation.'],
  [/(^|[\s;&|(`])(shutdown|reboot|halt|poweroff)(\s|;|$)/, 'deny:shutdown', 'Shuts the machine down.'],
  [/\bchmod\s+(?:-\w{1,20}\s+){0,8}-R\s+(?:-\w{1,20}\s+){0,8}[0-7]*777\s+\/(\s|$)/, 'deny:chmod-root', '`chmod -R 777 /`.'],
  [/\bchown\b[^;&|]{0,300}\s\/(\s|$)/, 'deny:chown-root', '`chown` on /.'],
  [/>>?\s*\/etc\//, 'deny:write-system-path', 'A write into /etc.'],
];

export function textualDenyFindings(raw: string): Finding[] {
  const joined = raw.replace(/\\\r?\n/g, '');
  const unquoted = joined.replace(/['"\\]/g, '').replace(/\r/g, '\n');
  // What the shell would make of `{rm,-rf,~}` and `rm${IFS}-rf${IFS}~`.
  const expanded = unquoted.replace(/\$\{?IFS\}?/g, ' ').replace(/\{([^{}\s]*,[^{}\s]*)\}/g, (_m, inner: string) => inner.split(',').join(' '));
  const variants = new Set([raw, joined, unquoted, expanded]);
  const out: Finding[] = [];
  for (const text of variants) {
    for (const [re, rule, reason] of TEXT_DENY) {
      if (re.test(text) && !out.some((f) => f.rule === rule)) out.push(deny(rule, reason + ' (found in the text of a command that could not be fully parsed)'));
    }
  }
  return out;
}
