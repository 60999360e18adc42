/** Families of programs the rules reason about. Names are compared after quote removal. */

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'busybox']);

/** Programs that run code they are given (a script, a string, or stdin). */
export const INTERPRETERS = new Set([
  ...SHELLS,
  'python',
  'python2',
  'python3',
  'node',
  'nodejs',
  'deno',
  'bun',
  'perl',
  'ruby',
  'php',
  'lua',
  'luajit',
  'tclsh',
  'wish',
  'osascript',
  'pwsh',
  'powershell',
  'Rscript',
  'julia',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'source',
  '.',
  'eval',
  'xargs',
  'parallel',
]);

/** Programs that fetch from the network and print what they fetched. */
export const DOWNLOADERS = new Set([
  'curl',
  'wget',
  'fetch',
  'aria2c',
  'http',
  'https',
  'xh',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'lwp-request',
  'GET',
  'lynx',
  'w3m',
  'scp',
  'rsync',
  'ftp',
  'tftp',
  'openssl',
]);

/** Privilege escalation: never run by an agent. */
export const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'run0', 'sudoedit']);

/** Commands whose output-only arguments are data, never paths that get read. */
export const DATA_ONLY = new Set(['echo', 'printf', 'true', 'false', ':', 'pwd', 'sleep', 'date']);

/** Programs that run arbitrary code from the workspace (package scripts, test files, build files). */
export const RUNS_WORKSPACE_CODE = new Set([
  'node',
  'nodejs',
  'deno',
  'bun',
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'pnpx',
  'make',
  'cmake',
  'python',
  'python2',
  'python3',
  'pytest',
  'tox',
  'nox',
  'jest',
  'vitest',
  'mocha',
  'ava',
  'tsx',
  'ts-node',
  'cargo',
  'go',
  'gradle',
  'gradlew',
  'mvn',
  'ant',
  'rake',
  'bundle',
  'ruby',
  'perl',
  'php',
  'composer',
  'dotnet',
  'eslint',
  'prettier',
  'tsc',
  'webpack',
  'vite',
  'rollup',
  'esbuild',
  'just',
  'task',
  ...SHELLS,
]);

/** The last path segment: deny rules match `/bin/rm` like `rm`; allow rules never do. */
export function baseName(name: string): string {
  const i = name.lastIndexOf('/');
  return i >= 0 ? name.slice(i + 1) : name;
}

export function isPathQualified(name: string): boolean {
  return name.includes('/') || name.startsWith('~');
}
