export * from './disposable';
export * from './event';
export * from './cancellation';
export * from './result';
export * from './errors';
export * from './binary';
export * from './plainText';
