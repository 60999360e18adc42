/** The words the CLI and the chat both show while a long checkpoint is prepared. */

/** "Preparing checkpoints: 41,200 of 100,000 files" */
export function describeCheckpointProgress(e: { done: number; total: number }): string {
  return `Preparing checkpoints: ${e.done.toLocaleString('en')} of ${e.total.toLocaleString('en')} files`;
}
