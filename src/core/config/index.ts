export * from './settings';
export * from './resolve';
export * from './cliConfig';
