import type { Handler } from './types';

export const stop: Handler<'chat/stop'> = (_payload, { host }) => host.stopRun(true);
