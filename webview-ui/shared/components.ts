/**
 * The ONE module that makes the webviews' controls (chat and history). Everything else asks here for a button, a text
 * box, a collapsible item or a banner, so changing the component library (the deprecated
 * @vscode/webview-ui-toolkit, @vscode-elements/elements, or these native elements) is a change to
 * this file only. Today: native elements styled with VS Code's theme variables (styles.css), which
 * keep their built-in roles, keyboard handling and accessible names in every theme, and need no
 * relaxed CSP for constructed stylesheets.
 */

export type ButtonVariant = 'primary' | 'secondary' | 'icon';

export interface ButtonOptions {
  /** Visible text. */
  label: string;
  /** Accessible name; starts with the verb ("Approve", "Deny", "Send"). Defaults to the label. */
  name?: string;
  variant?: ButtonVariant;
  title?: string;
  /** A codicon name ("send", "debug-stop") shown before the label; decorative, hidden from screen readers. */
  icon?: string;
  onClick(): void;
}

export function button(o: ButtonOptions): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `pp-button pp-button-${o.variant ?? 'primary'}`;
  if (o.icon) b.append(icon(o.icon));
  b.append(o.label);
  if (o.name && o.name !== o.label) b.setAttribute('aria-label', o.name);
  if (o.title) b.title = o.title;
  b.addEventListener('click', () => o.onClick());
  return b;
}

/** A codicon (decorative: the text next to it carries the meaning). */
export function icon(name: string): HTMLElement {
  const i = document.createElement('span');
  i.className = `codicon codicon-${name.replace(/[^a-z0-9-]/g, '')}`;
  i.setAttribute('aria-hidden', 'true');
  return i;
}

export function setEnabled(b: HTMLButtonElement, enabled: boolean): void {
  b.disabled = !enabled;
}

export interface TextBoxOptions {
  /** Accessible name ("Message PatchPilot"). */
  name: string;
  placeholder?: string;
  /** Enter without Shift. */
  onSubmit(): void;
}

export function messageBox(o: TextBoxOptions): HTMLTextAreaElement {
  const t = document.createElement('textarea');
  t.className = 'pp-textarea';
  t.rows = 3;
  t.setAttribute('aria-label', o.name);
  if (o.placeholder) t.placeholder = o.placeholder;
  t.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      o.onSubmit();
    }
  });
  return t;
}

/** A one-line text input with an accessible name. */
export function textField(o: { name: string; placeholder?: string }): HTMLInputElement {
  const t = document.createElement('input');
  t.type = 'text';
  t.className = 'pp-textfield';
  t.setAttribute('aria-label', o.name);
  if (o.placeholder) t.placeholder = o.placeholder;
  return t;
}

/** A collapsible item (a tool call and its result). */
export function collapsible(summary: Node[], open = false): { root: HTMLDetailsElement; body: HTMLElement } {
  const root = document.createElement('details');
  root.className = 'pp-collapsible';
  root.open = open;
  const s = document.createElement('summary');
  s.append(...summary);
  const body = document.createElement('div');
  body.className = 'pp-collapsible-body';
  root.append(s, body);
  return { root, body };
}

export function badge(text: string, tone: 'ok' | 'error' | 'info' = 'info'): HTMLElement {
  const b = document.createElement('span');
  b.className = `pp-badge pp-badge-${tone}`;
  b.textContent = text;
  return b;
}

export function banner(text: string, level: 'info' | 'warning' | 'error', actions: HTMLElement[] = []): HTMLElement {
  const d = document.createElement('div');
  d.className = `pp-banner pp-banner-${level}`;
  d.setAttribute('role', level === 'error' ? 'alert' : 'status');
  const p = document.createElement('p');
  p.textContent = text;
  d.append(p);
  if (actions.length) {
    const row = document.createElement('div');
    row.className = 'pp-actions';
    row.append(...actions);
    d.append(row);
  }
  return d;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

export interface InputOptions {
  /** Accessible name ("Search history"). */
  name: string;
  type?: 'search' | 'date' | 'text';
  placeholder?: string;
  value?: string;
  onInput(value: string): void;
}

/** A one-line input (the history's search box, the dates of a time range). */
export function input(o: InputOptions): HTMLInputElement {
  const i = document.createElement('input');
  i.type = o.type ?? 'text';
  i.className = 'pp-input';
  i.setAttribute('aria-label', o.name);
  if (o.placeholder) i.placeholder = o.placeholder;
  if (o.value) i.value = o.value;
  i.spellcheck = false;
  i.addEventListener('input', () => o.onInput(i.value));
  return i;
}

export interface SelectOptions<V extends string> {
  name: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  value: V;
  onChange(value: V): void;
}

export function select<V extends string>(o: SelectOptions<V>): HTMLSelectElement {
  const s = document.createElement('select');
  s.className = 'pp-select';
  s.setAttribute('aria-label', o.name);
  for (const opt of o.options) {
    const e = document.createElement('option');
    e.value = opt.value;
    e.textContent = opt.label;
    s.append(e);
  }
  s.value = o.value;
  s.addEventListener('change', () => o.onChange(s.value as V));
  return s;
}

/** A labelled checkbox; the label text is its accessible name. */
export function checkbox(o: { label: string; checked: boolean; onChange(checked: boolean): void }): { root: HTMLLabelElement; box: HTMLInputElement } {
  const root = document.createElement('label');
  root.className = 'pp-check';
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.checked = o.checked;
  box.addEventListener('change', () => o.onChange(box.checked));
  root.append(box, document.createTextNode(` ${o.label}`));
  return { root, box };
}
