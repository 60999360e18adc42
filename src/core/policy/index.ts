// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { createIgnoreFilter } from './path';
export { compileGlobs } from './path/checkPath';
