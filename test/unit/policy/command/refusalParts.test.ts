import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createFixture, type PolicyFixture } from './fixture';

let f: PolicyFixture;
before(async () => {
  f = await createFixture();
});
after(() => f.dispose());

// Generated shapes: any number of unknown programs joined by any shell list operator. The refusal
// names every part that needs approval (a fix of the first alone would meet the next one a step later).
test('a refusal of a command of several parts names each part that needs approval, and counts beyond three', () => {
  const joins = [' && ', ' || ', '; ', ' | '];
  for (let n = 2; n <= 6; n++) {
    for (const join of joins) {
      const programs = Array.from({ length: n }, (_, i) => `frobnicate${i}`);
      const d = f.check(programs.map((p) => `${p} --x`).join(join));
      assert.equal(d.verdict, 'ask', d.reason);
      const named = programs.filter((p) => d.reason.includes(`"${p}"`));
      assert.equal(named.length, Math.min(n, 4), `${join} ${n}: ${d.reason}`);
      if (n > 4) assert.match(d.reason, new RegExp(`and ${n - 4} more\\)$`), d.reason);
      assert.doesNotMatch(d.reason, /more parts? also/, 'counted, not named');
    }
  }
});

test('parts refused for the same reason are named once', () => {
  const d = f.check('frobnicate --x; frobnicate --x');
  assert.equal(d.verdict, 'ask');
  assert.equal(d.reason.split('"frobnicate"').length - 1, 1, d.reason);
});
