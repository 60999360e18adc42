// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { writeFileAtomic } from './atomicFile';
export { LinkedFolderError, writeFileConfined } from './confinedWrite';
export { moveAside } from './moveAside';
