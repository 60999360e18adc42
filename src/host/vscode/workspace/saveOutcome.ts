/**
 * Whether a save of PatchPilot's reached the disk. Pure (no `vscode` import): VsCodeWorkspaceFs
 * passes the editor's save and a read of the file.
 *
 * `TextDocument.save()` answering false does not mean nothing was written. Under load VS Code
 * reports false for saves that did write: the text went to disk but the document still counted as
 * dirty when the save ended (another save of the same document running or queued, its version
 * moved on meanwhile). Trusting the boolean showed a patch that was on disk as "not written"
 * (no Undo, the model told nothing changed). The file's text is the answer: when it holds what was
 * meant, the change was saved.
 */
import { plainText } from '../../../core/base';

export interface SaveSteps {
  /** The editor's save; its answer is a hint, not the verdict. */
  save(): PromiseLike<boolean>;
  /** The file's text on disk now; undefined when it cannot be read. */
  readDisk(): Promise<string | undefined>;
  /** Waits (a save VS Code queued may still be writing). */
  sleep?(ms: number): Promise<void>;
}

/** How long a save reported as failed may take to show on disk (a queued save finishing). */
export const SAVE_SETTLE_MS = 2_000;
const STEP_MS = 100;

/**
 * True when the save reached the disk: VS Code said so, or the file holds one of `texts()` (the
 * change as meant, the editor's text with what save participants such as trim-on-save made of it),
 * BOM and line endings aside (VS Code keeps its own).
 */
export async function savedToDisk(texts: () => readonly string[], steps: SaveSteps, settleMs = SAVE_SETTLE_MS): Promise<boolean> {
  if (await steps.save()) return true;
  const sleep = steps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let waited = 0; ; waited += STEP_MS) {
    const disk = await steps.readDisk();
    if (disk !== undefined && texts().some((t) => plainText(t) === plainText(disk))) return true;
    if (waited >= settleMs) return false;
    await sleep(STEP_MS);
  }
}
