/**
 * The approvals that wait, as cards with Approve / Deny (or Accept / Reject for a patch under review,
 * with an optional reason). Cards are kept by approval id: a snapshot (sent again whenever the view
 * becomes visible) or another approval arriving leaves a card as it is, so a reason being typed, the
 * focus and a card already answered stay. Typed reasons are part of the view's saved state, so a
 * reload of the view keeps them too.
 */
import type { PendingApproval } from '../../src/protocol/chat';
import { ESCAPED_NOTE, renderExact } from '../../src/protocol/exactCommand';
import { button, el, select, setEnabled, textField } from '../shared/components';
import { elicitationCard, type SendElicitationAnswer } from './elicitationCard';

export interface ApprovalReply {
  id: string;
  approved: boolean;
  feedback?: string;
}

const KIND: Record<PendingApproval['kind'], string> = {
  patch: 'Patch',
  command: 'Command',
  write: 'File write',
  tests: 'Test command',
  fetch: 'Web fetch',
  mcp: 'MCP server',
  hook: 'Workspace hook',
  elicitation: 'MCP server form',
};

export interface ApprovalCardsOptions {
  /** Sends the answer; a failed send puts the card's buttons back. */
  answer(a: ApprovalReply): Promise<unknown>;
  /** Answers an MCP server's form card (elicitationCard.ts). */
  answerElicitation: SendElicitationAnswer;
  /** Approves and adds a pattern to patchpilot.policy.allow ("Allow Always"); a failure puts the buttons back. */
  alwaysAllow(a: { id: string; pattern: string; scope: 'workspace' | 'user' }): Promise<{ ok: boolean }>;
  /** Typed reasons by approval id, or a form card's typed values as JSON (restored from the saved state; kept up to date here). */
  reasons: Record<string, string>;
  /** A reason changed: the view saves its state. */
  changed(): void;
  /** The focused card went away and no card is left to take the focus. */
  focusLost(): void;
  /** Says a new approval out loud (a live region): the user may be typing elsewhere. */
  announce(text: string, kind?: 'waiting' | 'news'): void;
  /** "Show Hunk Buttons" on a review card: turns on VS Code's diffEditor.codeLens. */
  showHunkButtons(): Promise<unknown>;
}

export class ApprovalCards {
  private readonly cards = new Map<string, HTMLElement>();
  /** Cards answered while the focus was in them (disabling the pressed button drops the focus). */
  private readonly answeredHere = new Set<string>();

  constructor(
    private readonly root: HTMLElement,
    private readonly o: ApprovalCardsOptions,
  ) {}

  get reasons(): Record<string, string> {
    return this.o.reasons;
  }

  /** Shows exactly `pending`, in its order, reusing the cards already shown. */
  render(pending: readonly PendingApproval[]): void {
    const ids = new Set(pending.map((a) => a.id));
    let hadFocus = false;
    for (const id of [...this.cards.keys()]) {
      if (ids.has(id)) continue;
      const gone = this.cards.get(id)!;
      const focusNowhere = !document.activeElement || document.activeElement === document.body;
      hadFocus ||= gone.contains(document.activeElement) || (this.answeredHere.has(id) && focusNowhere);
      this.answeredHere.delete(id);
      gone.remove();
      this.cards.delete(id);
      delete this.o.reasons[id];
    }
    for (const id of Object.keys(this.o.reasons)) if (!ids.has(id)) delete this.o.reasons[id];
    const added: PendingApproval[] = [];
    pending.forEach((a, i) => {
      let card = this.cards.get(a.id);
      if (!card) {
        this.cards.set(a.id, (card = this.card(a)));
        added.push(a);
      } else this.update(a);
      // Only a card out of place moves: moving a node would take the focus from it.
      const at = this.root.children[i];
      if (at !== card) this.root.insertBefore(card, at ?? null);
    });
    if (added.length) this.o.announce(`PatchPilot waits for your answer: ${added.map((a) => `${KIND[a.kind]}, ${a.title}`).join('; ')}`, 'waiting');
    // Answered with the keyboard: the focus goes to the next card waiting, or back to the message box.
    if (hadFocus) {
      const next = this.root.querySelector<HTMLElement>('button:not([disabled])');
      if (next) next.focus();
      else this.o.focusLost();
    }
  }

  /** A waiting approval changed (a hunk decided in the diff editor): only its hunk list is redrawn. */
  update(a: PendingApproval): void {
    const list = this.cards.get(a.id)?.querySelector('.pp-hunk-list');
    if (list && a.hunkStates) list.replaceWith(hunkList(a));
  }

