/**
 * "Restore to Here" in a webview (the chat and the history panel draw the same thing): a button per
 * restore point; clicking it shows the preview (the files that would change, each with its diff in
 * the native diff editor, and the ones that block it) before anything is written; "Restore N files"
 * (or "Restore the rest") confirms. Disabled, with the reason, while a run works.
 */
import type { RestoreOutcome, RestorePreview, RestoreRequest } from '../../src/protocol/restore';
import { restoreActionName } from '../../src/protocol/restore';
import { button, el } from './components';
import './restore.css';

export interface RestoreHost {
  preview(request: RestoreRequest): Promise<RestorePreview>;
  diff(request: RestoreRequest, path: string): Promise<{ ok: boolean; message: string }>;
  apply(request: RestoreRequest, restoreRest: boolean): Promise<RestoreOutcome>;
}

const RUNNING_TITLE = 'Unavailable while a run works: restore when it has ended.';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export class RestoreControls {
  private readonly buttons = new Set<HTMLButtonElement>();
  private running = false;

  constructor(private readonly host: RestoreHost) {}

  /** Buttons of a view redrawn from scratch are forgotten (the old ones left the page). */
  clear(): void {
    this.buttons.clear();
  }

  setRunning(running: boolean): void {
    this.running = running;
    // Buttons are put in the page in the task that makes them: one not in it now has left it.
    for (const b of this.buttons)
      if (b.isConnected) this.setState(b);
      else this.buttons.delete(b);
  }

  private setState(b: HTMLButtonElement): void {
    b.disabled = this.running;
    b.title = this.running ? RUNNING_TITLE : (b.dataset.title ?? '');
  }

  private track(b: HTMLButtonElement, title: string): HTMLButtonElement {
    b.dataset.title = title;
    this.buttons.add(b);
    this.setState(b);
    return b;
  }

  /** A "Restore to before ..." button (`name`: its accessible name) with the place its preview opens in. */
  restoreButton(request: RestoreRequest, o: { label: string; name: string; title: string }): HTMLElement {
    const row = el('div', 'pp-restore');
    const card = el('div', 'pp-restore-card');
    card.hidden = true;
    const b = button({ label: o.label, name: o.name, icon: 'discard', variant: 'secondary', onClick: () => void this.openPreview(request, o.name, card) });
    row.append(this.track(b, o.title), card);
    return row;
  }

  /** "Redo restore to before step N": no preview (it puts back what the run had left); a blocking file is named, with "Redo the rest". */
  redoButton(request: RestoreRequest): HTMLElement {
    const row = el('div', 'pp-restore');
    const status = el('div', 'pp-restore-status');
    status.setAttribute('role', 'status');
    const name = restoreActionName(request);
    const run = async (rest: boolean) => {
      if (this.running) return;
      const outcome = await this.host.apply(request, rest).catch((err: Error) => failed(err));
      status.replaceChildren(el('span', outcome.ok ? 'pp-ok' : 'pp-error', outcome.message));
      if (outcome.ok)
        row.querySelector('button')?.remove(); // redone: nothing left to redo
      else if (outcome.blocked.length && !rest)
        status.append(
          button({
            label: 'Redo the Rest',
            name: `Redo the rest of the restore to before step ${request.beforeStep}`,
            variant: 'secondary',
            onClick: () => void run(true),
          }),
        );
    };
    const b = button({ label: 'Redo', name, icon: 'redo', variant: 'secondary', onClick: () => void run(false) });
    row.append(this.track(b, 'Put back what the restore undid'), status);
    return row;
  }

  private async openPreview(request: RestoreRequest, name: string, card: HTMLElement): Promise<void> {
    if (this.running) return;
    card.hidden = false;
    card.setAttribute('role', 'group');
    card.setAttribute('aria-label', `Preview: ${name}`);
    card.replaceChildren(el('div', 'pp-note', 'Looking at the files…'));
    const preview = await this.host.preview(request).catch((err: Error) => ({ ok: false as const, message: err.message }));
    this.drawPreview(request, name, card, preview);
  }

  private drawPreview(request: RestoreRequest, name: string, card: HTMLElement, preview: RestorePreview, note?: string): void {
    const close = button({ label: 'Cancel', name: `Cancel: ${name}`, variant: 'secondary', onClick: () => (card.hidden = true) });
    const status = el('div', 'pp-restore-status');
    status.setAttribute('role', 'status');
    if (note) status.append(el('span', 'pp-error', note));
    if (!preview.ok) {
      card.replaceChildren(el('div', 'pp-notice pp-notice-warning', preview.message), close);
      return;
    }
    const { files, blocked } = preview;
    const head = el(
      'div',
      'pp-restore-head',
      files.length
        ? `${name} (undoes step${preview.steps.length === 1 ? '' : 's'} ${preview.steps.join(', ')}): ${plural(files.length, 'file')} would change.`
        : `${name}: nothing to restore.`,
    );
    const list = this.fileList(request, files, status);
    card.replaceChildren(head);
    if (files.length) card.append(list);
    if (blocked.length) card.append(...blockedList(blocked));
    const actions = el('div', 'pp-restore-actions');
    const confirm = async (rest: boolean) => {
      if (this.running) return;
      const outcome = await this.host.apply(request, rest).catch((err: Error) => failed(err));
      if (outcome.ok) {
        card.replaceChildren(el('div', 'pp-ok', outcome.message));
        card.setAttribute('role', 'status');
        return;
      }
      // Nothing was written: draw the preview again as the disk is now, with the reason.
      const again = await this.host.preview(request).catch((err: Error) => ({ ok: false as const, message: err.message }));
      this.drawPreview(request, name, card, again, outcome.message);
    };
    if (files.length && !blocked.length)
      actions.append(
        this.track(
          button({ label: `Restore ${plural(files.length, 'File')}`, name: `Restore ${plural(files.length, 'file')}`, onClick: () => void confirm(false) }),
          '',
        ),
      );
    if (files.length && blocked.length)
      actions.append(
        this.track(
          button({
            label: `Restore the Rest (${plural(files.length, 'File')})`,
            name: `Restore the rest (${plural(files.length, 'file')})`,
            onClick: () => void confirm(true),
          }),
          '',
        ),
      );
    actions.append(close);
    card.append(actions, status);
    (actions.firstElementChild as HTMLElement | null)?.focus();
  }

  /** The files the restore would change, each with its Diff button (a diff that cannot open says why in `status`). */
  private fileList(request: RestoreRequest, files: Extract<RestorePreview, { ok: true }>['files'], status: HTMLElement): HTMLElement {
    const list = el('ul', 'pp-restore-files');
    list.setAttribute('aria-label', 'Files the restore would change');
    for (const f of files) {
      const li = el('li', undefined);
      li.append(el('code', undefined, f.line));
      if (f.diff)
        li.append(
          ' ',
          button({
            label: 'Diff',
            name: `Show diff of ${f.path}`,
            icon: 'diff',
            variant: 'secondary',
            onClick: () => void this.host.diff(request, f.path).then((r) => (r.ok ? undefined : status.replaceChildren(el('span', 'pp-error', r.message)))),
          }),
        );
      list.append(li);
    }
    return list;
  }
}

/** The files that block the restore and why: they stay as they are. */
function blockedList(blocked: Extract<RestorePreview, { ok: true }>['blocked']): HTMLElement[] {
  const head = el(
    'div',
    'pp-restore-blocked-head pp-error',
    `Blocked (${blocked.length === 1 ? 'this file stays' : 'these files stay'} as ${blocked.length === 1 ? 'it is' : 'they are'}):`,
  );
  const bl = el('ul', 'pp-restore-blocked');
  bl.setAttribute('aria-label', 'Files that block the restore');
  for (const b of blocked) bl.append(el('li', undefined, `${b.path}: ${b.reason}`));
  return [head, bl];
}

function failed(err: Error): RestoreOutcome {
  return { ok: false, message: err.message, restored: [], blocked: [] };
}
