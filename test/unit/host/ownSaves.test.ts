// PatchPilot's own saves (src/host/vscode/workspace/ownSaves.ts): marked while they run, however long,
// so run on save never takes the agent's write for the user's; a mark ends ttl after the save.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { OwnSaves } from '../../../src/host/vscode/workspace/ownSaves';

const URI = 'file:///w/greet.js';

describe('OwnSaves', () => {
  test('a save that takes longer than the ttl (a loaded machine) is still ours when its event comes', async () => {
    let now = 0;
    const own = new OwnSaves(3_000, () => now);
    let seen: boolean | undefined;
    await own.during(URI, async () => {
      now += 10_000; // the save took ten seconds
      seen = own.take(URI); // VS Code's save event, before the save's promise settles
      return true;
    });
    assert.equal(seen, true);
  });

  test("a save event just after the save ended is ours; one after the ttl is the user's", async () => {
    let now = 0;
    const own = new OwnSaves(3_000, () => now);
    await own.during(URI, async () => false);
    now += 2_000;
    assert.equal(own.take(URI), true);
    await own.during(URI, async () => false);
    now += 3_001;
    assert.equal(own.take(URI), false);
  });

  test("the mark is taken once: the user's next save is theirs", async () => {
    const own = new OwnSaves();
    await own.during(URI, async () => true);
    assert.equal(own.take(URI), true);
    assert.equal(own.take(URI), false);
    assert.equal(own.take('file:///w/other.js'), false);
  });

  test('a save that throws still ends its mark after the ttl', async () => {
    let now = 0;
    const own = new OwnSaves(1_000, () => now);
    await assert.rejects(
      own.during(URI, async () => {
        throw new Error('disk full');
      }),
    );
    now += 1_001;
    assert.equal(own.take(URI), false);
  });
});
