/**
 * The protected guard's memory between commands: its last view of the workspace and a cursor on the
 * workspace's change feed (the one the checkpoints read). Before a command the view is brought up to
 * date from what the feed saw since (a user's approved write to `.vscode/` is then known, not taken
 * for the command's); after it, only the paths the command changed are looked at again. A walk is
 * left for the first command, a feed that missed something (overflow, a failed watch, no marker), a
 * changed ignore file, and options that do not match the view's.
 */
import type { ChangeFeed, FeedCursor } from '../fs/changeFeed';
import type { GuardOptions } from './protectedGuard';
import { scanWithGitParts, updateScan } from './guardScan';
import type { WorkspaceScan } from './workspaceScan';

export type ScanMode = 'feed' | 'walk';

export class GuardBaseline {
  private scan: WorkspaceScan | undefined;
  private key: string | undefined;
  private cursor: FeedCursor | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly feed: ChangeFeed) {}

  /**
   * The workspace as of now, and a cursor that sees every change from this moment (the command's own),
   * to pass to `after`; undefined when the feed cannot run here (the caller walks).
   */
  current(options: GuardOptions): Promise<{ scan: WorkspaceScan; session: FeedCursor; mode: ScanMode } | undefined> {
    const run = this.queue.then(() => this.refresh(options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async refresh(options: GuardOptions): Promise<{ scan: WorkspaceScan; session: FeedCursor; mode: ScanMode } | undefined> {
    if (!(await this.feed.start())) return undefined;
    const key = JSON.stringify([options.root, options.stateDir, options.stateFile, options.protectedGlobs, options.budget]);
    if (key !== this.key) {
      this.scan = undefined;
      this.key = key;
    }
    await this.feed.settle();
    this.cursor ??= this.feed.cursor();
    // Taken and opened in the same tick: no change falls between the view and the command's cursor.
    const dirty = this.cursor.take();
    const session = this.feed.cursor();
    const updated = this.scan && dirty ? await updateScan(options, this.scan, dirty, [this.feed.stateRel]) : undefined;
    const mode: ScanMode = updated ? 'feed' : 'walk';
    this.scan = updated ?? (await scanWithGitParts(options));
    return { scan: this.scan, session, mode };
  }

  /** The workspace after a command, from `before` and what its cursor saw (a walk when the feed missed something). */
  async after(options: GuardOptions, before: WorkspaceScan, session: FeedCursor): Promise<{ scan: WorkspaceScan; mode: ScanMode }> {
    await this.feed.settle();
    const dirty = session.take();
    session.close();
    const updated = dirty ? await updateScan(options, before, dirty, [this.feed.stateRel]) : undefined;
    return updated ? { scan: updated, mode: 'feed' } : { scan: await scanWithGitParts(options), mode: 'walk' };
  }

  /** Stops reading the feed (its owner stops the feed). */
  dispose(): void {
    this.cursor?.close();
    this.cursor = undefined;
    this.scan = undefined;
  }
}
