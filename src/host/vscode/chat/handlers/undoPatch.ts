import type { Handler } from './types';

/** Undo Patch on a written patch's item in the chat: the same undo as the palette's Undo Last Patch (diff/undoPatch.ts). */
export const undoPatch: Handler<'patch/undo'> = ({ key }, { host }) => host.undoPatch(key);
