// The dist/lazy/shellParser.js chunk: tree-sitter's runtime (its wasm files sit in dist/, see
// policy/command/bashParser.ts). Load it with lazyChunk.shellParser().
// require(), not import: esbuild would otherwise bundle web-tree-sitter's ES module build, which
// needs import.meta and breaks inside our CommonJS bundles.
const treeSitter = require('web-tree-sitter') as typeof import('web-tree-sitter');
export const Parser = treeSitter.Parser;
export const Language = treeSitter.Language;
