import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline/promises';
import type { ElicitationRequest, ElicitationResponse as ElicitationAnswer, Elicitor, Notifier } from '../../core/ports';
import { elicitationContent, elicitationFields, type ElicitationField } from '../../protocol/elicitationForm';

/**
 * An MCP server asks the user for input (elicitation). On a terminal: the fields are asked one by
 * one on stderr (Enter keeps the default), after a choice to fill in, decline or cancel; a link is
 * opened only after "Open <url>?" is answered yes. Headless (no terminal, --json): every request is
 * declined, and the run says so on stderr (the server then tells the model).
 */
export class DecliningElicitor implements Elicitor {
  constructor(private readonly notifier: Pick<Notifier, 'warn'>) {}

  async elicit(request: ElicitationRequest): Promise<ElicitationAnswer> {
    this.notifier.warn(`MCP server "${request.server}" asked for input (${oneLine(request.message)}); declined: no terminal to ask on`);
    return { action: 'decline' };
  }
}

export class TerminalElicitor implements Elicitor {
  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
    private readonly openUrl: (url: string) => void = openInBrowser,
  ) {}

  async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    this.output.write(`\nMCP server "${request.server}" asks: ${plain(request.message)}\n`);
    if (request.mode === 'url') {
      if (!/^https?:\/\//i.test(request.url)) {
        this.output.write(`  declined: ${plain(request.url)} is not a web address\n`);
        return { action: 'decline' };
      }
      const yes = /^y/i.test(await this.ask(`Open ${plain(request.url)}? [y/N] `, signal));
      if (yes) this.openUrl(request.url);
      return yes ? { action: 'accept' } : { action: 'decline' };
    }
    const { fields, unsupported } = elicitationFields(request.requestedSchema);
    if (unsupported.length) this.output.write(`  (fields this terminal cannot ask are left out: ${unsupported.join(', ')})\n`);
    const choice = await this.ask('[f]ill in, [d]ecline, [c]ancel? ', signal);
    if (/^d/i.test(choice)) return { action: 'decline' };
    if (!/^f/i.test(choice)) return { action: 'cancel' };
    const content: Record<string, unknown> = {};
    for (const f of fields) {
      for (let attempt = 0; ; attempt++) {
        const answer = await this.ask(question(f), signal);
        const checked = elicitationContent([f], { [f.key]: answer });
        if ('content' in checked) {
          if (f.key in checked.content) content[f.key] = checked.content[f.key];
          break;
        }
        this.output.write(`  ${Object.values(checked.errors)[0]}\n`);
        if (attempt >= 2) return { action: 'cancel' };
      }
    }
    return { action: 'accept', content: content as Extract<ElicitationAnswer, { action: 'accept' }>['content'] };
  }

  private async ask(question: string, signal: AbortSignal): Promise<string> {
    const rl = createInterface({ input: this.input, output: this.output, terminal: true });
    try {
      return await rl.question(question, { signal });
    } finally {
      rl.close();
    }
  }
}

function question(f: ElicitationField): string {
  const about = f.description ? ` (${plain(f.description)})` : '';
  const choices = f.options ? ` {${f.options.map((o) => o.value).join(', ')}}${f.kind === 'multiselect' ? ' comma-separated' : ''}` : '';
  const kind = f.kind === 'boolean' ? ' [y/n]' : f.format ? ` <${f.format}>` : '';
  const def = f.default !== undefined ? ` [${Array.isArray(f.default) ? f.default.join(', ') : String(f.default)}]` : '';
  return `  ${plain(f.label)}${f.required ? ' *' : ''}${about}${choices}${kind}${def}: `;
}

/** A server's text on the terminal: no escape sequences or control characters. */
function plain(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '');
}

function oneLine(text: string): string {
  const line = plain(text).split('\n', 1)[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => process.stderr.write(`  could not open a browser; the address: ${url}\n`));
    child.unref();
  } catch {
    process.stderr.write(`  could not open a browser; the address: ${url}\n`);
  }
}
