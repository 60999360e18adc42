/**
 * The empty chat: what PatchPilot can do, goals that fit the open project ("Try: ..." sends one as
 * a message) and the recent conversations ("Continue: ..." opens one to go on with it). The host
 * makes both lists (chat/home); they are asked for each time the chat becomes empty.
 */
import type { ChatHome } from '../../src/protocol/chat';
import { button, el } from '../shared/components';
import type { HostClient } from './client';

const CAN_DO = [
  'Fix, change or explain code in this project: say what you want in your words.',
  'Every change is a patch you review in the diff editor, hunk by hunk, before anything is written.',
  'Your tests run after each edit, and the model reads what failed.',
  'Commands run under a policy: it asks you first, and you can allow a command always.',
  'Every run is recorded: Show History finds it again.',
];

export class ChatHomeView {
  private shown = false;
  private asked = 0;

  constructor(
    private readonly slot: HTMLElement,
    private readonly client: HostClient,
    private readonly send: (goal: string) => void,
    private readonly refused: (reason: string) => void,
  ) {}

  /** True while the empty chat's start page is on show (it is read from its heading down, not followed at its end). */
  get visible(): boolean {
    return this.shown;
  }

  /** Shows the home while the chat is empty; fetches its lists afresh each time it appears. */
  update(empty: boolean): void {
    if (!empty) {
      this.shown = false;
      this.slot.replaceChildren();
      this.slot.hidden = true;
      return;
    }
    if (this.shown) return;
    this.shown = true;
    this.slot.hidden = false;
    this.draw({ examples: [], conversations: [] });
    const ask = ++this.asked;
    void this.client
      .request('chat/home', {})
      .then((home) => ask === this.asked && this.shown && this.draw(home))
      .catch(() => undefined);
  }

  private draw(home: ChatHome): void {
    const root = el('section', 'pp-empty');
    root.setAttribute('aria-label', 'Start here');
    const list = el('ul');
    for (const line of CAN_DO) list.append(el('li', undefined, line));
    root.append(el('h2', undefined, 'What PatchPilot can do'), list);
    if (home.examples.length) {
      const row = el('div', 'pp-actions');
      for (const goal of home.examples) row.append(button({ label: `Try: ${goal}`, variant: 'secondary', onClick: () => this.send(goal) }));
      root.append(el('h3', undefined, 'Try a goal in this project'), row);
    }
    if (home.conversations.length) {
      const row = el('div', 'pp-actions');
      for (const c of home.conversations) {
        const when = new Date(c.when).toLocaleString();
        const b = button({
          label: `Continue: ${c.title}`,
          title: `${when} · ${c.turns} message${c.turns === 1 ? '' : 's'} · ${c.status}${c.model ? ` · ${c.model}` : ''}`,
          variant: 'secondary',
          onClick: () =>
            void this.client
              .request('chat/openConversation', { runId: c.runId })
              .then((r) => (r.opened ? undefined : this.refused(r.reason ?? 'The conversation could not be opened.'))),
        });
        row.append(b);
      }
      root.append(el('h3', undefined, 'Recent conversations'), row);
    }
    this.slot.replaceChildren(root);
  }
}
