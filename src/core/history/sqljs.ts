/**
 * Loads sql.js with its wasm from disk, never from the network. In the bundles (dist/cli.js,
 * dist/extension.js, dist/historyWorker.js) the build copies the wasm next to them, so
 * `__dirname/sql-wasm.wasm`; from source (tsx, tests) it sits in the sql.js package folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs, { type SqlJsStatic } from 'sql.js';
import { pagedInstantiate } from './diskPages';

let loading: Promise<SqlJsStatic> | undefined;

export function sqlWasmPath(): string {
  const bundled = path.join(__dirname, 'sql-wasm.wasm');
  if (existsSync(bundled)) return bundled;
  // From source only; a variable keeps esbuild from trying to bundle a path lookup it cannot see through.
  const pkg = 'sql.js';
  return path.join(path.dirname(require.resolve(pkg)), 'sql-wasm.wasm');
}

export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= new Promise<SqlJsStatic>((resolve, reject) => {
    // The file calls are wrapped so that a database can be read a page at a time (diskPages.ts).
    const instantiateWasm = pagedInstantiate(readFileSync(sqlWasmPath()), reject);
    initSqlJs({ locateFile: () => sqlWasmPath(), instantiateWasm } as Parameters<typeof initSqlJs>[0]).then(resolve, reject);
  }).catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}
