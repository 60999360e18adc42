/**
 * The one list of files that define what a test command does (attacks.commands): the guard fingerprints them at
 * run start, and run_tests asks before running tests whose definition this run changed. A file
 * here that the agent rewrote makes `npm test` run the agent's code as the user's.
 */
const SCRIPT_EXTENSIONS = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'];
const withExtensions = (stem: string, extra: string[] = []) => [...SCRIPT_EXTENSIONS, ...extra].map((ext) => `${stem}.${ext}`);

export const TEST_DEFINITION_FILES: readonly string[] = [
  // npm, yarn, pnpm: scripts and the package manager's own configuration
  'package.json',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  // make, just, task
  'Makefile',
  'makefile',
  'GNUmakefile',
  'justfile',
  'Justfile',
  'Taskfile.yml',
  'Taskfile.yaml',
  // Python
  'pyproject.toml',
  'tox.ini',
  'setup.cfg',
  'pytest.ini',
  'conftest.py',
  'noxfile.py',
  // Rust, Go
  'Cargo.toml',
  'go.mod',
  // JavaScript test runners
  ...withExtensions('jest.config', ['json']),
  ...withExtensions('vitest.config'),
  ...withExtensions('vite.config'),
  ...withExtensions('playwright.config'),
  '.mocharc',
  ...['js', 'cjs', 'mjs', 'json', 'jsonc', 'yml', 'yaml'].map((ext) => `.mocharc.${ext}`),
];

const NAMES = new Set(TEST_DEFINITION_FILES);

/** True when the file (a workspace-relative path or a name) is one of TEST_DEFINITION_FILES, at any depth. */
export function isTestDefinitionFile(file: string): boolean {
  const name = file.slice(file.replace(/\\/g, '/').lastIndexOf('/') + 1);
  return NAMES.has(name);
}
