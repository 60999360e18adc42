/**
 * Host-side checks of what a webview sends, for every webview protocol (chat, history): a message
 * passes only when it is a small request envelope of a known type whose payload has exactly the
 * declared fields, each of the declared kind. Zero imports.
 */

export type Field =
  | { type: 'string'; max: number; pattern?: RegExp; optional?: boolean }
  | { type: 'boolean' }
  | { type: 'enum'; values: readonly string[] }
  | { type: 'number'; min: number; max: number; integer?: boolean; optional?: boolean }
  | { type: 'enumList'; values: readonly string[]; max: number }
  /** A form's values by field key: strings, booleans or lists of strings (elicitation answers). */
  | { type: 'formValues'; maxKeys: number; maxChars: number; optional?: boolean };

export const str = (max: number, pattern?: RegExp, optional?: boolean): Field => ({ type: 'string', max, pattern, optional });
export const num = (min: number, max: number, o: { integer?: boolean; optional?: boolean } = {}): Field => ({ type: 'number', min, max, ...o });

export type Shapes<Map> = { [K in keyof Map]: Record<string, Field> };

export type Checked<Message> = { ok: true; message: Message } | { ok: false; reason: string };

/** A validator for one protocol: `shapes` names every request type and its payload's fields. */
export function shapeValidator<Message>(shapes: Record<string, Record<string, Field>>, maxChars: number): (raw: unknown) => Checked<Message> {
  return (raw) => {
    if (exceeds(raw, maxChars)) return { ok: false, reason: `over ${maxChars} characters` };
    if (!isPlainObject(raw)) return { ok: false, reason: 'not an object' };
    if (Object.keys(raw).some((k) => !['kind', 'id', 'type', 'payload'].includes(k))) return { ok: false, reason: 'unexpected envelope keys' };
    if (raw.kind !== 'request') return { ok: false, reason: 'not a request' };
    if (typeof raw.id !== 'number' || !Number.isSafeInteger(raw.id) || raw.id < 0) return { ok: false, reason: 'bad id' };
    if (typeof raw.type !== 'string' || !Object.prototype.hasOwnProperty.call(shapes, raw.type))
      return { ok: false, reason: `unknown type ${JSON.stringify(String(raw.type).slice(0, 40))}` };
    const type = raw.type;
    const payload = raw.payload;
    if (!isPlainObject(payload)) return { ok: false, reason: `${type}: payload is not an object` };
    const shape = shapes[type]!;
    for (const k of Object.keys(payload))
      if (!Object.prototype.hasOwnProperty.call(shape, k)) return { ok: false, reason: `${type}: unexpected field ${JSON.stringify(k.slice(0, 40))}` };
    for (const [name, field] of Object.entries(shape)) {
      const problem = checkField(payload[name], field);
      if (problem) return { ok: false, reason: `${type}.${name}: ${problem}` };
    }
    return { ok: true, message: { kind: 'request', id: raw.id, type, payload } as Message };
  };
}

function checkField(value: unknown, field: Field): string | undefined {
  switch (field.type) {
    case 'string':
      if (value === undefined && field.optional) return undefined;
      if (typeof value !== 'string') return 'expected a string';
      if (value.length > field.max) return `longer than ${field.max}`;
      if (field.pattern && !field.pattern.test(value)) return 'bad format';
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false';
    case 'enum':
      return typeof value === 'string' && field.values.includes(value) ? undefined : `expected one of ${field.values.join(', ')}`;
    case 'number':
      if (value === undefined && field.optional) return undefined;
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'expected a number';
      if (field.integer && !Number.isInteger(value)) return 'expected a whole number';
      return value < field.min || value > field.max ? `expected ${field.min} to ${field.max}` : undefined;
    case 'enumList':
      if (!Array.isArray(value) || value.length > field.max) return `expected a list of at most ${field.max}`;
      return value.every((v) => typeof v === 'string' && field.values.includes(v)) ? undefined : `expected items of ${field.values.join(', ')}`;
    case 'formValues':
      return formValuesProblem(value, field);
  }
}

function formValuesProblem(value: unknown, field: Extract<Field, { type: 'formValues' }>): string | undefined {
  if (value === undefined && field.optional) return undefined;
  if (!isPlainObject(value)) return 'expected an object of values';
  const entries = Object.entries(value);
  if (entries.length > field.maxKeys) return `more than ${field.maxKeys} values`;
  const short = (v: unknown) => typeof v === 'string' && v.length <= field.maxChars;
  for (const [k, v] of entries) {
    if (k.length > 200) return 'a key is too long';
    const ok = typeof v === 'boolean' || short(v) || (Array.isArray(v) && v.length <= 100 && v.every(short));
    if (!ok) return `${JSON.stringify(k.slice(0, 40))}: expected text, true/false or a list of texts`;
  }
  return undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Whether a JSON-like value is bigger than `max` characters, without serialising a huge one. */
function exceeds(value: unknown, max: number): boolean {
  let budget = max;
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length) {
    const v = stack.pop();
    if (++seen > 10_000) return true;
    if (typeof v === 'string') budget -= v.length + 2;
    else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
        budget -= k.length + 4;
        stack.push(child);
      }
    } else budget -= 8;
    if (budget < 0) return true;
  }
  return false;
}
