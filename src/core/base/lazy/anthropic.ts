// The dist/lazy/anthropic.js chunk: Anthropic's SDK (the Messages API). Load it with lazyChunk.anthropic().
export { default as Anthropic } from '@anthropic-ai/sdk';
