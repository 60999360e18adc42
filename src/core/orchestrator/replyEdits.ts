/**
 * The after-edit tests of one reply, run once: a reply whose tool calls edit several files gets one
 * test run, after its last edit, aimed at the related tests of every file the reply changed; the
 * earlier edits' results say where the tests are (test/unit/orchestrator/replyEdits.test.ts). Tests
 * between the edits of one change would test it half-applied, and N edits would cost N runs. When the
 * reply's last edit fails before it writes, the run still owed happens once the reply's calls are
 * done, and its result joins the result of the reply's last edit that wrote.
 */
import type { ModelToolCall } from '../llm/types';
import type { Tool } from '../tools/types';
import { checkpointScope } from './checkpointStep';

/** What an edit whose tests wait for the reply's last edit says instead of a test result. */
export const TESTS_AFTER_LAST_EDIT = 'tests run after the last edit of this reply';

export class ReplyEdits {
  private waiting: string[] = [];
  private owedTo: string | undefined;
  private current: { callId: string; editsFollow: boolean } | undefined;

  /** Before one call of a reply: its id, and whether a call that edits files follows it in the same reply. */
  startCall(callId: string, editsFollow: boolean): void {
    this.current = { callId, editsFollow };
  }

  /**
   * An edit wrote `paths`. Undefined while more edits of the reply follow (the paths wait for them);
   * else every path the reply's edits wrote, to test now. Outside a reply (a tool run alone) at once.
   */
  wrote(paths: readonly string[]): string[] | undefined {
    const all = [...new Set([...this.waiting, ...paths])];
    if (this.current?.editsFollow) {
      this.waiting = all;
      this.owedTo = this.current.callId;
      return undefined;
    }
    this.waiting = [];
    this.owedTo = undefined;
    return all;
  }

  /** The reply's calls are done: the paths whose tests are still owed (its last edit failed before writing) and the call whose result gets them. */
  endReply(): { callId: string; paths: string[] } | undefined {
    const owed = this.owedTo && this.waiting.length ? { callId: this.owedTo, paths: this.waiting } : undefined;
    this.waiting = [];
    this.owedTo = undefined;
    this.current = undefined;
    return owed;
  }
}

/** Whether a call after `index` in the reply edits files (its tool names the paths it writes: write_file, edit_file, propose_patch). */
export function editFollows(calls: readonly ModelToolCall[], index: number, toolOf: (name: string) => Tool<any> | undefined): boolean {
  return calls.slice(index + 1).some((c) => {
    const scope = checkpointScope(toolOf(c.name), c);
    return Array.isArray(scope) && scope.length > 0;
  });
}
