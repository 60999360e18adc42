/**
 * A patch in the chat, said in words: what was proposed (each hunk: ready to apply, does not apply,
 * rejected by you), then what was written (how many hunks, or the user's own edit), with Undo Patch
 * while it can be undone, then "undone by you". The card is the patch's one item in the transcript;
 * patch/applied and patch/undone update it in place, and so does the host's store of patch states
 * (chat/patchStates: the history's Apply Again or Revert, a restore), whichever view changed it.
 */
import { refusalSentence } from './refusalSentence';
import type { AgentEvent, HunkView } from '../../src/protocol/agentEvents';
import type { PatchStateView } from '../../src/protocol/patchState';
import { button, el } from '../shared/components';

type Proposed = Extract<AgentEvent, { type: 'patch/proposed' }>;
type Applied = Extract<AgentEvent, { type: 'patch/applied' }>;

/** The ways back a card offers: this window's Undo Patch, or the history's Revert of the recorded patch. */
export interface CardActions {
  undoPatch?(key: string): Promise<{ ok: boolean; message: string }>;
  revertPatch?(runId: string, patchId: string): Promise<{ ok: boolean; message: string }>;
}

/** A hunk id (`path#n`) in words: "hunk 2 of src/dates.js". */
export function hunkWords(id: string): string {
  const m = /^(.*)#(\d+)$/.exec(id);
  return m ? `hunk ${m[2]} of ${m[1]}` : id;
}

const STATE_WORDS: Record<HunkView['status'], string> = {
  'would-apply': 'ready to apply',
  applied: 'written',
  refused: 'does not apply',
  rejected: 'rejected by you',
};

function hunkLine(h: HunkView, words: string, error?: string): HTMLElement {
  const reason = h.reason && !error?.includes(h.reason) ? ` (${h.reason})` : '';
  const where = h.startLine ? `:${h.startLine}-${h.endLine ?? h.startLine}` : '';
  return el('li', `pp-hunk pp-hunk-${h.status}`, `${h.path}${where} · ${words}${reason}`);
}

export class PatchCard {
  readonly root = el('div', 'pp-patch');
  private readonly title = el('div', 'pp-patch-title');
  private readonly list = el('ul');
  private readonly actions = el('div', 'pp-actions');
  private readonly status = el('div', 'pp-note');
  private hunks: HunkView[] = [];
  /** What the write put in ("Written to a.js: the hunk"), before any later state is said. */
  private writtenTitle = '';
  private files = '';
  /** The hunks the write's lines show (none for the user's own edit: its lines never change). */
  private writtenHunks: HunkView[] = [];

  constructor(proposed?: Proposed) {
    this.status.setAttribute('role', 'status');
    this.root.append(this.title);
    if (proposed) {
      this.title.textContent = proposed.ok ? 'Proposed patch (not written yet)' : 'Patch does not apply; nothing was written';
      // One sentence first; the engine's report once, in its own layout (aligned patch and file lines), behind Details.
      if (!proposed.ok && proposed.error) this.root.append(...refusal(proposed.error));
      this.hunks = proposed.hunks;
      for (const h of proposed.hunks) this.list.append(hunkLine(h, STATE_WORDS[h.status], proposed.error));
    }
    this.root.append(this.list, this.actions, this.status);
  }

  /** Whether this card shows a proposal that has not been written (the next patch/applied is its outcome). */
  get waiting(): boolean {
    return this.title.textContent?.startsWith('Proposed') ?? false;
  }

  /** The patch was written: the title says how much of it, the hunks say which, and Undo Patch appears. */
  applied(e: Applied, undo?: (key: string) => Promise<{ ok: boolean; message: string }>): void {
    const files = e.files.join(', ');
    const n = e.hunks.length;
    this.title.textContent = e.edited
      ? `Written to ${files}: your own edit of the patch`
      : `Written to ${files}: ${n === e.total ? (n === 1 ? 'the hunk' : `all ${n} hunks`) : `${n} of ${e.total} hunks`}`;
    const written = new Set(e.hunks.map((h) => h.id));
    const known = this.hunks.length ? this.hunks : e.hunks;
    this.list.replaceChildren(
      ...known.map((h) =>
        e.edited
          ? hunkLine(h, 'replaced by your edit')
          : written.has(h.id)
            ? hunkLine({ ...h, status: 'applied' }, 'written')
            : hunkLine(h, h.status === 'refused' ? STATE_WORDS.refused : 'not written'),
      ),
    );
    this.writtenTitle = this.title.textContent;
    this.writtenHunks = e.edited ? [] : known.map((h) => (written.has(h.id) ? { ...h, status: 'applied' as const } : h));
    this.files = files;
    if (e.undoKey && undo) this.offerUndo(e.undoKey, undo);
  }

