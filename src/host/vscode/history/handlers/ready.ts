import type { HistoryHandler } from './types';

/** The panel (re)loaded: where the history is, what went wrong opening it, the retention. */
export const ready: HistoryHandler<'history/ready'> = (_payload, { service }) => service.status();
