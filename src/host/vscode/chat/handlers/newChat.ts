import type { Handler } from './types';

export const newChat: Handler<'chat/new'> = (_payload, { host }) => host.newChat();
