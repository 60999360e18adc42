// Where the project's code-server lives; shared by the install script, `npm start` and the tests
// (test/e2e/support/codeServer.ts reads the same stamp rule, keep them in step).
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';

/** The install folder: $PATCHPILOT_CODE_SERVER_DIR, else <repo>/.vscode-test/code-server. */
export function codeServerDir(repo) {
  return process.env.PATCHPILOT_CODE_SERVER_DIR ? path.resolve(process.env.PATCHPILOT_CODE_SERVER_DIR) : path.join(repo, '.vscode-test', 'code-server');
}

/** The stamp's content: the version and the Node ABI its native modules were built for. */
export function stampFor() {
  return `code-server ${CODE_SERVER_VERSION} node-abi ${process.versions.modules}`;
}

export function codeServerEntry(repo) {
  return path.join(codeServerDir(repo), 'node_modules/code-server/out/node/entry.js');
}
