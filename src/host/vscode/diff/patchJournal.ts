/** The patches written in this window, newest last, for "PatchPilot: Undo Last Patch" (pure; no `vscode`). */
export interface JournalEntry {
  /** Undoes the patch (PatchManager's reversePatch). */
  reversePatch: string;
  /** The files as the patch left them (path -> text, null when deleted), to see whether the user changed them since. */
  after: Map<string, string | null>;
  label: string;
  at: number;
}

export class PatchJournal {
  private readonly entries: JournalEntry[] = [];
  constructor(private readonly max = 50) {}
  record(entry: JournalEntry): void {
    if (!entry.reversePatch.trim()) return;
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.shift();
  }
  peek(): JournalEntry | undefined {
    return this.entries[this.entries.length - 1];
  }
  pop(): JournalEntry | undefined {
    return this.entries.pop();
  }
  get size(): number {
    return this.entries.length;
  }
}

/** Files the user changed since the patch wrote them (compared with what the patch left). */
export function changedSince(entry: JournalEntry, current: ReadonlyMap<string, string | null>): string[] {
  return [...entry.after].filter(([p, text]) => (current.get(p) ?? null) !== text).map(([p]) => p);
}
