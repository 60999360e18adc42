/**
 * MCP elicitation (spec 2025-11-25, form mode) as a form any host can render: the requested schema
 * is a flat object of primitive fields (string, with an optional format; number; integer; boolean;
 * a single-select enum; a multi-select array of enum strings). Each becomes one labelled field;
 * what the user typed is checked and turned into the content the server receives. Zero imports:
 * the chat webview renders these fields, the CLI asks them on the terminal, the host validates
 * what comes back with the same code (test/unit/mcp/elicitationForm.test.ts).
 */

export type ElicitationFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'multiselect';

export interface ElicitationOption {
  value: string;
  label: string;
}

export interface ElicitationField {
  /** The property name the server expects. */
  key: string;
  /** What the user reads: the schema's title, else the property name. */
  label: string;
  description?: string;
  kind: ElicitationFieldKind;
  required: boolean;
  /** The schema's default, as the field's starting value. */
  default?: string | number | boolean | string[];
  /** `email`, `uri`, `date` or `date-time` for text fields. */
  format?: string;
  options?: ElicitationOption[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** An elicitation the host waits for; the chat shows it as a form (or a link question) until answered. */
export type PendingElicitation =
  | { id: string; server: string; mode: 'form'; message: string; fields: ElicitationField[]; unsupported: string[] }
  | { id: string; server: string; mode: 'url'; message: string; url: string };

/** The user's answer, as the spec names it. */
export type ElicitationAnswer = { action: 'accept'; content?: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

export type ElicitationValue = string | number | boolean | string[];

/** What the user entered per field: text from inputs, booleans from checkboxes, lists from multi-selects. */
export type ElicitationInput = Record<string, string | boolean | string[] | undefined>;

const FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/** The fields of a requested schema; properties that are not primitives are listed as unsupported (never silently dropped). */
export function elicitationFields(schema: unknown): { fields: ElicitationField[]; unsupported: string[] } {
  const s = (schema && typeof schema === 'object' ? schema : {}) as { properties?: unknown; required?: unknown };
  const props = s.properties && typeof s.properties === 'object' ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((x): x is string => typeof x === 'string') : []);
  const fields: ElicitationField[] = [];
  const unsupported: string[] = [];
  for (const [key, raw] of Object.entries(props)) {
    const field = fieldOf(key, raw, required.has(key));
    if (field) fields.push(field);
    else unsupported.push(key);
  }
  return { fields, unsupported };
}

function fieldOf(key: string, raw: unknown, required: boolean): ElicitationField | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const p = raw as Record<string, unknown>;
  const base: ElicitationField = {
    key,
    label: typeof p.title === 'string' && p.title.trim() ? p.title.trim() : key,
    kind: 'text',
    required,
    ...(typeof p.description === 'string' && p.description.trim() ? { description: p.description.trim() } : {}),
  };
  const num = (k: string) => (typeof p[k] === 'number' ? { [k]: p[k] as number } : {});
  switch (p.type) {
    case 'string': {
      const options = enumOptions(p);
      if (options) return { ...base, kind: 'select', options, ...(typeof p.default === 'string' ? { default: p.default } : {}) };
      return {
        ...base,
        kind: 'text',
        ...(typeof p.format === 'string' && FORMATS.has(p.format) ? { format: p.format } : {}),
        ...(typeof p.default === 'string' ? { default: p.default } : {}),
        ...num('minLength'),
        ...num('maxLength'),
      };
    }
    case 'number':
    case 'integer':
      return { ...base, kind: p.type, ...(typeof p.default === 'number' ? { default: p.default } : {}), ...num('minimum'), ...num('maximum') };
    case 'boolean':
      return { ...base, kind: 'boolean', ...(typeof p.default === 'boolean' ? { default: p.default } : {}) };
    case 'array': {
      const options = enumOptions((p.items ?? {}) as Record<string, unknown>);
      if (!options) return undefined;
      const def = Array.isArray(p.default) ? p.default.filter((x): x is string => typeof x === 'string') : undefined;
      return { ...base, kind: 'multiselect', options, ...(def ? { default: def } : {}), ...num('minItems'), ...num('maxItems') };
    }
    default:
      return undefined;
  }
}

/** `enum` (+ legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function enumOptions(p: Record<string, unknown>): ElicitationOption[] | undefined {
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.filter((v): v is string => typeof v === 'string').map((v, i) => ({ value: v, label: typeof names[i] === 'string' ? names[i] : v }));
  }
  const list = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined;
  if (!list) return undefined;
  const options = list
    .map((o) => o as { const?: unknown; title?: unknown })
    .filter((o) => typeof o.const === 'string')
    .map((o) => ({ value: o.const as string, label: typeof o.title === 'string' ? o.title : (o.const as string) }));
  return options.length ? options : undefined;
}

/** What the user typed, checked against the fields: the content to send, or a message per field that is wrong. */
export function elicitationContent(
  fields: readonly ElicitationField[],
  input: ElicitationInput,
): { content: Record<string, ElicitationValue> } | { errors: Record<string, string> } {
  const content: Record<string, ElicitationValue> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    let raw = input[f.key];
    const blank = raw === undefined || (typeof raw === 'string' && raw.trim() === '');
    // Left blank: the server's default stands (the form starts with it; the terminal says it in brackets).
    if (blank && f.default !== undefined) raw = f.default as string | boolean | string[];
    const empty = raw === undefined || (typeof raw === 'string' && raw.trim() === '') || (Array.isArray(raw) && raw.length === 0 && f.kind !== 'multiselect');
    if (f.kind === 'boolean') {
      const value = typeof raw === 'boolean' ? raw : typeof raw === 'string' && raw.trim() ? /^(y|yes|true|1|on)$/i.test(raw.trim()) : undefined;
      if (value !== undefined) content[f.key] = value;
      else if (f.required) errors[f.key] = `${f.label} is required`;
      continue;
    }
    if (empty) {
      if (f.required) errors[f.key] = `${f.label} is required`;
      continue;
    }
    const problem = check(f, typeof raw === 'number' ? String(raw) : raw!, (v) => (content[f.key] = v));
    if (problem) errors[f.key] = `${f.label}: ${problem}`;
  }
  return Object.keys(errors).length ? { errors } : { content };
}

