// Security comments, test names, the README and docs/ cite the test that attacks the rule (`attacks.guard`
// is test/integration/agent/attacks.guard.test.ts), never a case code of a document outside the
// repository (a parenthesised code, a code and a colon before a sentence, a code-prefixed name),
// which a reader here cannot look up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const CODE = String.raw`(?:A|B|C|D|E|F)\d{1,2}`;
const LIST = String.raw`${CODE}(?:(?:\s*[,/]\s*|\s+and\s+|-)${CODE})*`;
const CITED_IN_COMMENT = new RegExp(String.raw`(?://|\*).*(?:\(${CODE}(?:[,/]\s*${CODE})*[,:)]|(?:^|\s)${CODE}[:.]\s)`);
/** For tests and the README, where names and prose carry codes too ("describe('A9: ...", "(D1, D3)", "A1_ROWS"). */
const CITED_ANYWHERE = new RegExp(
  [String.raw`SECURITY_CASES`, String.raw`\(${LIST}[,:)]`, String.raw`(?:^|[\s'"\x60*/])${LIST}(?::\s| end to end)`, String.raw`\b${CODE}_[A-Z]`].join('|'),
);
const SELF = 'test/unit/architecture/securityComments.test.ts';
/** The README and the reference it links to under docs/. */
const DOCS = [
  'README.md',
  'webview-ui/README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
];

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    return statSync(path.join(root, rel)).isDirectory() ? files(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

function offenders(list: readonly string[], pattern: RegExp): string[] {
  return list.flatMap((f) =>
    readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
}

test('no source comment cites a case code instead of a test', () => {
  assert.deepEqual(offenders(files('src'), CITED_IN_COMMENT), []);
});

test('no test and no README line cites a case code', () => {
  const list = [...files('test').filter((f) => f !== SELF), ...DOCS];
  assert.deepEqual(offenders(list, CITED_ANYWHERE), []);
});

test('the attacked-in names the comments and the README cite are test files', () => {
  const cited = new Set<string>();
  for (const f of [...files('src'), ...DOCS]) for (const m of readFileSync(path.join(root, f), 'utf8').matchAll(/\battacks\.([a-zA-Z]+)\b/g)) cited.add(m[1]!);
  const missing = [...cited].filter((name) => !statSync(path.join(root, `test/integration/agent/attacks.${name}.test.ts`), { throwIfNoEntry: false }));
  assert.deepEqual(missing, []);
});

test('the test files source comments name exist', () => {
  const named = new Set<string>();
  for (const f of files('src')) for (const m of readFileSync(path.join(root, f), 'utf8').matchAll(/\btest\/[\w/.-]+\.test\.ts\b/g)) named.add(m[0]);
  const missing = [...named].filter((rel) => !statSync(path.join(root, rel), { throwIfNoEntry: false }));
  assert.deepEqual(missing, []);
});
