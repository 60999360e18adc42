/**
 * The `-c` overrides that stop repository config from running anything in PatchPilot's own git
 * calls. A repository's config (and whatever it includes) is written by whoever controls the
 * workspace, here possibly the agent; command-line `-c` beats every config file, includes too, so
 * each key that names a program is overridden with a value that runs nothing. Keys whose middle
 * part is a free name (filter.<driver>.clean, diff.<driver>.textconv, pager.<command> ...) cannot
 * be listed in advance: they are found in the effective config (`git config --list -z`, which only
 * reads) and overridden one by one.
 */

/** Keys with a fixed name, and the value that makes each inert. */
export const FIXED_OVERRIDES: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'], // hooks are looked up as /dev/null/<name>: never found
  ['core.pager', 'cat'],
  ['core.editor', ':'], // git treats ":" as "no editor"
  ['sequence.editor', ':'],
  ['core.askPass', ''],
  ['core.sshCommand', ''],
  ['core.gitProxy', ''],
  ['core.alternateRefsCommand', ''],
  ['uploadpack.packObjectsHook', ''],
  ['diff.external', ''],
  ['credential.helper', ''], // an empty value clears the helper list
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['log.showSignature', 'false'],
  ['gc.auto', '0'], // commit would start `git gc --auto` / maintenance in the background
  ['maintenance.auto', 'false'],
  ['protocol.allow', 'never'], // no transport at all: lazy fetches of a partial clone, ssh, ext::
  ['submodule.recurse', 'false'], // submodules have their own config, not read by the list below
  ['diff.ignoreSubmodules', 'all'],
  ['status.submoduleSummary', 'false'],
  ['safe.bareRepository', 'explicit'],
  ['core.quotePath', 'false'],
  ['color.ui', 'false'],
];

/** Free-name keys: a pattern on the lower-cased key, and the inert value. */
const DRIVER_KEYS: readonly [RegExp, string][] = [
  [/^filter\..+\.(clean|smudge|process)$/s, ''], // git skips an empty filter command
  [/^filter\..+\.required$/s, 'false'], // else an emptied required filter fails the add
  [/^diff\..+\.(command|textconv)$/s, ''],
  [/^merge\..+\.driver$/s, ''],
  [/^(mergetool|difftool)\..+\.(cmd|path)$/s, ''],
  [/^credential\..+\.helper$/s, ''],
  [/^pager\.[^.]+$/s, 'false'],
  [/^gpg\.(.+\.)?program$/s, ''],
  [/^gpg\.ssh\.defaultkeycommand$/s, ''],
  [/^remote\..+\.(uploadpack|receivepack|proxy)$/s, ''],
  [/^hook\..+\.command$/s, ':'], // config-defined hooks (newer git)
];

/**
 * The overrides for the free-name keys present in `configList` (the output of
 * `git config --list -z`: `key\nvalue` records separated by NUL). Throws when a key cannot be
 * overridden on the command line: `-c` splits at the first "=", so a subsection holding one
 * (`[filter "a=b"]`) would set a different key; git is not run then.
 */
export function driverOverrides(configList: string): [string, string][] {
  const out = new Map<string, string>();
  for (const record of configList.split('\0')) {
    if (!record) continue;
    const nl = record.indexOf('\n');
    const key = nl < 0 ? record : record.slice(0, nl);
    const lower = key.toLowerCase();
    const hit = DRIVER_KEYS.find(([re]) => re.test(lower));
    if (!hit) continue;
    if (key.includes('=')) throw new Error(`the git config key "${key}" contains "=" and cannot be neutralised`);
    out.set(key, hit[1]);
  }
  return [...out];
}

/** The `-c key=value` arguments for fixed and found overrides. */
export function overrideArgs(drivers: readonly [string, string][]): string[] {
  return [...FIXED_OVERRIDES, ...drivers].flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

/** Whether the effective config has a value for `key` (e.g. user.name), from the same list. */
export function hasConfig(configList: string, key: string): boolean {
  const lower = key.toLowerCase();
  return configList.split('\0').some((record) => {
    const nl = record.indexOf('\n');
    return (nl < 0 ? record : record.slice(0, nl)).toLowerCase() === lower && nl >= 0 && record.slice(nl + 1) !== '';
  });
}
