/**
 * The message box suggests MCP prompt commands (`/mcp.<server>.<prompt>`) as the user types a `/`
 * word, and resources to attach (`@<server>:<uri>`) as they type an `@` word: a list box under it (ARIA combobox pattern: aria-autocomplete, aria-expanded,
 * aria-activedescendant), Up/Down to move, Enter or Tab to take one (its arguments are typed after
 * it), Escape to close; a click takes one too. The host sends the list with the chat's status.
 */
import type { SlashCommandView } from '../../src/protocol/chat';
import { el } from '../shared/components';
import { matchingCommands, matchingMentions } from './commandMatch';

export class CommandSuggest {
  readonly root: HTMLElement;
  private commands: readonly SlashCommandView[] = [];
  private mentions: readonly SlashCommandView[] = [];
  /** Where the word a suggestion replaces starts (0 for a command, the `@` for a mention). */
  private from = 0;
  private shown: SlashCommandView[] = [];
  private active = -1;

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** Keys are taken here before the message box sees them (Enter must pick, not send). */
    keyTarget: HTMLElement,
  ) {
    this.root = el('div', 'pp-suggest');
    this.root.id = 'pp-command-suggestions';
    this.root.setAttribute('role', 'listbox');
    this.root.setAttribute('aria-label', 'MCP prompt commands and resources');
    this.root.hidden = true;
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-controls', this.root.id);
    input.setAttribute('aria-expanded', 'false');
    input.addEventListener('input', () => this.update());
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    keyTarget.addEventListener('keydown', (e) => this.onKey(e), true);
  }

  setCommands(commands: readonly SlashCommandView[] | undefined, mentions?: readonly SlashCommandView[]): void {
    this.commands = commands ?? [];
    this.mentions = mentions ?? [];
    if (!this.root.hidden) this.update();
  }

  private update(): void {
    const mention = matchingMentions(this.mentions, this.input.value);
    this.shown = mention.items.length ? mention.items : matchingCommands(this.commands, this.input.value);
    this.from = mention.items.length ? mention.from : 0;
    this.active = this.shown.length ? 0 : -1;
    this.render();
  }

  private render(): void {
    const open = this.shown.length > 0;
    this.root.hidden = !open;
    this.input.setAttribute('aria-expanded', String(open));
    this.root.replaceChildren(
      ...this.shown.map((c, i) => {
        const option = el('div', 'pp-suggest-option');
        option.id = `pp-command-${i}`;
        option.setAttribute('role', 'option');
        option.setAttribute('aria-selected', String(i === this.active));
        option.append(el('span', 'pp-suggest-command', c.command), el('span', 'pp-suggest-args', c.args));
        if (c.description) option.append(el('span', 'pp-suggest-about', c.description));
        option.addEventListener('mousedown', (e) => {
          e.preventDefault(); // the message box keeps the focus
          this.take(c);
        });
        return option;
      }),
    );
    if (this.active >= 0) this.input.setAttribute('aria-activedescendant', `pp-command-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
    this.root.children[this.active]?.scrollIntoView?.({ block: 'nearest' });
  }

  private onKey(e: KeyboardEvent): void {
    if (this.root.hidden || e.target !== this.input || e.isComposing) return;
    const n = this.shown.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') this.active = (this.active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
    else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') this.take(this.shown[this.active]!);
    else if (e.key === 'Escape') this.close();
    else return;
    e.preventDefault();
    e.stopPropagation();
    if (!this.root.hidden) this.render();
  }

  private take(c: SlashCommandView): void {
    this.input.value = `${this.input.value.slice(0, this.from)}${c.command} `;
    this.input.dispatchEvent(new Event('input'));
    this.close();
    this.input.focus();
  }

  private close(): void {
    this.shown = [];
    this.active = -1;
    this.render();
  }
}
