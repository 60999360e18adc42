/**
 * Host-side checks of what a webview sends: the webview runs model text and is treated as
 * untrusted. A message passes only when its type is known, its shape is exactly the declared one
 * (no extra keys) and it is small. Zero imports but the protocol's own types.
 */
import type { ToHost, ToHostMessage, ToHostType } from './chat';
import { shapeValidator, str, type Checked, type Field } from './shapeValidator';
import { RESTORE_SHAPE, RESTORE_APPLY_SHAPE, RESTORE_DIFF_SHAPE } from './restoreValidate';

/** Whole message, as JSON text; a chat message is far smaller. */
export const MAX_MESSAGE_CHARS = 256 * 1024;
/** One chat message's text. */
export const MAX_TEXT_CHARS = 100_000;

/** The payload shape of every request; adding a type to ToHost without a shape here is a type error. */
const SHAPES: { [K in ToHostType]: Record<keyof ToHost[K][0], Field> } = {
  'chat/ready': {},
  'chat/send': { text: str(MAX_TEXT_CHARS) },
  'chat/stop': {},
  'chat/new': {},
  'approval/answer': { id: str(64, /^[A-Za-z0-9_-]+$/), approved: { type: 'boolean' }, feedback: str(4_000, undefined, true) },
  'approval/alwaysAllow': { id: str(64, /^[A-Za-z0-9_-]+$/), pattern: str(1_000), scope: { type: 'enum', values: ['workspace', 'user'] } },
  'elicitation/answer': {
    id: str(64, /^[A-Za-z0-9_-]+$/),
    action: { type: 'enum', values: ['accept', 'decline', 'cancel'] },
    values: { type: 'formValues', maxKeys: 100, maxChars: 10_000, optional: true },
  },
  'chat/home': {},
  'chat/openConversation': { runId: str(64, /^[A-Za-z0-9_-]+$/) },
  'link/open': { url: str(2_048) },
  'config/open': { what: { type: 'enum', values: ['apiKey', 'model', 'provider', 'settings', 'demo', 'stopDemo', 'hunkButtons', 'sample'] } },
  'tests/answer': { answer: { type: 'enum', values: ['use', 'not-now', 'never'] } },
  'tests/showOutput': { command: str(4_000) },
  'patch/undo': { key: str(64, /^[0-9a-f]+$/) },
  'patch/revert': { runId: str(64, /^[A-Za-z0-9_-]+$/), patchId: str(64, /^[A-Za-z0-9_-]+$/) },
  'restore/preview': RESTORE_SHAPE,
  'restore/diff': RESTORE_DIFF_SHAPE,
  'restore/apply': RESTORE_APPLY_SHAPE,
};

export type Validated = Checked<ToHostMessage>;

export const validateToHost = shapeValidator<ToHostMessage>(SHAPES, MAX_MESSAGE_CHARS);
