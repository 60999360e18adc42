// Security comments cite the test that attacks the rule (`attacks.guard` is
// test/integration/agent/attacks.guard.test.ts), never a case code of a document outside the
// repository ("(F3)", "A5:"), which a reader here cannot look up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const CODE = String.raw`(?:A|B|C|D|E|F)\d{1,2}`;
const CITED = new RegExp(String.raw`(?://|\*).*(?:\(${CODE}(?:[,/]\s*${CODE})*[,:)]|(?:^|\s)${CODE}[:.]\s)`);

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    return statSync(path.join(root, rel)).isDirectory() ? files(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

test('no source comment cites a case code instead of a test', () => {
  const offenders = files('src').flatMap((f) =>
    readFileSync(path.join(root, f), 'utf8')
      .split('\n')
      .flatMap((line, i) => (CITED.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(offenders, []);
});

test('the attacked-in names the comments cite are test files', () => {
  const cited = new Set<string>();
  for (const f of files('src')) for (const m of readFileSync(path.join(root, f), 'utf8').matchAll(/\battacks\.([a-zA-Z]+)\b/g)) cited.add(m[1]!);
  const missing = [...cited].filter((name) => !statSync(path.join(root, `test/integration/agent/attacks.${name}.test.ts`), { throwIfNoEntry: false }));
  assert.deepEqual(missing, []);
});
