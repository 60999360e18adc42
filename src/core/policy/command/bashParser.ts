import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Language, Tree } from 'web-tree-sitter';
import { lazyChunk } from '../../base/lazyChunks';
// createRequire: a run-time lookup the bundler leaves alone (the wasm files are not modules).
const localRequire = createRequire(__filename);

/**
 * Loads tree-sitter and its bash grammar once per process. Both are wasm, so no native build is
 * needed; the bundles in dist/ carry copies (scripts/build.mjs), the TypeScript sources under tsx
 * fall back to node_modules.
 */
export interface BashParser {
  /** Sync after the async load. Returns undefined only when tree-sitter gives up (timeout). */
  parse(source: string): Tree | undefined;
}

let loading: Promise<Language> | undefined;

/** dist/ first (the bundled CLI and extension), then the installed package. */
export function locateWasm(fileName: 'tree-sitter.wasm' | 'tree-sitter-bash.wasm'): string {
  const besideBundle = path.join(__dirname, fileName);
  if (existsSync(besideBundle)) return besideBundle;
  return fileName === 'tree-sitter.wasm'
    ? localRequire.resolve('web-tree-sitter/tree-sitter.wasm')
    : localRequire.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}

function loadLanguage(): Promise<Language> {
  loading ??= (async () => {
    const { Parser, Language: LanguageClass } = lazyChunk.shellParser();
    // Handing over the bytes avoids emscripten guessing a path from a bundle it was not built for.
    const runtime = readFileSync(locateWasm('tree-sitter.wasm'));
    await Parser.init({ wasmBinary: runtime } as unknown as Parameters<typeof Parser.init>[0]);
    return LanguageClass.load(new Uint8Array(readFileSync(locateWasm('tree-sitter-bash.wasm'))));
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

export async function createBashParser(): Promise<BashParser> {
  const language = await loadLanguage();
  const parser = new (lazyChunk.shellParser().Parser)();
  parser.setLanguage(language);
  return {
    parse(source) {
      return parser.parse(source) ?? undefined;
    },
  };
}
