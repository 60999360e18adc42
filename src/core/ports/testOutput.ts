/**
 * Where a test command's live output is shown while the one command executor runs it (VS Code: a
 * task terminal named for the command). The CLI has none: it prints the run's progress lines as before.
 */
export interface TestOutputView {
  /**
   * Shows one run of `command` from now on; `stop()` cancels the run (the user stopped its task or
   * closed its terminal). `reveal` false: shown without bringing the view up (a run on save).
   */
  open(command: string, stop: () => void, reveal?: boolean): TestOutputSink;
}

/** How a shown run ended, written at the end of its output. */
export interface TestOutputEnd {
  /** null when the command was killed (timeout, cancel) or could not start. */
  exitCode: number | null;
  durationMs: number;
  timedOut?: boolean;
  cancelled?: boolean;
  /** Why the command could not run at all (the executor threw). */
  error?: string;
}

export interface TestOutputSink {
  /** A piece of the command's output as it came (raw, both streams). */
  write(chunk: string): void;
  /** The run ended: its exit status is written and the view is kept for the user to read. */
  end(status: TestOutputEnd): void;
}
