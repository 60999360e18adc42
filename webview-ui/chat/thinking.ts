/**
 * The model's reasoning in the chat: a collapsed block above its reply, closed by default (it can be
 * long, and the answer is what the reader came for). A <details> whose summary says what activating
 * it does ("Show Thinking" / "Hide Thinking"), so a screen reader announces a verb. The reasoning is
 * model output: set as text, never parsed as HTML.
 */
import { el } from '../shared/components';

export class ThinkingDisclosure {
  readonly root: HTMLDetailsElement;
  private readonly summary: HTMLElement;
  private readonly body: HTMLElement;
  private text = '';

  constructor(open: boolean, onToggle: (open: boolean) => void) {
    this.root = document.createElement('details');
    this.root.className = 'pp-collapsible pp-thinking';
    this.summary = document.createElement('summary');
    this.body = el('div', 'pp-thinking-text');
    this.body.setAttribute('aria-busy', 'true');
    this.root.append(this.summary, this.body);
    this.root.open = open;
    this.label();
    this.root.addEventListener('toggle', () => {
      this.label();
      onToggle(this.root.open);
    });
  }

  append(text: string): void {
    this.text += text;
    this.body.textContent = this.text;
  }

  /** The reasoning is complete (the reply, a tool call or the run followed it). */
  done(): void {
    this.body.setAttribute('aria-busy', 'false');
  }

  private label(): void {
    this.summary.textContent = this.root.open ? 'Hide Thinking' : 'Show Thinking';
  }
}
