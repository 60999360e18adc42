// core/channels without a chat service: a fake Channel records what the server sends. The status
// message is edited at most once per interval however fast events come; a chat off the allowlist
// is refused and runs nothing; a second goal while one runs is turned away; /stop interrupts once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ChannelServer, StatusMessage, type Channel, type ChannelQuestion, type ChannelGoalRunner, type IncomingMessage } from '../../../src/core/channels';
import { parseExact } from '../../../src/protocol/exactCommand';

class FakeChannel implements Channel {
  readonly sent: { op: 'send' | 'edit'; chatId: string; text: string }[] = [];
  deliver: (m: IncomingMessage) => void = () => undefined;
  async listen(onMessage: (m: IncomingMessage) => void): Promise<void> {
    this.deliver = onMessage;
  }
  async close(): Promise<void> {}
  async send(chatId: string, text: string): Promise<string> {
    this.sent.push({ op: 'send', chatId, text });
    return String(this.sent.length);
  }
  async edit(chatId: string, _messageId: string, text: string): Promise<void> {
    this.sent.push({ op: 'edit', chatId, text });
  }
  readonly questions: ChannelQuestion[] = [];
  async ask(question: ChannelQuestion): Promise<string> {
    this.questions.push(question);
    return 'approve';
  }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('channels: status message', () => {
  test('50 progress lines in two bursts make one send and one edit (one per interval), the last lines shown', async () => {
    const channel = new FakeChannel();
    const status = new StatusMessage(channel, '1', 'Running: x', 200, (err) => assert.fail(String(err)));
    for (let i = 1; i <= 25; i++) status.add(`line ${i}`);
    await tick(50);
    assert.equal(channel.sent.length, 1, 'the first lines go out at once');
    for (let i = 26; i <= 50; i++) status.add(`line ${i}`);
    await tick(50);
    assert.equal(channel.sent.length, 1, 'within the interval nothing more goes out');
    await tick(250);
    await status.flush();
    assert.deepEqual(
      channel.sent.map((s) => s.op),
      ['send', 'edit'],
    );
    const text = channel.sent.at(-1)!.text.split('\n');
    assert.equal(text[0], 'Running: x');
    assert.equal(text.at(-1), 'line 50');
    assert.equal(text.length, 13, 'the title and the last 12 lines');
  });
});

describe('channels: server', () => {
  test('allowlist, one goal at a time, /stop once', async () => {
    const channel = new FakeChannel();
    const server = new ChannelServer({ channel, allowedChatIds: ['7'], statusIntervalMs: 10, log: () => undefined });
    let release!: () => void;
    let interrupts = 0;
    const goals: string[] = [];
    const runner: ChannelGoalRunner = {
      get running() {
        return goals.length > 0 && release !== undefined;
      },
      runGoal: async (goal) => {
        goals.push(goal);
        server.onEvent({ type: 'step/started', step: 1 });
        await new Promise<void>((r) => (release = r));
        return { status: 'cancelled', reason: 'stopped by the user', steps: 1 };
      },
      interrupt: () => {
        interrupts++;
        release();
        return true;
      },
    };
    await server.serve(runner);
    channel.deliver({ chatId: '8', senderId: '8', text: 'rm -rf /' });
    channel.deliver({ chatId: '7', senderId: '7', text: 'fix the bug' });
    await tick(20);
    channel.deliver({ chatId: '7', senderId: '7', text: 'another goal' });
    await tick(20);
    channel.deliver({ chatId: '7', senderId: '7', text: '/stop' });
    channel.deliver({ chatId: '7', senderId: '7', text: '/stop' });
    await tick(20);
    assert.deepEqual(goals, ['fix the bug']);
    assert.equal(interrupts, 1);
    const to8 = channel.sent.filter((s) => s.chatId === '8');
    assert.equal(to8.length, 1);
    assert.match(to8[0]!.text, /not allowed to run PatchPilot goals.*This chat's id: 8/);
    const to7 = channel.sent.filter((s) => s.chatId === '7').map((s) => s.text);
    assert.ok(to7.includes('A goal is already running; /stop cancels it.'));
    assert.ok(to7.some((t) => /^Running: fix the bug\nstep 1$/.test(t)));
    assert.ok(to7.includes('cancelled: stopped by the user (1 step)'));
  });

  test("approvals go to the goal's sender (or the user's approverIds), and show the command exactly, in monospace", async () => {
    for (const [approverIds, expected] of [
      [undefined, ['42']],
      [
        ['5', ' 6 '],
        ['5', '6'],
      ],
    ] as const) {
      const channel = new FakeChannel();
      const server = new ChannelServer({ channel, allowedChatIds: ['-100'], approverIds, statusIntervalMs: 10, log: () => undefined });
      const command = 'echo  a\trm -rf ~\nid';
      const runner: ChannelGoalRunner = {
        running: false,
        runGoal: async () => {
          await server.approver.approveAction({ kind: 'command', title: command, reason: 'not on the allow list' }, new AbortController().signal);
          return { status: 'finished', reason: 'done', steps: 1 };
        },
        interrupt: () => false,
      };
      await server.serve(runner);
      channel.deliver({ chatId: '-100', senderId: '42', text: 'tidy up' });
      await tick(20);
      const q = channel.questions[0]!;
      assert.equal(q.chatId, '-100');
      assert.deepEqual([...q.answerers], expected);
      const code = q.code![0]!;
      const shown = q.text.slice(code.offset, code.offset + code.length);
      assert.equal(shown, 'echo␠␠a\\trm -rf ~\\nid');
      assert.equal(parseExact({ text: shown, escaped: true }), command);
      assert.match(q.text, /shown escaped, exactly as it runs/);
    }
  });
});
