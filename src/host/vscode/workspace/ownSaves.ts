/**
 * The saves PatchPilot makes itself (VsCodeWorkspaceFs writes through a WorkspaceEdit, then saves the
 * touched editors), so that run on save reacts to the user's saves only. Pure (no `vscode` import):
 * VsCodeWorkspaceFs marks a document just before it saves it; the save listener takes the mark.
 * A mark lives `ttlMs` at most, so a save the editor never made (it failed) cannot hide a later
 * save of the user's.
 */
export class OwnSaves {
  private readonly marks = new Map<string, number>();

  constructor(
    private readonly ttlMs = 3_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** PatchPilot is about to save this document (its URI as a string). */
  mark(uri: string): void {
    this.marks.set(uri, this.now() + this.ttlMs);
  }

  /** A save happened: true (and the mark is gone) when PatchPilot made it. */
  take(uri: string): boolean {
    const until = this.marks.get(uri);
    if (until === undefined) return false;
    this.marks.delete(uri);
    return until >= this.now();
  }
}
