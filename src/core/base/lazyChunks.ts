/**
 * The one way PatchPilot loads its heavy libraries (SDKs, catalogs, the shell parser, the Telegram
 * client, the YAML parser, the JSON Schema validator, OpenTelemetry): at first use, not at start-up. Each is a bundle of its own, dist/lazy/NAME.js
 * (scripts/lib/lazyChunks.mjs lists them; scripts/build.mjs turns these `require('./lazy/NAME')`
 * calls into requires of the chunk beside the bundle), so activating the extension or printing
 * `--help` neither reads nor compiles them. Code that uses one calls its loader where it needs it,
 * never at a module's top level; node caches the chunk after the first call. Under tsx (tests) the
 * same calls load the sources in ./lazy.
 */
export const lazyChunk = {
  openai: (): typeof import('./lazy/openai') => require('./lazy/openai'),
  anthropic: (): typeof import('./lazy/anthropic') => require('./lazy/anthropic'),
  mcp: (): typeof import('./lazy/mcp') => require('./lazy/mcp'),
  shellParser: (): typeof import('./lazy/shellParser') => require('./lazy/shellParser'),
  prices: (): typeof import('./lazy/prices') => require('./lazy/prices'),
  modelWindows: (): typeof import('./lazy/modelWindows') => require('./lazy/modelWindows'),
  telegram: (): typeof import('./lazy/telegram') => require('./lazy/telegram'),
  yaml: (): typeof import('./lazy/yaml') => require('./lazy/yaml'),
  jsonSchema: (): typeof import('./lazy/jsonSchema') => require('./lazy/jsonSchema'),
  otel: (): typeof import('./lazy/otel') => require('./lazy/otel'),
};
