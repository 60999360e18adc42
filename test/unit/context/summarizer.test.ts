import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SummaryJob } from '../../../src/core/context/compaction';
import { digest, renderJob, summarizeJobs } from '../../../src/core/context/summarizer';
import type { ModelMessage } from '../../../src/core/llm/types';

function job(steps: number, resultChars: number): SummaryJob {
  const work: ModelMessage[] = [];
  for (let i = 0; i < steps; i++) {
    work.push({
      role: 'assistant',
      content: i % 2 ? `looking at step ${i}` : null,
      toolCalls: [{ id: `c${i}`, name: i % 3 ? 'read_file' : 'grep', argumentsJson: `{"path":"src/f${i}.ts"}` }],
    });
    work.push({ role: 'tool', toolCallId: `c${i}`, content: `HEAD${i} ${'r'.repeat(resultChars)} TAIL${i}` });
  }
  return { request: 'fix the parser', previousSummaries: ['earlier: found the parser in src/parse.ts'], work };
}

test('the summary request fits its budget: shorter excerpts first, then the oldest messages left out', () => {
  for (const [steps, chars, max] of [
    [3, 100, 20_000],
    [40, 5_000, 20_000],
    [400, 5_000, 20_000],
    [40, 5_000, 3_000],
  ] as const) {
    const text = renderJob(job(steps, chars), max);
    assert.ok(text.length <= max + 200, `${steps} steps of ${chars}: ${text.length} > ${max}`);
    assert.match(text, /^The user's request:\nfix the parser\n\nSummary of the work before:\nearlier: found the parser/);
    // The newest work is always there, head and tail of its result.
    assert.match(text, new RegExp(`call (grep|read_file) \\{"path":"src/f${steps - 1}\\.ts"\\}`));
    assert.match(text, new RegExp(`HEAD${steps - 1}[\\s\\S]*TAIL${steps - 1}`));
    if (steps === 400) assert.match(text, /\[\d+ earlier message\(s\) left out\]/);
  }
  // Small enough: everything whole.
  assert.match(renderJob(job(3, 100), 20_000), /result of grep: HEAD0 r{100} TAIL0/);
});

test('the digest lists every step by tool, arguments and first line, after the earlier summary', () => {
  const text = digest(job(3, 10));
  assert.equal(
    text,
    [
      'earlier: found the parser in src/parse.ts',
      'Steps (no model summary available):',
      '- grep {"path":"src/f0.ts"} -> HEAD0 rrrrrrrrrr TAIL0',
      '- said: looking at step 1',
      '- read_file {"path":"src/f1.ts"} -> HEAD1 rrrrrrrrrr TAIL1',
      '- read_file {"path":"src/f2.ts"} -> HEAD2 rrrrrrrrrr TAIL2',
    ].join('\n'),
  );
  assert.match(digest(job(100, 10)), /\(110 earlier step\(s\) not listed\)/);
});

test('summaries are clipped to their size; an empty reply falls back to the digest; a cancel propagates', async () => {
  const long = { complete: async () => ({ text: 'word '.repeat(5_000) }) } as never;
  const r = await summarizeJobs(
    [job(2, 10)],
    { model: long, role: 'fast', inputBudgetTokens: 4_000, maxSummaryTokens: 200, charsPerToken: 4 },
    new AbortController().signal,
  );
  assert.ok(r.summaries[0]!.length < 200 * 4 * 1.2 + 100);
  const empty = { complete: async () => ({ text: '  ' }) } as never;
  const e = await summarizeJobs(
    [job(2, 10), job(1, 10)],
    { model: empty, role: 'fast', inputBudgetTokens: 4_000, maxSummaryTokens: 200, charsPerToken: 4 },
    new AbortController().signal,
  );
  assert.deepEqual([e.digests, e.error], [2, 'the model returned an empty summary']);
  const controller = new AbortController();
  const hanging = {
    complete: (req: { signal: AbortSignal }) => new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(new Error('aborted')))),
  } as never;
  const pending = summarizeJobs(
    [job(1, 10)],
    { model: hanging, role: 'fast', inputBudgetTokens: 4_000, maxSummaryTokens: 200, charsPerToken: 4 },
    controller.signal,
  );
  controller.abort();
  await assert.rejects(pending, /aborted/);
});
