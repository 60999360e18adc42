export * from './disposable';
export * from './event';
export * from './cancellation';
export * from './result';
export * from './errors';
export * from './binary';
export * from './plainText';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { lazyChunk } from './lazyChunks';
