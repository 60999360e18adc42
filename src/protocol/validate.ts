/**
 * Host-side checks of what a webview sends: the webview runs model text and is treated as
 * untrusted. A message passes only when its type is known, its shape is exactly the declared one
 * (no extra keys) and it is small. Zero imports but the protocol's own types.
 */
import type { ToHost, ToHostMessage, ToHostType } from './chat';

/** Whole message, as JSON text; a chat message is far smaller. */
export const MAX_MESSAGE_CHARS = 256 * 1024;
/** One chat message's text. */
export const MAX_TEXT_CHARS = 100_000;

type Field = { type: 'string'; max: number; pattern?: RegExp; optional?: boolean } | { type: 'boolean' } | { type: 'enum'; values: readonly string[] };

const str = (max: number, pattern?: RegExp, optional?: boolean): Field => ({ type: 'string', max, pattern, optional });

/** The payload shape of every request; adding a type to ToHost without a shape here is a type error. */
const SHAPES: { [K in ToHostType]: Record<keyof ToHost[K][0], Field> } = {
  'chat/ready': {},
  'chat/send': { text: str(MAX_TEXT_CHARS) },
  'chat/stop': {},
  'chat/new': {},
  'approval/answer': { id: str(64, /^[A-Za-z0-9_-]+$/), approved: { type: 'boolean' }, feedback: str(4_000, undefined, true) },
  'link/open': { url: str(2_048) },
  'config/open': { what: { type: 'enum', values: ['apiKey', 'model', 'settings', 'demo', 'stopDemo'] } },
};

export type Validated = { ok: true; message: ToHostMessage } | { ok: false; reason: string };

export function validateToHost(raw: unknown): Validated {
  if (exceeds(raw, MAX_MESSAGE_CHARS)) return { ok: false, reason: `over ${MAX_MESSAGE_CHARS} characters` };
  if (!isPlainObject(raw)) return { ok: false, reason: 'not an object' };
  const keys = Object.keys(raw);
  if (keys.some((k) => !['kind', 'id', 'type', 'payload'].includes(k))) return { ok: false, reason: 'unexpected envelope keys' };
  if (raw.kind !== 'request') return { ok: false, reason: 'not a request' };
  if (typeof raw.id !== 'number' || !Number.isSafeInteger(raw.id) || raw.id < 0) return { ok: false, reason: 'bad id' };
  if (typeof raw.type !== 'string' || !Object.prototype.hasOwnProperty.call(SHAPES, raw.type)) return { ok: false, reason: `unknown type ${JSON.stringify(String(raw.type).slice(0, 40))}` };
  const type = raw.type as ToHostType;
  const payload = raw.payload;
  if (!isPlainObject(payload)) return { ok: false, reason: `${type}: payload is not an object` };
  const shape = SHAPES[type] as Record<string, Field>;
  for (const k of Object.keys(payload)) if (!Object.prototype.hasOwnProperty.call(shape, k)) return { ok: false, reason: `${type}: unexpected field ${JSON.stringify(k.slice(0, 40))}` };
  for (const [name, field] of Object.entries(shape)) {
    const problem = checkField(payload[name], field);
    if (problem) return { ok: false, reason: `${type}.${name}: ${problem}` };
  }
  return { ok: true, message: { kind: 'request', id: raw.id, type, payload } as ToHostMessage };
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
  }
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