  private offerUndo(key: string, undo: (key: string) => Promise<{ ok: boolean; message: string }>): void {
    this.offer('Undo Patch', 'Undo', () => undo(key));
  }

  /**
   * After a reload the window's undo journal lacks this write: the history's Revert is the way back,
   * said as what it is (the recorded patch's reverse, refused with the reason if the files changed).
   */
  private offerRevert(act: () => Promise<{ ok: boolean; message: string }>): void {
    this.offer('Revert Patch', 'Revert', act);
    this.actions.append(
      el(
        'span',
        'pp-note',
        "Written before this window loaded, so Undo Patch cannot reach it. Revert Patch applies the recorded patch in reverse, as the history panel's Revert does; if the files changed since, it refuses and says why.",
      ),
    );
  }

  private offer(label: 'Undo Patch' | 'Revert Patch', verb: string, act: () => Promise<{ ok: boolean; message: string }>): void {
    const b = button({
      label,
      name: `${label} to ${this.files}`.slice(0, 200),
      icon: 'discard',
      variant: 'secondary',
      onClick: () => {
        b.disabled = true;
        // A Revert may wait for the review in the diff editor (the approval mode): say so while it does.
        if (verb === 'Revert')
          this.status.textContent = 'Reverting the patch. When PatchPilot asks first, the change waits for you in the diff editor: Accept or Reject it there.';
        void act().then(
          (r) => {
            if (!r.ok || verb === 'Revert') this.status.textContent = r.message;
            if (!r.ok) b.disabled = false;
          },
          (err: Error) => {
            this.status.textContent = `${verb} failed: ${err.message}`;
            b.disabled = false;
          },
        );
      },
    });
    this.actions.replaceChildren(b);
  }

  /** The host's state of this written patch (the one source, whichever view changed it): title and Undo (or Revert) follow. */
  showState(p: PatchStateView, ways?: Pick<CardActions, 'undoPatch' | 'revertPatch'>): void {
    if (!this.writtenTitle) return;
    if (p.state === 'undone') return this.undone();
    this.status.textContent = '';
    this.root.classList.toggle('pp-patch-undone', p.state === 'restored-away');
    this.title.textContent =
      p.state === 'reapplied' || p.state === 'restored-away' ? `${this.writtenTitle} (${p.words}${this.reappliedPart(p)})` : this.writtenTitle;
    this.showHunkStates(p);
    const { undoPatch: undo, revertPatch: revert } = ways ?? {};
    const { runId, patchId } = p;
    if (p.canUndo && p.undoKey && undo) this.offerUndo(p.undoKey, undo);
    else if (p.canRevert && runId && patchId && revert) this.offerRevert(() => revert(runId, patchId));
    else this.actions.replaceChildren();
  }

  /** Applied again with hunks rejected in its review: how much of it the files have now. */
  private reappliedPart(p: PatchStateView): string {
    if (p.state !== 'reapplied' || !this.writtenHunks.length) return '';
    const written = this.writtenHunks.filter((h) => p.hunks.find((s) => s.id === h.id)?.state === 'applied').length;
    const before = this.writtenHunks.filter((h) => h.status === 'applied').length;
    return written === before ? '' : `: ${written} of ${this.writtenHunks.length} hunks`;
  }

  /** Each hunk's line as the store has it: decided in an Apply Again's open review, or written (or not) by it. */
  private showHunkStates(p: PatchStateView): void {
    if (!this.writtenHunks.length || !p.hunks.length) return;
    const now = new Map(p.hunks.map((h) => [h.id, h.state]));
    this.list.replaceChildren(
      ...this.writtenHunks.map((h) => {
        const state = now.get(h.id);
        if (state === 'accepted') return hunkLine({ ...h, status: 'would-apply' }, 'accepted in the review, not written yet');
        if (state === 'applied')
          return hunkLine({ ...h, status: 'applied' }, p.state === 'restored-away' ? 'written, then taken back by the restore' : 'written');
        if (state === 'rejected' && h.status === 'applied')
          return hunkLine({ ...h, status: 'rejected' }, 'not written (rejected in the review of Apply Again)');
        return hunkLine(h, h.status === 'applied' ? 'written' : h.status === 'refused' ? STATE_WORDS.refused : 'not written');
      }),
    );
  }

  /** The user undid it: no button, the title says so. */
  undone(): void {
    this.actions.replaceChildren();
    this.status.textContent = '';
    this.title.textContent = `${this.writtenTitle || 'Patch'} (undone by you: the files are back as they were before it)`;
    this.root.classList.add('pp-patch-undone');
  }
}

function refusal(report: string): HTMLElement[] {
  const details = document.createElement('details');
  details.className = 'pp-refusal-details';
  details.append(el('summary', undefined, 'Details'), el('pre', 'pp-tool-output pp-refusal', report));
  return [el('div', 'pp-refusal-sentence', refusalSentence(report)), details];
}
