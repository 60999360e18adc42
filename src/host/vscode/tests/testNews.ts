/**
 * What the model last saw of each test command (its own run_tests, or a run-on-save result it was
 * told), so run on save tells it only what is news. Pure (no `vscode` import).
 */
export interface TestVerdict {
  command: string;
  exitCode: number | null;
  /** formatTestSummary's text: counts and the failing tests' names and messages (no timings). */
  summary: string;
}

export class TestNews {
  private readonly seen = new Map<string, string>();

  /** The model saw these results. */
  saw(...verdicts: TestVerdict[]): void {
    for (const v of verdicts) this.seen.set(v.command, keyOf(v));
  }

  /** Whether any command's result differs from what the model last saw of it (a command it never saw is news). */
  isNews(verdicts: readonly TestVerdict[]): boolean {
    return verdicts.some((v) => this.seen.get(v.command) !== keyOf(v));
  }

  /** A new conversation: its model has seen nothing. */
  clear(): void {
    this.seen.clear();
  }
}

function keyOf(v: TestVerdict): string {
  return `${v.exitCode === 0 ? 'pass' : `fail ${v.exitCode ?? 'killed'}`}\n${v.summary.trim()}`;
}
