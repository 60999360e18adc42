import { parseRulePattern, type CommandRule } from './rules';

/**
 * Read-only and build/test commands allowed by default. Their dangerous flags are vetted separately
 * (flags.ts) whatever rule matched, so "find *" does not let `find -delete` through.
 */
const ALLOW = [
  // git: global options are stripped before matching (see git.ts), subcommands vetted there
  'git status *', 'git diff *', 'git log *', 'git show *', 'git branch *', 'git rev-parse *', 'git ls-files *',
  'git blame *', 'git grep *', 'git config *', 'git remote', 'git remote -v', 'git describe *', 'git shortlog *',
  'git stash list *', 'git tag', 'git tag -l *', 'git tag --list *', 'git rev-list *', 'git merge-base *',
  'git cat-file *', 'git ls-tree *', 'git reflog', 'git reflog show *', 'git --version', 'git version',
  // reading and listing
  'ls *', 'cat *', 'head *', 'tail *', 'wc *', 'grep *', 'egrep *', 'fgrep *', 'rg *', 'find *', 'pwd *',
  'echo *', 'printf *', 'true *', 'false *', ':', 'sort *', 'uniq *', 'diff *', 'cmp *', 'comm *', 'cut *',
  'tr *', 'nl *', 'basename *', 'dirname *', 'realpath *', 'readlink *', 'stat *', 'du *', 'which *', 'type *',
  'date *', 'sleep *', 'test *', '[ *', 'tee *', 'sed *', 'cd *', 'pushd *', 'popd *', 'export *', 'local *',
  'declare *', 'readonly *', 'unset *', 'command -v *', 'command -V *',
  // build and test (they run workspace code: the sandbox contains them, see exec/)
  'node *', 'npm test *', 'npm t *', 'npm run *', 'npm run-script *', 'pnpm test *', 'pnpm run *', 'yarn test *',
  'yarn run *', 'npx tsc *', 'tsc *', 'eslint *', 'npx eslint *', 'prettier --check *', 'npx prettier --check *',
  'jest *', 'npx jest *', 'vitest *', 'npx vitest *', 'mocha *', 'npx mocha *', 'pytest *', 'python -m pytest *',
  'python3 -m pytest *', 'make test', 'make check', 'cargo test *', 'cargo check *', 'go test *', 'go vet *',
];

export const DEFAULT_ALLOW_RULES: readonly CommandRule[] = ALLOW.map((p) =>
  parseRulePattern(p, 'allow', 'default', 'allow:' + p.replace(/ \*$/, '').replace(/\s+/g, '-')),
);
