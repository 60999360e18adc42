export * from './settings';
export * from './resolve';
export * from './cliConfig';
export * from './origin';
export * from './providers';
export * from './hooks';
