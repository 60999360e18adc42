// The dist/lazy/openai.js chunk: the `openai` SDK (OpenAI-compatible endpoints). Load it with lazyChunk.openai().
export { default as OpenAI, APIError, APIConnectionError, APIConnectionTimeoutError } from 'openai';
