import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_ALLOW_RULES } from '../../../../src/core/policy/command/defaults';
import { FILE_OPTIONS, fileOptionsKey } from '../../../../src/core/policy/command/fileOptions';
import type { Word } from '../../../../src/core/policy/command/types';
import { createFixture, type PolicyFixture } from './fixture';

/**
 * Options of allowed commands that read or write files (`date -f`, `sort --files0-from`, `git blame
 * --contents`, `sort -T`): their values are paths, checked like any other, in every form the option
 * can take. The table must cover every program of the default allow list.
 */
const word = (value: string): Word => ({ value, raw: value, dynamic: false, glob: false });

/** The FILE_OPTIONS key a default rule's program has (`git blame`, `tsc` for `npx tsc`, `pytest` for `python -m pytest`). */
function keyOfRule(command: string, argsPattern: readonly string[]): string {
  const words = argsPattern.filter((p) => p !== '*');
  if ((command === 'python' || command === 'python3') && words[0] === '-m') return words[1]!;
  return fileOptionsKey(command, words.map(word)).key;
}

/** Each form an option's value can be given in. */
function forms(option: string, value: string): string[] {
  if (option.startsWith('--')) return [`${option} ${value}`, `${option}=${value}`];
  if (option.length === 2) return [`${option} ${value}`, `${option}${value}`];
  return [`${option} ${value}`, `${option}=${value}`]; // a single-dash long name (find, go)
}

describe('file options of allowed commands', () => {
  let f: PolicyFixture;
  before(async () => {
    f = await createFixture();
  });
  after(() => f.dispose());

  test('every program of the default allow list declares its file options (or none)', () => {
    const missing = [...new Set(DEFAULT_ALLOW_RULES.map((r) => keyOfRule(r.command, r.argsPattern)))].filter((k) => !FILE_OPTIONS[k]);
    assert.deepEqual(missing, [], `declare these in src/core/policy/command/fileOptions.ts: ${missing.join(', ')}`);
  });

  test('a read option naming a file outside the workspace never passes, in any form', () => {
    const secret = `${f.home}/.aws/credentials`;
    const passed: string[] = [];
    for (const [key, spec] of Object.entries(FILE_OPTIONS)) {
      for (const option of spec.reads ?? []) {
        for (const form of [...forms(option, secret), ...(option.startsWith('--') ? [] : forms(option, '~/.aws/credentials'))]) {
          const command = `${key} ${form} x`;
          if (f.check(command).verdict === 'allow') passed.push(command);
        }
      }
    }
    assert.deepEqual(passed, []);
  });

  test('a read option naming an ignored file asks', () => {
    const passed: string[] = [];
    for (const [key, spec] of Object.entries(FILE_OPTIONS)) {
      for (const option of spec.reads ?? []) {
        for (const form of forms(option, '.env')) if (f.check(`${key} ${form} x`).verdict === 'allow') passed.push(`${key} ${form}`);
      }
    }
    assert.deepEqual(passed, []);
  });

  test('a write option never writes outside the workspace or into a protected path unasked', () => {
    const passed: string[] = [];
    for (const [key, spec] of Object.entries(FILE_OPTIONS)) {
      for (const option of spec.writes ?? []) {
        for (const target of [`${f.home}/.bashrc`, '.vscode/settings.json', 'AGENTS.md', 'docs/CLAUDE.md', '.git/hooks']) {
          for (const form of forms(option, target)) if (f.check(`${key} ${form} x`).verdict === 'allow') passed.push(`${key} ${form}`);
        }
      }
    }
    assert.deepEqual(passed, []);
  });

  const rows: [command: string, verdict: 'allow' | 'ask' | 'deny'][] = [
    // the class that leaked without a sandbox: a file option of a data-only command
    ['date -f ~/.aws/credentials', 'ask'],
    ['date --file=$HOME/.aws/credentials', 'ask'],
    ['date -uf ~/.ssh/id_rsa', 'ask'],
    ['date --fil ~/.ssh/id_rsa', 'ask'],
    ['date -r ~/.ssh/id_rsa', 'ask'],
    ['date --reference="$SECRET_FILE"', 'ask'],
    ['date -f dates.txt', 'allow'],
    ['date +%Y/%m/%d', 'allow'],
    ['date -d 2024-01-01', 'allow'],
    ['sort --files0-from=list.txt', 'allow'],
    ['sort --files0=/etc/shadow', 'ask'],
    ['sort -o out.txt in.txt', 'allow'],
    ['sort -T /var/tmp in.txt', 'deny'],
    ['sort -rT/var/tmp in.txt', 'deny'],
    ['wc --files0-from ~/.netrc', 'ask'],
    ['du -X/etc/shadow .', 'ask'],
    ['cut -d/ -f2 src/a.ts', 'allow'],
    ['grep -f/etc/shadow -r .', 'ask'],
    ['grep -rf patterns.txt src', 'allow'],
    ['rg --ignore-file=/etc/passwd x', 'ask'],
    ['git blame --contents=/etc/passwd src/a.ts', 'ask'],
    ['git blame -S/etc/passwd src/a.ts', 'ask'],
    ['git -C . grep -f/etc/passwd', 'ask'],
    ['git diff -O/etc/passwd', 'ask'],
    ['git ls-files --exclude-from=/etc/passwd', 'ask'],
    ['git diff HEAD', 'allow'],
    ['find . -newer /etc/passwd', 'ask'],
    ['find . -files0-from /etc/passwd', 'ask'],
    ['npx tsc @/etc/args.txt', 'ask'],
    ['tsc --OutDir /var/tmp/out', 'deny'],
    ['npx eslint --cache-location .vscode/settings.json src', 'ask'],
    ['node --env-file=/etc/environment test.js', 'ask'],
    ['go test -coverprofile=/var/tmp/c.out ./...', 'deny'],
  ];
  for (const [command, verdict] of rows) {
    test(`${command} -> ${verdict}`, () => {
      const d = f.check(command);
      assert.equal(d.verdict, verdict, d.reason);
    });
  }

  test('a program a user allows but nobody declared: an attached value that is a path is checked', async () => {
    const check = await f.make({ user: { allow: ['jq *'] } });
    assert.equal(check('jq -f/etc/passwd .').verdict, 'ask');
    assert.equal(check('jq @/etc/passwd').verdict, 'ask');
    assert.equal(check('jq -r .name package.json').verdict, 'allow');
  });
});
