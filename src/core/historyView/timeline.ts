/**
 * A run as the history panel and the Markdown export tell it: one list of what happened, in time
 * order (messages, tool calls with their results, patches with each hunk's state and reason, test
 * runs with their parsed summary, policy verdicts and the user's answers, the fast model's Q&A
 * summary), plus the run's memory. Pure; long texts are cut to TIMELINE_TEXT_MAX (the audit JSON
 * export keeps them whole). Above the store (it reads patches and test output the way the engine and
 * the tools do), so it lives apart from src/core/history.
 */
import { parsePatch } from '../patch/parse';
import { hunkId } from '../patch/describe';
import { undoKeyOf } from '../patch/undoKey';
import { formatTestSummary, summarizeTestOutput } from '../testRuns';
import { hunkNoteOf } from '../history/hunkNotes';
import { patchOutcomes, RESTORE_STEP, type UserPatchOutcome } from './patchOutcomes';
import {
  EARLIER_STEP,
  REASONING_STEP,
  TESTS_STEP,
  TRANSCRIPT_STEP,
  UNDO_STEP,
  REAPPLY_STEP,
  USER_ANSWER_RULE,
  type PatchRecord,
  type RunDetail,
  type RunRecord,
  type RunSummary,
  type StepRecord,
} from '../history/types';
import { testsOutcomeOfText } from '../../protocol/runEnd';
import { TIMELINE_TEXT_MAX, type HunkStateView, type RunRowView, type RunTimelineView, type TimelineItem } from '../../protocol/history';

export function runRowOf(r: RunSummary): RunRowView {
  return {
    id: r.id,
    goal: r.goal,
    status: r.status,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    steps: r.steps,
    patches: r.patchCount,
    testRuns: r.testRunCount,
    tokensIn: r.tokensIn,
    tokensOut: r.tokensOut,
    costUsd: r.costUsd,
    models: modelsOf(r),
    parentRunId: r.parentRunId ?? null,
    ...(r.tests ? { tests: r.tests } : {}),
    ...(r.withoutEdits ? { withoutEdits: r.withoutEdits } : {}),
  };
}

function modelsOf(r: RunRecord): string[] {
  return [...new Set([r.reasoningModel, r.fastModel].filter((m): m is string => !!m))];
}

export function cut(text: string, max = TIMELINE_TEXT_MAX): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${(text.length - max).toLocaleString('en-US')} more characters in the JSON export)`;
}

export function runTimeline(d: RunDetail): RunTimelineView {
  const items: Array<{ order: number; item: TimelineItem }> = [];
  const add = (item: TimelineItem, order = 0) => items.push({ order, item });
  for (const s of d.steps) {
    const item = stepItem(s);
    if (item) add(item, s.seq);
  }
  const outcomes = patchOutcomes(d.steps);
  for (const p of d.patches) add(patchItem(p, p.reversePatch?.trim() ? outcomes.get(undoKeyOf(p.reversePatch)) : undefined), 1e9);
  for (const t of d.testRuns) {
    const summary = summarizeTestOutput(t.outputTail);
    add({
      kind: 'test',
      id: t.id,
      time: t.time,
      command: t.command,
      trigger: t.trigger,
      exitCode: t.exitCode,
      durationMs: t.durationMs,
      summary: formatTestSummary(summary),
      outputTail: cut(t.outputTail),
    });
  }
  for (const p of d.policyDecisions) {
    add({
      kind: 'policy',
      id: p.id,
      time: p.time,
      policyKind: p.kind,
      subject: cut(p.subject, 2_000),
      verdict: p.verdict,
      rule: p.rule,
      reason: cut(p.reason, 4_000),
      userAnswer: p.rule === USER_ANSWER_RULE,
    });
  }
  for (const o of d.observations) if (o.type === 'qa') add({ kind: 'summary', id: o.id, time: o.time, question: cut(o.text, 2_000), text: cut(o.detail) });
  // Stable: same-time rows keep steps in their recorded order, and a patch after the call that proposed it.
  items.sort((a, b) => a.item.time - b.item.time || a.order - b.order);
  const testsStep = d.steps.filter((s) => s.tool === TESTS_STEP).at(-1);
  const tests = testsOutcomeOfText(testsStep?.text);
  const run: RunRowView = runRowOf({ ...d.run, patchCount: d.patches.length, testRunCount: d.testRuns.length, ...(tests ? { tests } : {}) });
  const observations = d.observations.map((o) => ({
    id: o.id,
    type: o.type,
    tool: o.tool,
    text: cut(o.text, 4_000),
    detail: cut(o.detail, 4_000),
    path: o.path,
    time: o.time,
  }));
  return { run, items: items.map((x) => x.item), observations };
}

function stepItem(s: StepRecord): TimelineItem | undefined {
  if (s.role === 'tool') {
    const result = s.result ?? '';
    return {
      kind: 'tool',
      id: s.id,
      time: s.time,
      tool: s.tool ?? '(unknown tool)',
      args: cut(argsText(s.arguments), 8_000),
      result: cut(result),
      resultChars: result.length,
      durationMs: s.durationMs,
    };
  }
  // An assistant step without text only carried tool calls: the tool steps show them.
  if (!s.text) return undefined;
  return { kind: 'message', id: s.id, time: s.time, role: s.role, text: cut(contextStepText(s) ?? s.text) };
}

/** The context bookkeeping steps in words (their text is only "N message(s)"). */
function contextStepText(s: StepRecord): string | undefined {
  if (s.role !== 'system') return undefined;
  const n = Array.isArray(s.arguments) ? s.arguments.length : undefined;
  const messages = n === undefined ? 'its messages' : `${n} message${n === 1 ? '' : 's'}`;
  if (s.tool === EARLIER_STEP) return `The chat's earlier turns went to the model with this goal (${messages}).`;
  if (s.tool === TRANSCRIPT_STEP) return `The conversation as the model saw it was kept for a follow-up (${messages}).`;
  if (s.tool === REASONING_STEP) return `The model's reasoning:\n${s.text ?? ''}`;
  if (s.tool === UNDO_STEP) return s.text ?? 'The user undid a patch.';
  if (s.tool === REAPPLY_STEP) return s.text ?? 'The user applied a patch again.';
  if (s.tool === RESTORE_STEP) return s.text ?? 'The user restored the files to an earlier step.';
  return undefined;
}

