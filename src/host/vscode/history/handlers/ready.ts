import type { HistoryHandler } from './types';

/** The panel (re)loaded: where the history is, what went wrong opening it, the retention. */
export const ready: HistoryHandler<'history/ready'> = async (_payload, { service, running }) => ({
  ...(await service.status()),
  running: running?.() ?? false,
});