function check(f: ElicitationField, raw: string | boolean | string[], set: (v: ElicitationValue) => void): string | undefined {
  switch (f.kind) {
    case 'number':
    case 'integer': {
      const n = Number(String(raw).trim());
      if (!Number.isFinite(n)) return 'enter a number';
      if (f.kind === 'integer' && !Number.isInteger(n)) return 'enter a whole number';
      if (f.minimum !== undefined && n < f.minimum) return `at least ${f.minimum}`;
      if (f.maximum !== undefined && n > f.maximum) return `at most ${f.maximum}`;
      set(n);
      return undefined;
    }
    case 'select': {
      const v = String(raw).trim();
      const hit = f.options?.find((o) => o.value === v || o.label.toLowerCase() === v.toLowerCase());
      if (!hit) return `one of ${(f.options ?? []).map((o) => o.value).join(', ')}`;
      set(hit.value);
      return undefined;
    }
    case 'multiselect': {
      const list = Array.isArray(raw)
        ? raw
        : String(raw)
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean);
      const values: string[] = [];
      for (const v of list) {
        const hit = f.options?.find((o) => o.value === v || o.label.toLowerCase() === v.toLowerCase());
        if (!hit) return `"${v}" is not one of ${(f.options ?? []).map((o) => o.value).join(', ')}`;
        values.push(hit.value);
      }
      if (f.minItems !== undefined && values.length < f.minItems) return `choose at least ${f.minItems}`;
      if (f.maxItems !== undefined && values.length > f.maxItems) return `choose at most ${f.maxItems}`;
      set(values);
      return undefined;
    }
    default: {
      const v = String(raw);
      if (f.minLength !== undefined && v.length < f.minLength) return `at least ${f.minLength} characters`;
      if (f.maxLength !== undefined && v.length > f.maxLength) return `at most ${f.maxLength} characters`;
      const bad = formatProblem(f.format, v.trim());
      if (bad) return bad;
      set(v);
      return undefined;
    }
  }
}

function formatProblem(format: string | undefined, v: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? undefined : 'enter an email address';
    case 'uri':
      return /^[a-z][a-z0-9+.-]*:\S+$/i.test(v) ? undefined : 'enter a URI (such as https://example.com)';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : 'enter a date as YYYY-MM-DD';
    case 'date-time':
      return !Number.isNaN(Date.parse(v)) && /^\d{4}-\d{2}-\d{2}T/.test(v) ? undefined : 'enter a date and time as YYYY-MM-DDTHH:MM:SSZ';
    default:
      return undefined;
  }
}