function argsText(args: unknown): string {
  if (args === null || args === undefined) return '';
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args, null, 2);
  } catch {
    return String(args);
  }
}

/** Every hunk of the recorded patch with its state: applied, rejected with the user's reason, refused with the engine's or the policy's. */
export function hunkStates(p: PatchRecord): HunkStateView[] {
  const accepted = new Set(p.acceptedHunks.filter((h): h is string => typeof h === 'string'));
  const notes = new Map(
    p.rejectedHunks
      .map(hunkNoteOf)
      .filter((n) => n !== undefined)
      .map((n) => [n.id, n]),
  );
  const out: HunkStateView[] = [];
  const parsed = parsePatch(p.text);
  if (parsed.ok) {
    for (const f of parsed.value.files) {
      const path = f.newPath ?? f.oldPath ?? '?';
      for (const h of f.hunks) {
        const id = hunkId(path, h.index);
        const note = notes.get(id);
        notes.delete(id);
        const where = h.oldStart !== undefined ? { oldStart: h.oldStart, oldLines: h.oldCount ?? h.lines.filter((l) => l.kind !== 'add').length } : {};
        if (accepted.has(id) && p.appliedAt !== null) out.push({ id, path, ...where, state: 'applied' });
        else if (note) out.push({ id, path, ...where, state: note.state, ...(note.reason ? { reason: note.reason } : {}) });
        else out.push({ id, path, ...where, state: 'not applied' });
      }
    }
  }
  // Notes the parse did not place (a file-level refusal, a patch the parser cannot read any more).
  for (const n of notes.values()) out.push({ id: n.id, path: n.id.replace(/#\d+$/, ''), state: n.state, ...(n.reason ? { reason: n.reason } : {}) });
  if (!parsed.ok) for (const id of accepted) out.push({ id, path: id.replace(/#\d+$/, ''), state: p.appliedAt !== null ? 'applied' : 'not applied' });
  return out;
}

function patchItem(p: PatchRecord, outcome: UserPatchOutcome | undefined): TimelineItem {
  const undoneAt = outcome?.undoneAt;
  const hunks = hunkStates(p);
  const applied = p.appliedAt !== null;
  return {
    kind: 'patch',
    id: p.id,
    time: p.time,
    files: p.files,
    appliedAt: p.appliedAt,
    ...(undoneAt !== undefined ? { undoneAt } : {}),
    ...(outcome?.reappliedAt !== undefined ? { reappliedAt: outcome.reappliedAt } : {}),
    hunks,
    hasSnapshots: !!p.snapshots?.length,
    canRevert: applied && undoneAt === undefined && !!p.reversePatch?.trim(),
    canApplyAgain: applied && hunks.some((h) => h.state === 'applied'),
  };
}
