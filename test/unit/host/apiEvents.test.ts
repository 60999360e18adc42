// The public API's events come from the agent events the chat receives (apiEventsLogic.ts): each
// API event carries the run id of the run/started before it, and the patch's history id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiEvents } from '../../../src/host/vscode/api/apiEventsLogic';
import type { AgentEvent } from '../../../src/protocol/agentEvents';

function record(api: ApiEvents): [string, unknown][] {
  const seen: [string, unknown][] = [];
  for (const [name, event] of Object.entries(api.events)) event((e: unknown) => seen.push([name, e]));
  return seen;
}

const started: AgentEvent = {
  type: 'run/started',
  runId: 'run-1',
  goal: 'fix it',
  mode: 'auto',
  model: 'm',
  git: { isRepo: false, head: null, branch: null, dirty: [] },
};
const hunk = { id: 'a.ts#1', path: 'a.ts', status: 'applied' as const, startLine: 1, endLine: 2 };

test('a run: started, proposed, applied, tests, refused, finished; each with the run id and step, patches with their history id', () => {
  const api = new ApiEvents();
  const seen = record(api);
  const events: AgentEvent[] = [
    started,
    { type: 'step/started', step: 1 },
    { type: 'text/delta', text: 'ignored' },
    { type: 'patch/proposed', patchId: 'p1', hunks: [{ ...hunk, status: 'would-apply' }], ok: true, diff: '--- a/a.ts' },
    { type: 'patch/applied', patchId: 'p1', files: ['a.ts'], hunks: [hunk], total: 1, undoKey: 'k1' },
    { type: 'test/finished', command: 'npm test', exitCode: 1, durationMs: 5, summary: '1 failing' },
    { type: 'step/started', step: 2 },
    { type: 'patch/proposed', patchId: 'p2', hunks: [{ ...hunk, status: 'refused', reason: 'no match' }], ok: false, error: 'no match' },
    { type: 'patch/refused', patchId: 'p2', files: ['a.ts'], hunks: [{ id: 'a.ts#1', state: 'refused', reason: 'no match' }] },
    { type: 'test/finished', command: 'npm test', exitCode: 0, durationMs: 5, summary: 'ok' },
    { type: 'run/finished', runId: 'run-1', status: 'finished', reason: 'done', steps: 3, tests: 'passed', summary: 'fixed' },
  ];
  events.forEach((e) => api.take(e));
  assert.deepEqual(seen, [
    ['onDidStartRun', { runId: 'run-1', goal: 'fix it', mode: 'auto', model: 'm' }],
    [
      'onDidProposePatch',
      { runId: 'run-1', step: 1, patchId: 'p1', ok: true, hunks: [{ id: 'a.ts#1', path: 'a.ts', status: 'would-apply' }], diff: '--- a/a.ts' },
    ],
    [
      'onDidApplyPatch',
      { runId: 'run-1', step: 1, patchId: 'p1', files: ['a.ts'], hunks: [{ id: 'a.ts#1', path: 'a.ts', status: 'applied' }], total: 1, edited: false },
    ],
    ['onDidFinishTests', { runId: 'run-1', step: 1, command: 'npm test', passed: false, exitCode: 1, durationMs: 5, summary: '1 failing' }],
    [
      'onDidProposePatch',
      { runId: 'run-1', step: 2, patchId: 'p2', ok: false, error: 'no match', hunks: [{ id: 'a.ts#1', path: 'a.ts', status: 'refused', reason: 'no match' }] },
    ],
    ['onDidRefusePatch', { runId: 'run-1', step: 2, patchId: 'p2', files: ['a.ts'], hunks: [{ id: 'a.ts#1', state: 'refused', reason: 'no match' }] }],
    ['onDidFinishTests', { runId: 'run-1', step: 2, command: 'npm test', passed: true, exitCode: 0, durationMs: 5, summary: 'ok' }],
    ['onDidFinishRun', { runId: 'run-1', status: 'finished', reason: 'done', steps: 3, tests: 'passed', summary: 'fixed' }],
  ]);
});

test('an undo names the run that wrote the patch, even after another run started; an unrecorded run has a null run id', () => {
  const api = new ApiEvents();
  const seen = record(api);
  api.take({ ...started, runId: null } as AgentEvent);
  api.take({ type: 'patch/applied', files: ['a.ts'], hunks: [hunk], total: 2, edited: true });
  api.take({ type: 'run/finished', status: 'cancelled', reason: 'stopped', steps: 1 });
  api.take({ type: 'patch/undone', undoKey: 'k1', files: ['a.ts'], patchId: 'p1', runId: 'run-0' });
  assert.deepEqual(
    seen.map(([name, e]) => [name, (e as { runId: unknown }).runId]),
    [
      ['onDidStartRun', null],
      ['onDidApplyPatch', null],
      ['onDidFinishRun', null],
      ['onDidUndoPatch', 'run-0'],
    ],
  );
  assert.deepEqual(seen[1]![1], { runId: null, files: ['a.ts'], hunks: [{ id: 'a.ts#1', path: 'a.ts', status: 'applied' }], total: 2, edited: true });
  assert.deepEqual(seen[3]![1], { runId: 'run-0', patchId: 'p1', files: ['a.ts'] });
});

test('a disposed subscription hears nothing more; the others still do', () => {
  const api = new ApiEvents();
  const heard: string[] = [];
  const sub = api.events.onDidStartRun((e) => heard.push(`a ${e.runId}`));
  api.events.onDidStartRun((e) => heard.push(`b ${e.runId}`));
  api.take(started);
  sub.dispose();
  api.take({ ...started, runId: 'run-2' } as AgentEvent);
  assert.deepEqual(heard, ['a run-1', 'b run-1', 'b run-2']);
});