  private card(a: PendingApproval): HTMLElement {
    if (a.kind === 'elicitation' && a.form) {
      // A form has no reason: its slot in the saved state keeps the values typed so far.
      const typed = {
        saved: this.o.reasons[a.id],
        save: (json: string) => {
          this.o.reasons[a.id] = json;
          this.o.changed();
        },
      };
      return elicitationCard(a, this.o.answerElicitation, () => this.answeredHere.add(a.id), typed);
    }
    const card = el('section', 'pp-approval');
    card.setAttribute('aria-label', `Approval needed: ${a.title}`);
    // What runs, exactly (the one renderer of every approval surface): whitespace and control characters visible, nothing collapsed.
    const exact = renderExact(a.title);
    card.append(el('div', 'pp-approval-kind', KIND[a.kind]), el('code', 'pp-approval-title', exact.text));
    if (exact.escaped) card.append(el('div', 'pp-approval-escaped', ESCAPED_NOTE));
    // The actions sit under the title, above the detail: a long patch never pushes them out of view.
    const actionsSlot = el('div', 'pp-approval-actions');
    card.append(actionsSlot);
    if (a.reason) card.append(el('div', 'pp-approval-reason', a.reason));
    if (a.detail) card.append(approvalDetail(a));
    const answer = (approved: boolean, feedback?: string) => {
      if (card.contains(document.activeElement)) this.answeredHere.add(a.id);
      const buttons = [...card.querySelectorAll('button')];
      buttons.forEach((b) => setEnabled(b, false));
      this.o
        .answer({ id: a.id, approved, ...(feedback?.trim() ? { feedback: feedback.trim() } : {}) })
        .catch(() => buttons.forEach((b) => setEnabled(b, true)));
    };
    const row = el('div', 'pp-actions');
    if (a.review) {
      // A patch under review in the diff editor: the whole patch from here, an optional reason with Reject.
      const reason = textField({ name: `Reason for rejecting the ${a.title}`, placeholder: 'Why reject? (optional, sent to the agent)' });
      reason.value = this.o.reasons[a.id] ?? '';
      reason.addEventListener('input', () => {
        if (reason.value) this.o.reasons[a.id] = reason.value;
        else delete this.o.reasons[a.id];
        this.o.changed();
      });
      row.append(
        button({ label: 'Accept', icon: 'check', name: `Accept ${a.title}`.slice(0, 200), onClick: () => answer(true) }),
        button({ label: 'Reject', icon: 'close', name: `Reject ${a.title}`.slice(0, 200), variant: 'secondary', onClick: () => answer(false, reason.value) }),
      );
      if (a.hunkStates?.length) actionsSlot.after(hunkList(a));
      if (a.hunkButtonsHidden) {
        const show: HTMLButtonElement = button({
          label: 'Show Hunk Buttons',
          title: 'Turn on VS Code\'s diffEditor.codeLens: "Accept hunk" / "Reject hunk" above each hunk in the diff editor',
          variant: 'secondary',
          onClick: () => void this.o.showHunkButtons().then(() => show.remove()),
        });
        row.append(show);
      }
      actionsSlot.append(row, reason);
      return card;
    }
    row.append(
      button({ label: 'Approve', icon: 'check', name: `Approve ${KIND[a.kind].toLowerCase()}: ${a.title}`.slice(0, 200), onClick: () => answer(true) }),
      button({
        label: 'Deny',
        icon: 'close',
        name: `Deny ${KIND[a.kind].toLowerCase()}: ${a.title}`.slice(0, 200),
        variant: 'secondary',
        onClick: () => answer(false),
      }),
    );
    actionsSlot.append(row);
    if (a.allowPatterns?.length) actionsSlot.append(this.alwaysRow(a, card));
    return card;
  }

  /** "Allow Always": this exact command or its prefix, for this workspace or every one (patchpilot.policy.allow). */
  private alwaysRow(a: PendingApproval, card: HTMLElement): HTMLElement {
    const patterns = a.allowPatterns!;
    let pattern = patterns[0]!;
    let scope: 'workspace' | 'user' = 'workspace';
    const what = select({
      name: 'Choose what to always allow',
      options: patterns.map((p, i) => ({ value: p, label: i === 0 ? `Exactly: ${p}` : `Starting with: ${p.replace(/ \*$/, '')}` })),
      value: pattern,
      onChange: (v) => (pattern = v),
    });
    const where = select<'workspace' | 'user'>({
      name: 'Choose where to always allow it',
      options: [
        { value: 'workspace', label: 'In this workspace' },
        { value: 'user', label: 'In every workspace' },
      ],
      value: scope,
      onChange: (v) => (scope = v),
    });
    const allow = button({
      label: 'Allow Always',
      name: 'Allow Always',
      title: 'Approve now and add the pattern to patchpilot.policy.allow (removable in Settings; deny rules and protected paths still apply)',
      variant: 'secondary',
      onClick: () => {
        if (card.contains(document.activeElement)) this.answeredHere.add(a.id);
        const buttons = [...card.querySelectorAll('button')];
        buttons.forEach((b) => setEnabled(b, false));
        const back = () => buttons.forEach((b) => setEnabled(b, true));
        this.o
          .alwaysAllow({ id: a.id, pattern, scope })
          .then((r) => (r.ok ? undefined : back()))
          .catch(back);
      },
    });
    const row = el('div', 'pp-actions pp-always');
    row.append(what, where, allow);
    return row;
  }
}

/** The review's hunks and the decision on each so far, as a list a screen reader reads item by item. */
function hunkList(a: PendingApproval): HTMLElement {
  const list = el('ul', 'pp-hunk-list');
  list.setAttribute('aria-label', `Hunks of the ${a.title}`);
  for (const h of a.hunkStates ?? []) {
    const item = el('li');
    const word = h.state === 'undecided' ? 'undecided' : h.state;
    item.append(
      el('span', undefined, `${h.label}:`),
      el('span', `pp-hunk-state-${h.state}`, `${h.state === 'accepted' ? '✓' : h.state === 'rejected' ? '✗' : '•'} ${word}`),
    );
    if (h.reason) item.append(el('span', 'pp-approval-reason', `(${h.reason})`));
    list.append(item);
  }
  return list;
}

/**
 * What the approval is about in full. A patch's text is also in the diff editor, so here it is folded
 * (a summary names its size) and the card stays short beside the conversation; anything else is shown.
 */
function approvalDetail(a: PendingApproval): HTMLElement {
  const text = a.detail!.length > 6000 ? `${a.detail!.slice(0, 6000)}\n...` : a.detail!;
  const pre = el('pre', 'pp-approval-detail', text);
  if (!a.review) return pre;
  const details = document.createElement('details');
  details.className = 'pp-approval-fold';
  const lines = a.detail!.split('\n').length;
  details.append(el('summary', undefined, `Patch text (${lines} line${lines === 1 ? '' : 's'})`), pre);
  return details;
}
