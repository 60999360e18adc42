// The one renderer of commands on approval surfaces: for generated commands with random whitespace
// and control characters, the rendering hides nothing (no raw control, invisible, or run of spaces)
// and determines the command exactly (round trip), so two commands never look the same.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ESCAPED_NOTE, exactLine, parseExact, renderExact } from '../../../src/protocol/exactCommand';
import { randomCommands } from '../../support/commandShapes';

/** What a surface could hide or show as something else (checked by Unicode property, not the renderer's list). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u;

describe('exact command rendering', () => {
  test('2,000 generated commands: nothing hidden, nothing collapsed, and the rendering gives back the exact command', () => {
    const seen = new Map<string, string>();
    for (const command of randomCommands(2000)) {
      const r = renderExact(command);
      const shown = JSON.stringify(command);
      assert.ok(!HIDDEN.test(r.text), `${shown} rendered with a hidden character: ${JSON.stringify(r.text)}`);
      assert.ok(!/ {2}|^ | $/.test(r.text), `${shown}: spaces collapsible in ${JSON.stringify(r.text)}`);
      assert.equal(parseExact(r), command, `round trip of ${shown}`);
      if (!r.escaped) assert.equal(r.text, command, 'the plain form is the command itself');
      const key = `${r.escaped}:${r.text}`;
      assert.ok(!seen.has(key) || seen.get(key) === command, `${shown} and ${JSON.stringify(seen.get(key))} render alike`);
      seen.set(key, command);
    }
  });

  test('the reported shape: two spaces, a tab and a newline are visible; a plain command is unchanged', () => {
    assert.deepEqual(renderExact('git status'), { text: 'git status', escaped: false });
    assert.deepEqual(renderExact("grep 'a\\.b' x"), { text: "grep 'a\\.b' x", escaped: false });
    assert.deepEqual(renderExact('echo  a\tb\nrm -rf ~'), { text: 'echo␠␠a\\tb\\nrm -rf ~', escaped: true });
    assert.deepEqual(renderExact('echo ok\u202e ; id'), { text: 'echo ok\\u{202e} ; id', escaped: true });
    assert.deepEqual(renderExact('a\u0000b\u001b'), { text: 'a\\x00b\\x1b', escaped: true });
    assert.deepEqual(renderExact(' x\\n'), { text: '␠x\\\\n', escaped: true });
    assert.equal(exactLine('a\nb'), `a\\nb   [${ESCAPED_NOTE}]`);
    assert.equal(exactLine('a b'), 'a b');
  });

  test('text no rendering produces is refused, not guessed', () => {
    assert.throws(() => parseExact({ text: 'a\\', escaped: true }), /lone backslash/);
    assert.throws(() => parseExact({ text: 'a\\qb', escaped: true }), /lone backslash/);
  });
});
