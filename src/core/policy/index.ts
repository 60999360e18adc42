// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { createIgnoreFilter } from './path';
// The one confined write path, for the hosts' WorkspaceFs (src/host/node/nodeWorkspaceFs.ts).
export { commitConfined, confinePath, nodeIo, type AtomicIo, type ConfinedChange } from './path';
export { compileGlobs } from './path/checkPath';
