export * from './ignoreRules';
export * from './listFiles';
export * from './gitSession';
export { cloneShallow } from './safeGit';
