/**
 * The unified diff of an exact edit, so that it takes the one write path every patch takes (dry
 * run, review per hunk, PatchManager, history). git's a/ b/ prefixes and 3 lines of context, as
 * propose_patch asks of the model.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

export function deriveUnifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
