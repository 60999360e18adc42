// A DiffPreview for unit tests: answers from a script and records what it was shown.
import type { ApplyResult } from '../../../src/core/patch/types';
import type { DiffPreview, PatchReviewAnswer, PatchReviewRequest } from '../../../src/core/ports';

export class FakeDiffPreview implements DiffPreview {
  readonly reviewed: PatchReviewRequest[] = [];
  readonly shown: ApplyResult[] = [];
  constructor(
    private readonly answer: (r: PatchReviewRequest) => PatchReviewAnswer = (r) => ({
      acceptedHunks: r.preview.files.flatMap((f) => f.hunks.map((h) => h.id)),
    }),
  ) {}
  async review(request: PatchReviewRequest, signal: AbortSignal): Promise<PatchReviewAnswer> {
    this.reviewed.push(request);
    if (signal.aborted) return { acceptedHunks: [] };
    return this.answer(request);
  }
  async showApplied(result: ApplyResult): Promise<void> {
    this.shown.push(result);
  }
}
