import { errorMessage } from '../../../../core/base';
import { loadConversation } from '../persistence/conversations';
import type { Handler } from './types';

/** An earlier conversation (from the history store) becomes the chat, to continue it. */
export const openConversation: Handler<'chat/openConversation'> = async ({ runId }, { host, log }) => {
  if (host.running) return { opened: false, reason: 'A run is working: stop it or wait for its end, then open the conversation.' };
  try {
    const store = await host.historyStore();
    if (!store) return { opened: false, reason: 'No history is recorded in this workspace.' };
    host.continueConversation(await loadConversation(store, runId));
    return { opened: true };
  } catch (err) {
    log.warn(`conversation ${runId} not opened: ${errorMessage(err)}`);
    return { opened: false, reason: `The conversation could not be opened: ${errorMessage(err)}` };
  }
};
