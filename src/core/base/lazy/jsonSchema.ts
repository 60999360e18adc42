// The dist/lazy/jsonSchema.js chunk: Ajv, the JSON Schema validator of tool arguments. Load it with lazyChunk.jsonSchema().
export { default as Ajv } from 'ajv';
