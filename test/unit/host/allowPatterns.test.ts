import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allowPatternsFor } from '../../../src/host/vscode/chat/approvals/allowPatterns';
import { parseRulePattern, ruleMatches } from '../../../src/core/policy/command';

test('Always Allow offers the exact command and its program (and subcommand) prefix, for plain commands only', () => {
  assert.deepEqual(allowPatternsFor('npm test'), ['npm test', 'npm test *']);
  assert.deepEqual(allowPatternsFor('touch first.txt'), ['touch first.txt', 'touch *']);
  assert.deepEqual(allowPatternsFor('git log --oneline -5'), ['git log --oneline -5', 'git log *']);
  assert.deepEqual(allowPatternsFor('ls'), ['ls', 'ls *']);
  for (const none of ['npm test && rm -rf x', 'echo $HOME', 'cat "a b"', 'ls *.js', './run.sh', 'a | b', 'echo `id`', '']) {
    assert.deepEqual(allowPatternsFor(none), [], none);
  }
});

test('the offered patterns, as allow rules, match the command they were made from', () => {
  const word = (value: string) => ({ value, dynamic: false, glob: false, raw: value });
  for (const cmd of ['npm test', 'touch first.txt', 'git log --oneline -5']) {
    for (const p of allowPatternsFor(cmd)) {
      assert.ok(ruleMatches(parseRulePattern(p, 'allow', 'workspace'), cmd.split(' ').map(word)), `${p} matches ${cmd}`);
    }
  }
});
