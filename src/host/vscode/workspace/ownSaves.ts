/**
 * The saves PatchPilot makes itself (VsCodeWorkspaceFs writes through a WorkspaceEdit, then saves the
 * touched editors), so that run on save reacts to the user's saves only. Pure (no `vscode` import):
 * VsCodeWorkspaceFs marks a document while it saves it; the save listener takes the mark. A mark
 * lives `ttlMs` after the save ends, so a save the editor never made (it failed) cannot hide a later
 * save of the user's.
 */
export class OwnSaves {
  private readonly marks = new Map<string, number>();

  constructor(
    private readonly ttlMs = 3_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * PatchPilot saves this document with `saving`: the mark holds while the save runs, however long
   * (under load a save takes seconds, and a mark that ran out first made run on save take the
   * agent's write for the user's), then `ttlMs` more for a save event that comes late.
   */
  async during<T>(uri: string, saving: () => PromiseLike<T>): Promise<T> {
    this.marks.set(uri, Number.POSITIVE_INFINITY);
    try {
      return await saving();
    } finally {
      if (this.marks.has(uri)) this.marks.set(uri, this.now() + this.ttlMs);
    }
  }

  /** A save happened: true (and the mark is gone) when PatchPilot made it. */
  take(uri: string): boolean {
    const until = this.marks.get(uri);
    if (until === undefined) return false;
    this.marks.delete(uri);
    return until >= this.now();
  }
}
