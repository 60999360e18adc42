import type { Finding } from './types';

/**
 * Variables that make an allowed program run other code or read other configuration. Setting one
 * (`A=b cmd`, `export A=b`, `env A=b cmd`) asks. Compared case-insensitively because some readers
 * (npm_config_*) are.
 */
const EXACT = new Set([
  'path',
  'ld_preload',
  'ld_library_path',
  'ld_audit',
  'node_options',
  'node_path',
  'bash_env',
  'env',
  'shellopts',
  'bashopts',
  'ps1',
  'ps2',
  'ps3',
  'ps4',
  'prompt_command',
  'ifs',
  'cdpath',
  'home',
  'globignore',
  'histfile',
  'pager',
  'manpager',
  'editor',
  'visual',
  'lessopen',
  'lessclose',
  'less',
  'ripgrep_config_path',
  'shell',
  'makeflags',
  'makefiles',
  'mflags',
  'java_tool_options',
  '_java_options',
  'jdk_java_options',
  'fpath',
  'zdotdir',
  'tar_options',
  'grep_options',
  'browser',
  'ssh_askpass',
  'sudo_askpass',
  'perl5opt',
  'perl5lib',
  'perllib',
  'rubyopt',
  'rubylib',
  'pythonpath',
  'pythonstartup',
  'pythonhome',
  'pythoninspect',
  'pythonuserbase',
  'tmpdir',
  'xdg_config_home',
  'npm_execpath',
  'cargo_home',
  'rustc_wrapper',
  'rustc',
  'gopath',
  'goflags',
  'cc',
  'cxx',
  'ld',
  'ar',
  'cflags',
  'ldflags',
  'pytest_addopts',
  'pytest_plugins',
  'vitest_config',
]);
const PREFIXES = [
  'ld_',
  'dyld_',
  'git_',
  'node_',
  'npm_config_',
  'yarn_',
  'pnpm_',
  'bash_func_',
  'python',
  'perl',
  'ruby',
  'lua_',
  'java',
  'cargo_',
  'rustflags',
  'docker_',
  'kubeconfig',
];

export function dangerousEnvFindings(names: readonly string[]): Finding[] {
  const out: Finding[] = [];
  for (const raw of names) {
    const n = raw.toLowerCase();
    if (EXACT.has(n) || PREFIXES.some((p) => n.startsWith(p))) {
      out.push({ verdict: 'ask', rule: 'ask:env-injection', reason: `Setting ${raw} can make the program run other code or read other configuration.` });
    } else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw)) {
      out.push({ verdict: 'ask', rule: 'ask:env-injection', reason: `Assignment to "${raw}" (an array element or unusual name) is evaluated by the shell.` });
    }
  }
  return out;
}
