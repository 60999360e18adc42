// Two runs over the same workspace through the built CLI: run 1 reads notes.txt (a secret in it)
// and greps it, and the history keeps what it learned (grep results are observations); then the user adds notes.txt to .patchpilotignore. Run 2's
// requests to the model must not carry the secret: not through "From earlier runs" in the prompt,
// not through search_history (by the file's name, by the secret's words, by the goal).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createArena } from './attacks/arena';
import { CLI, call, finish, runAgent, turn } from './attacks/agent';

describe('attacks: recall of a file ignored since (built CLI)', { skip: existsSync(CLI) ? false : 'run npm run build first' }, () => {
  test('after notes.txt is ignored, nothing of it comes back through recall or search_history', async () => {
    const secret = `PP-NOTES-SECRET-${process.pid}-${Date.now()}`;
    const arena = createArena({ files: { 'notes.txt': `tidy up the project: deploy token ${secret}\nproject tidy notes end here\n` } });
    try {
      const first = await runAgent(arena, [
        turn(call('read', 'read_file', { path: 'notes.txt' })),
        turn(call('grep', 'grep', { pattern: 'deploy token' })),
        finish('Tidied; the deploy token is in notes.txt.'),
      ]);
      assert.equal(first.code, 0, first.stderr);
      assert.ok(first.allModelInput.includes(secret), 'run 1 read the secret (not ignored yet)');

      // Control: before the ignore rule, run 2 would recall it.
      const control = await runAgent(arena, [turn(call('search', 'search_history', { query: 'deploy token' })), finish()]);
      assert.ok(
        control.allModelInput.includes(secret),
        `the history recalls the secret while notes.txt is not ignored: ${control.results.get('search')}\n${control.allModelInput.slice(0, 6000)}`,
      );

      appendFileSync(path.join(arena.ws, '.patchpilotignore'), 'notes.txt\n');
      const second = await runAgent(arena, [
        turn(call('s1', 'search_history', { query: 'deploy token' })),
        turn(call('s2', 'search_history', { query: 'deploy token' })),
        turn(call('s3', 'search_history', { query: 'tidy up the project' })),
        turn(call('s4', 'search_history', { query: 'PP-NOTES-SECRET' })),
        finish(),
      ]);
      assert.equal(second.code, 0, second.stderr);
      for (const [i, req] of second.server.chatRequests.entries()) {
        assert.ok(!JSON.stringify(req.body ?? {}).includes(secret), `request ${i} of run 2 carried the secret`);
      }
      const system = String((second.server.chatRequests[0]?.body?.messages as { content: string }[] | undefined)?.[0]?.content ?? '');
      assert.doesNotMatch(system, /PP-NOTES-SECRET/);
    } finally {
      arena.cleanup();
    }
  });
});
