// The dist/lazy/prices.js chunk: the price tables of @pydantic/genai-prices. Load it with lazyChunk.prices().
export { calcPrice, findProvider } from '@pydantic/genai-prices';
