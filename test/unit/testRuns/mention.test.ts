// A finish names a failing test when it says its name, a part of it, or every distinctive word of its
// own title: the relay run's finish "DST Fall Back 2012-11-04 01:00:00 and 01:59:59" named jest's
// "DST, a time that never existed Fall Back › 2012-11-04 01:59:59" and was refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mentionsTest } from '../../../src/core/testRuns';
import { FinishGate } from '../../../src/core/orchestrator/finishGate';

const DST = 'DST, a time that never existed Fall Back › 2012-11-04 01:59:59';

test('a shortened mention naming the title by its distinctive words counts', () => {
  assert.ok(mentionsTest('Fixed utcOffset. DST Fall Back 2012-11-04 01:00:00 and 01:59:59 still fail: Node ICU data.', DST));
  assert.ok(mentionsTest('the 2012-11-04 01:59:59 case', DST), 'the title itself is a part');
  assert.ok(mentionsTest('test_leap_year is unrelated', 'tests/test_dates.py::test_leap_year'));
});

test('a mention is not found in words that merely resemble it', () => {
  assert.ok(!mentionsTest('DST Fall Back 2012-11-04 01:00:00 fails', DST), 'one of the two times is missing');
  assert.ok(!mentionsTest('Done. 2012-11-04 01:59:590 printed', DST), 'a word inside another does not count');
  assert.ok(!mentionsTest('it works and returns the right value', 'parser › works'), 'a short common title never matches by words');
  assert.ok(!mentionsTest('the parsing should return a value', 'parser › should return the value'), 'common words are not distinctive');
  assert.ok(!mentionsTest('', DST));
});

test('the finish gate accepts the shortened mention and says what counts as naming when it asks', () => {
  const state = (version: number) => ({
    outcome: 'known-failures' as const,
    version,
    failures: { new: [], preExisting: [DST], flaky: [], passedAlone: [], unnamed: false, newSteps: [] as string[] },
  });
  assert.equal(new FinishGate().check(state(1), 'DST Fall Back 2012-11-04 01:00:00 and 01:59:59 fail before and after: ICU data.'), undefined);
  const asked = new FinishGate().check(state(1), 'Done: utcOffset uses the offset of the date.') ?? '';
  assert.match(asked, /your finish does not mention them/);
  assert.match(asked, /counts as named when your finish contains its full name, one part of it .* or every distinctive word of its own title/);
});

// jest names hold no file (`DST, ... › 2012-11-04 01:59:59`): the rule says naming the file names its
// tests, so the file the runner ran the test in counts, by its path or its base name, never a part of either.
test('the file a test ran in, named by path or base name, names the test; a bare stem or a longer name does not', () => {
  const file = 'test/plugin/timezone.test.js';
  assert.ok(mentionsTest('3 tests in test/plugin/timezone.test.js were already failing', DST, file));
  assert.ok(mentionsTest('timezone.test.js already failed before my change', DST, file));
  assert.ok(mentionsTest('./test/plugin/timezone.test.js: pre-existing', DST, `./${file}`));
  assert.ok(!mentionsTest('the timezone tests already failed', DST, file), 'the stem alone is not the file');
  assert.ok(!mentionsTest('mytimezone.test.jsx failed', DST, file), 'inside a longer name');
  assert.ok(!mentionsTest('3 tests in test/plugin/timezone.test.js', DST), 'without the file, the name alone decides');
});
