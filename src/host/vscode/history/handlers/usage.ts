import type { HistoryHandler } from './types';

/** The workspace's model usage per day and source (the panel's usage view). */
export const usage: HistoryHandler<'history/usage'> = async ({ days }, { service }) => ({ days: await (await service.store()).usageByDay(days) });
