/**
 * An MCP server's form (elicitation, form mode) as a card: the server's message, one labelled input
 * per field (text, number, a checkbox for true/false, a select for a choice, a group of checkboxes
 * for several), required ones marked, defaults filled. "Accept and send" checks the values with the
 * shared form model (src/protocol/elicitationForm.ts, the host checks again) and shows what is wrong
 * next to its field (aria-invalid, aria-describedby); Decline / Cancel answer without values.
 */
import type { PendingApproval } from '../../src/protocol/chat';
import { elicitationContent, type ElicitationField, type ElicitationInput } from '../../src/protocol/elicitationForm';
import { button, checkbox, el, input, select, setEnabled } from '../shared/components';

export interface ElicitationCardAnswer {
  id: string;
  action: 'accept' | 'decline' | 'cancel';
  values?: ElicitationInput;
}

/** Sends the answer; `errors` (by field key) from the host's check are shown on the card. */
export type SendElicitationAnswer = (a: ElicitationCardAnswer) => Promise<{ ok: boolean; errors?: Record<string, string> }>;

interface FieldView {
  root: HTMLElement;
  field: ElicitationField;
  value(): string | boolean | string[] | undefined;
  /** The control that carries aria-invalid and takes the focus when wrong. */
  control: HTMLElement;
  error: HTMLElement;
}

/** What the user typed so far, kept in the view's saved state so a hidden or reloaded view shows it again. */
export interface TypedValues {
  saved: string | undefined;
  save(json: string): void;
}

export function elicitationCard(a: PendingApproval, send: SendElicitationAnswer, answeredHere: () => void, typed: TypedValues): HTMLElement {
  const form = a.form!;
  let restored: ElicitationInput = {};
  try {
    const parsed: unknown = typed.saved ? JSON.parse(typed.saved) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) restored = parsed as ElicitationInput;
  } catch {
    // Not ours (an older state): start from the defaults.
  }
  const card = el('section', 'pp-approval pp-elicitation');
  card.setAttribute('aria-label', `MCP server "${form.server}" asks for input`);
  card.append(el('div', 'pp-approval-kind', 'MCP server form'), el('div', 'pp-approval-title', `MCP server "${form.server}" asks`));
  card.append(el('div', 'pp-approval-reason', form.message));
  if (form.unsupported.length) card.append(el('div', 'pp-field-note', `Not asked here (not supported): ${form.unsupported.join(', ')}`));
  const views = form.fields.map((f, i) => fieldView(f, `pp-el-${a.id}-${i}`, restored[f.key]));
  for (const v of views) card.append(v.root);
  const current = (): ElicitationInput => Object.fromEntries(views.map((v) => [v.field.key, v.value()]).filter(([, x]) => x !== undefined));
  const persist = () => typed.save(JSON.stringify(current()));
  card.addEventListener('input', persist);
  card.addEventListener('change', persist);

  const showErrors = (errors: Record<string, string>) => {
    let first: HTMLElement | undefined;
    for (const v of views) {
      const message = errors[v.field.key];
      v.error.textContent = message ?? '';
      v.error.hidden = !message;
      if (message) v.control.setAttribute('aria-invalid', 'true');
      else v.control.removeAttribute('aria-invalid');
      if (message) first ??= v.control;
    }
    first?.focus();
  };
  const answer = (action: ElicitationCardAnswer['action']) => {
    let values: ElicitationInput | undefined;
    if (action === 'accept') {
      const entered = current();
      const checked = elicitationContent(form.fields, entered);
      if ('errors' in checked) return showErrors(checked.errors);
      showErrors({});
      values = entered;
    }
    if (card.contains(document.activeElement)) answeredHere();
    const buttons = [...card.querySelectorAll('button')];
    buttons.forEach((b) => setEnabled(b, false));
    const back = () => buttons.forEach((b) => setEnabled(b, true));
    send({ id: a.id, action, ...(values ? { values } : {}) })
      .then((r) => {
        if (r.ok) return;
        back();
        if (r.errors) showErrors(r.errors);
      })
      .catch(back);
  };
  // Enter in a one-line input sends the form, as in any form.
  card.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && e.target instanceof HTMLInputElement && !e.isComposing) {
      e.preventDefault();
      answer('accept');
    }
  });
  const row = el('div', 'pp-actions');
  row.append(
    button({ label: 'Accept and send', icon: 'check', name: `Accept and send the form to "${form.server}"`, onClick: () => answer('accept') }),
    button({ label: 'Decline', icon: 'close', name: `Decline the request of "${form.server}"`, variant: 'secondary', onClick: () => answer('decline') }),
    button({ label: 'Cancel', name: `Cancel the request of "${form.server}"`, variant: 'secondary', onClick: () => answer('cancel') }),
  );
  card.append(row);
  return card;
}

/** `restored`: what the user typed before the view was rebuilt; else the server's default. */
function fieldView(f: ElicitationField, id: string, restored: ElicitationInput[string]): FieldView {
  const wrap = el('div', 'pp-field');
  const name = `${f.label}${f.required ? ' (required)' : ''}`;
  const error = el('div', 'pp-field-error');
  error.id = `${id}-error`;
  error.hidden = true;
  const description = f.description ? el('div', 'pp-field-note', f.description) : undefined;
  if (description) description.id = `${id}-description`;
  const describe = (control: HTMLElement) => {
    control.setAttribute('aria-describedby', [description?.id, error.id].filter(Boolean).join(' '));
    if (f.required) control.setAttribute('aria-required', 'true');
  };
  let view: FieldView;
  if (f.kind === 'boolean') {
    let checked = typeof restored === 'boolean' ? restored : f.default === true;
    const box = checkbox({ label: name, checked, onChange: (c) => (checked = c) });
    view = { root: wrap, field: f, control: box.root, error, value: () => checked };
    wrap.append(box.root);
  } else if (f.kind === 'multiselect') {
    const group = el('div', 'pp-field-group');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', name);
    group.tabIndex = -1;
    const picked = new Set(Array.isArray(restored) ? restored : Array.isArray(f.default) ? f.default : []);
    for (const o of f.options ?? [])
      group.append(checkbox({ label: o.label, checked: picked.has(o.value), onChange: (c) => (c ? picked.add(o.value) : picked.delete(o.value)) }).root);
    wrap.append(el('div', 'pp-field-label', name), group);
    view = { root: wrap, field: f, control: group, error, value: () => [...picked] };
  } else {
    const label = el('label', 'pp-field-label', name);
    label.htmlFor = id;
    let control: HTMLInputElement | HTMLSelectElement;
    if (f.kind === 'select') {
      const options = [...(f.default === undefined ? [{ value: '', label: f.required ? 'Choose one' : 'None' }] : []), ...(f.options ?? [])];
      const start = typeof restored === 'string' ? restored : typeof f.default === 'string' ? f.default : '';
      control = select({ name, options, value: start, onChange: () => undefined });
    } else {
      const type = f.kind === 'number' || f.kind === 'integer' ? 'number' : f.format === 'date' ? 'date' : 'text';
      const start = typeof restored === 'string' ? restored : f.default === undefined ? '' : String(f.default);
      control = input({ name, type, value: start, onInput: () => undefined });
      if (f.format === 'email' || f.format === 'uri') control.placeholder = f.format === 'email' ? 'name@example.com' : 'https://';
    }
    control.id = id;
    wrap.append(label, control);
    view = { root: wrap, field: f, control, error, value: () => (control.value === '' ? undefined : control.value) };
  }
  describe(view.control);
  if (description) wrap.append(description);
  wrap.append(error);
  return view;
}
