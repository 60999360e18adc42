import { createInterface } from 'node:readline/promises';
import { exactLine } from '../../protocol/exactCommand';
import type { ActionApprovalAnswer, ActionApprovalRequest, Approver, PatchApprovalAnswer, PatchApprovalRequest } from '../../core/ports';

// Only the fact: what the user could change depends on the mode and the action, and the core says it (tools/approvalHint.ts).
const NO_TERMINAL = 'no terminal to ask the user, so nothing that needs approval can happen in this run.';

/**
 * Headless runs (CI, pipes, --json): nobody can be asked, so whatever needs approval is refused as
 * `unattended` (not as a person's no); the model is told, and a run whose every edit was refused
 * this way ends `blocked`. `patchpilot run` says so before the run starts (headlessNotice).
 */
export class NonInteractiveApprover implements Approver {
  async approvePatch(): Promise<PatchApprovalAnswer> {
    return { acceptedHunks: [], unattended: NO_TERMINAL };
  }
  async approveAction(): Promise<ActionApprovalAnswer> {
    return { approved: false, unattended: NO_TERMINAL };
  }
}

/** What a headless run in this mode will refuse, said once before it starts; undefined when nothing will be. */
export function headlessNotice(mode: string): string | undefined {
  switch (mode) {
    case 'ask':
      return 'no terminal to ask on, and the approval mode is ask: every patch, file write and command that needs approval will be refused, and a run whose every edit is refused ends "blocked" (exit 1). To let edits through, use --approve auto-edit (or auto); to be asked, run on a terminal without --json.';
    case 'auto-edit':
      return 'no terminal to ask on: patches and file writes go ahead (auto-edit), commands that need approval will be refused.';
    case 'auto':
      return 'no terminal to ask on: what the policy still asks about (commands off the allowlist, protected paths) will be refused.';
    default:
      return undefined;
  }
}

/** Asks on the terminal (prompts on stderr, so stdout stays clean for --json and the summary). */
export class TerminalApprover implements Approver {
  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
    /**
     * Ctrl-C while a question waits: the terminal is in raw mode then, so no SIGINT reaches the
     * process. By default the signal is raised on ourselves, so Ctrl-C cancels the run as anywhere else.
     */
    private readonly onInterrupt: () => void = () => process.kill(process.pid, 'SIGINT'),
  ) {}

  async approvePatch(request: PatchApprovalRequest, signal: AbortSignal): Promise<PatchApprovalAnswer> {
    const hunks = request.preview.files.flatMap((f) => f.hunks.filter((h) => h.status === 'would-apply'));
    this.output.write(`\n--- proposed patch (${hunks.length} hunk${hunks.length === 1 ? '' : 's'}) ---\n${request.patchText.trimEnd()}\n---\n`);
    const all = await this.ask('apply it? [y]es, [n]o, [s]elect hunks: ', signal);
    let accepted: string[] = [];
    if (/^y/i.test(all)) accepted = hunks.map((h) => h.id);
    else if (/^s/i.test(all)) {
      for (const h of hunks) {
        const where = h.range ? ` (lines ${h.range.start}-${h.range.end})` : '';
        if (/^y/i.test(await this.ask(`  apply ${h.id}${where}? [y/N] `, signal))) accepted.push(h.id);
      }
    }
    const feedback = accepted.length < hunks.length ? await this.ask('a word for the agent (optional): ', signal) : '';
    return { acceptedHunks: accepted, ...(feedback.trim() ? { feedback: feedback.trim() } : {}) };
  }

  async approveAction(request: ActionApprovalRequest, signal: AbortSignal): Promise<ActionApprovalAnswer> {
    this.output.write(
      // Exactly what runs: a tab, a newline or an escape sequence in it is shown, never acted out by the terminal.
      `\n${request.kind}: ${exactLine(request.title)}\n  ${request.reason}\n${
        request.detail
          ? `${request.detail
              .split('\n')
              .slice(0, 20)
              .map((l) => `  | ${l}`)
              .join('\n')}\n`
          : ''
      }`,
    );
    const yes = /^y/i.test(await this.ask('allow? [y/N] ', signal));
    const feedback = yes ? '' : await this.ask('a word for the agent (optional): ', signal);
    return { approved: yes, ...(feedback.trim() ? { feedback: feedback.trim() } : {}) };
  }

  private async ask(question: string, signal: AbortSignal): Promise<string> {
    const rl = createInterface({ input: this.input, output: this.output, terminal: true });
    rl.on('SIGINT', () => {
      this.output.write('^C\n');
      this.onInterrupt();
    });
    try {
      return await rl.question(question, { signal });
    } finally {
      rl.close();
    }
  }
}
