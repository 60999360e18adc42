/**
 * The environment of every child process the agent starts (run_command, test commands, ripgrep).
 * A child's output goes to the model, so anything in its environment can reach the model and,
 * through a fetch, anyone (attacks.sandbox). Credentials hide under innocent names (DATABASE_URL with a
 * password, a token in a user's own variable), so names are let through from an allowlist, not
 * filtered from a denylist; and even an allowed name loses a value that carries a credential.
 *
 * One implementation: callers pass their extra names (the user setting `patchpilot.policy.envAllow`)
 * and their own fixed variables (CI=1 for tests), never build an environment themselves.
 */

/**
 * Names a build or test needs to behave as it does in the user's terminal. Each is here because a
 * common tool breaks or changes behaviour without it; none of them is meant to hold a secret.
 */
const ALLOWED_NAMES = new Set([
  // Finding programs and the user's identity and shell: every tool.
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  // Locale and terminal: output encoding, sort order, dates, line wrapping, colours.
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  // Where temporary files go (a small /tmp, or a per-user TMPDIR on macOS).
  'TMPDIR',
  'TMP',
  'TEMP',
  // Where per-user configuration and caches live; tools fall back to ~/.cache etc. without them.
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  // Toolchain locations: without them java, go, cargo, pyenv/venv, nvm-installed node and friends
  // are not found or use another version than the user's terminal does.
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'GOCACHE',
  'GOMODCACHE',
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'NVM_DIR',
  'NVM_BIN',
  'VOLTA_HOME',
  'PNPM_HOME',
  'DENO_DIR',
  'BUN_INSTALL',
  'GEM_HOME',
  'GEM_PATH',
  'RBENV_ROOT',
  'SDKMAN_DIR',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  'DOTNET_ROOT',
  'MAVEN_HOME',
  'M2_HOME',
  'GRADLE_HOME',
  'GRADLE_USER_HOME',
  // Corporate proxies: package managers cannot reach their registries without them. A proxy URL
  // with user:password@ is dropped by the value check below.
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
]);
/** LC_ALL, LC_CTYPE ...: locale categories. */
const ALLOWED_PREFIX = /^LC_[A-Z]+$/;

/**
 * Second filter, on names, even for allowed ones (a user's envAllow may name MY_TOKEN by mistake):
 * names that say they hold a credential.
 */
const SECRET_NAME = /(API_?KEY|ACCESS_?KEY|SECRET|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIAL|PRIVATE_?KEY|_AUTH|AUTH_|SESSION_?KEY|COOKIE|WEBHOOK)/i;
const SECRET_PREFIX =
  /^(AWS_|AZURE_|GOOGLE_APPLICATION_CREDENTIALS|GCP_|OPENAI_|ANTHROPIC_|PATCHPILOT_API|GITHUB_TOKEN|GH_TOKEN|NPM_TOKEN|NODE_AUTH_TOKEN|SSH_AUTH_SOCK|GPG_AGENT_INFO|VAULT_|DOCKER_AUTH|KUBECONFIG)/i;

/** Values that carry a credential whatever the name: a URL with user:password@, a private key, well-known token shapes. */
const SECRET_VALUE = [
  /[a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:[^\s/@]+@/i, // scheme://user:password@host
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(sk-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|npm_[A-Za-z0-9]{30,})\b/,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\./, // a JWT
];

export interface ChildEnvOptions {
  /** The environment to take values from (default: process.env). */
  base?: NodeJS.ProcessEnv;
  /** Extra names to pass (the user setting patchpilot.policy.envAllow); still value-checked. */
  allow?: readonly string[];
  /** Variables the caller sets itself (CI=1, a run marker); not filtered. */
  set?: Record<string, string>;
}

export interface ChildEnv {
  env: NodeJS.ProcessEnv;
  /** Names present in the base but not passed, for a diagnostic (never their values). */
  removed: string[];
}

export function looksSecretName(name: string): boolean {
  return SECRET_NAME.test(name) || SECRET_PREFIX.test(name);
}

/** Builds a child's environment: allowlisted names, minus secret-looking names and credential-carrying values. */
export function buildChildEnv(options: ChildEnvOptions = {}): ChildEnv {
  const base = options.base ?? process.env;
  const extra = new Set(options.allow ?? []);
  // A secret copied into an innocent variable (FOO=$OPENAI_API_KEY) is caught by its value.
  const secretValues = Object.entries(base)
    .filter(([k, v]) => looksSecretName(k) && typeof v === 'string' && v.length >= 8)
    .map(([, v]) => v!);
  const env: NodeJS.ProcessEnv = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    const allowed = ALLOWED_NAMES.has(name) || ALLOWED_PREFIX.test(name) || extra.has(name);
    if (allowed && !looksSecretName(name) && !carriesCredential(value, secretValues)) env[name] = value;
    else removed.push(name);
  }
  return { env: { ...env, ...options.set }, removed };
}

function carriesCredential(value: string, secretValues: readonly string[]): boolean {
  return SECRET_VALUE.some((re) => re.test(value)) || secretValues.some((s) => value.includes(s));
}
