import * as vscode from 'vscode';
import type { PatchReviewAnswer, PatchReviewRequest } from '../../../core/ports';
import { buildAnswer, hunkDeltas, placeHunks, rightTexts, reviewFiles, type HunkChoice, type HunkPlacement, type ReviewFile } from './diffReviewLogic';
import { PROPOSED_SCHEME, CURRENT_SCHEME, reviewUri } from './documents';

/** One patch under review: its files, the user's choices per hunk, and the promise the Approver waits on. */
export class PatchUnderReview {
  readonly files: ReviewFile[];
  readonly choices = new Map<string, HunkChoice>();
  /** What the engine makes of the left texts with the accepted hunks (the right side before the user types). */
  engineTexts: Map<string, string | null>;
  private readonly deltas = new Map<string, Map<string, number>>();
  private settle!: (answer: PatchReviewAnswer) => void;
  readonly done: Promise<PatchReviewAnswer>;
  settled = false;
  /** What changed the files under review since it opened (a patch to them undone in the chat): the review says it above the hunks. */
  readonly notices: string[] = [];

  constructor(
    readonly id: string,
    readonly request: PatchReviewRequest,
  ) {
    this.files = reviewFiles(request.preview);
    this.engineTexts = rightTexts(request.patchText, this.files, this.accepted());
    for (const f of this.files) this.deltas.set(f.path, hunkDeltas(request.patchText, f, this.files));
    this.done = new Promise((resolve) => (this.settle = resolve));
  }

  leftUri(path: string): vscode.Uri {
    return reviewUri(CURRENT_SCHEME, this.id, path);
  }
  rightUri(path: string): vscode.Uri {
    return reviewUri(PROPOSED_SCHEME, this.id, path);
  }
  file(path: string): ReviewFile | undefined {
    return this.files.find((f) => f.path === path);
  }
  hunkIds(): string[] {
    return this.files.flatMap((f) => f.hunks.map((h) => h.id));
  }
  accepted(): Set<string> {
    return new Set(this.hunkIds().filter((id) => this.choices.get(id)?.accepted !== false));
  }
  /** Every hunk has an explicit Accept or Reject. */
  allDecided(): boolean {
    return this.hunkIds().every((id) => this.choices.has(id));
  }
  placements(path: string): HunkPlacement[] {
    const f = this.file(path);
    return f ? placeHunks(f, this.deltas.get(path) ?? new Map(), this.accepted()) : [];
  }
  /** Records a choice; returns the files whose engine text changed, with the old and the new text. */
  choose(hunkId: string, choice: HunkChoice): { path: string; before: string | null; after: string | null }[] {
    this.choices.set(hunkId, choice);
    const next = rightTexts(this.request.patchText, this.files, this.accepted());
    const changed = this.files
      .filter((f) => next.get(f.path) !== this.engineTexts.get(f.path))
      .map((f) => ({ path: f.path, before: this.engineTexts.get(f.path) ?? null, after: next.get(f.path) ?? null }));
    this.engineTexts = next;
    return changed;
  }
  answer(documentTexts: ReadonlyMap<string, string | null>, feedback?: string): PatchReviewAnswer {
    return buildAnswer({ files: this.files, choices: this.choices, engineTexts: this.engineTexts, documentTexts, feedback });
  }
  finish(answer: PatchReviewAnswer): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(answer);
  }
}
