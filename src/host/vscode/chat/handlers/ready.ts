import type { Handler } from './types';

/** The view (re)loaded: everything to draw, pending approvals included. */
export const ready: Handler<'chat/ready'> = (_payload, { host }) => {
  void host.refreshStatus();
  return host.snapshot();
};
