/** Host-side checks of what the history panel sends (the panel draws model text: it is untrusted). */
import type { HistoryToHost, HistoryToHostMessage } from './history';
import { num, shapeValidator, str, type Field } from './shapeValidator';
import { RESTORE_SHAPE, RESTORE_APPLY_SHAPE, RESTORE_DIFF_SHAPE } from './restoreValidate';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
/** 2^53: any time in ms. */
const TIME = num(0, Number.MAX_SAFE_INTEGER, { optional: true });
const TYPES: readonly string[] = ['runs', 'observations', 'patches', 'tests'];

/** Every request's payload; a type added to HistoryToHost without a shape here is a type error. */
const SHAPES: { [K in keyof HistoryToHost]: Record<keyof HistoryToHost[K][0], Field> } = {
  'history/ready': {},
  'history/runs': { offset: num(0, 10_000_000, { integer: true }), limit: num(1, 1_000, { integer: true }), since: TIME, until: TIME },
  'history/run': { runId: str(64, ID) },
  'history/usage': { days: num(1, 366, { integer: true }) },
  'history/search': { query: str(1_000), since: TIME, until: TIME, types: { type: 'enumList', values: TYPES, max: 4 }, prefix: { type: 'boolean' } },
  'history/openPatch': { runId: str(64, ID), patchId: str(64, ID) },
  'history/applyAgain': { runId: str(64, ID), patchId: str(64, ID) },
  'history/revert': { runId: str(64, ID), patchId: str(64, ID) },
  'history/export': { runId: str(64, ID), format: { type: 'enum', values: ['json', 'markdown'] } },
  'history/delete': { runId: str(64, ID) },
  'history/continueInChat': { runId: str(64, ID) },
  'history/applyRetention': {},
  'history/openSettings': {},
  'history/openLink': { url: str(2_048) },
  'history/restorePreview': RESTORE_SHAPE,
  'history/restoreDiff': RESTORE_DIFF_SHAPE,
  'history/restoreApply': RESTORE_APPLY_SHAPE,
};

export const MAX_HISTORY_MESSAGE_CHARS = 16 * 1024;

export const validateHistoryToHost = shapeValidator<HistoryToHostMessage>(SHAPES, MAX_HISTORY_MESSAGE_CHARS);
