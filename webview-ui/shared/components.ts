/**
 * The ONE module that makes the webviews' controls (chat and history). Everything else asks here for a button, a text
 * box, a collapsible item or a banner, so changing the component library (the deprecated
 * @vscode/webview-ui-toolkit, its successor @vscode-elements/elements, or native elements) is a change to
 * this file only. Today: the toolkit's badge and checkbox; every other control is a native element styled with VS Code's
 * theme variables (styles.css), kept where the toolkit's element fails a UI test (see webview-ui/README.md).
 * The toolkit's FAST elements style themselves through constructed stylesheets (adoptedStyleSheets), which the
 * CSP's style-src does not govern, so the webviews keep their CSP without 'unsafe-inline'.
 */
import { provideVSCodeDesignSystem, vsCodeBadge, vsCodeCheckbox } from '@vscode/webview-ui-toolkit';

// Registered once per webview, on first import: the custom elements exist before any control is built.
provideVSCodeDesignSystem().register(vsCodeBadge(), vsCodeCheckbox());

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

/** A status word ("running", "failed", "exit 1"): the toolkit's badge, its tone carried by the host element (styles.css). */
export function badge(text: string, tone: 'ok' | 'error' | 'info' = 'info'): HTMLElement {
  const b = document.createElement('vscode-badge');
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
  type?: 'search' | 'date' | 'text' | 'number';
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

/**
 * A labelled checkbox: the toolkit's checkbox (role checkbox on the element itself, Space toggles it), its
 * label text the accessible name.
 */
export function checkbox(o: { label: string; checked: boolean; onChange(checked: boolean): void }): { root: HTMLElement } {
  const root = document.createElement('vscode-checkbox') as HTMLElement & { checked: boolean };
  root.className = 'pp-check';
  root.checked = o.checked;
  root.addEventListener('change', () => {
    // FAST writes aria-checked on its next update batch; write it now so that what a screen reader (and
    // history-panel's check()/uncheck() right after the click) reads is the state the click produced.
    root.setAttribute('aria-checked', String(root.checked));
    o.onChange(root.checked);
  });
  root.append(o.label);
  return { root };
}
