export * from './ignoreRules';
export * from './listFiles';
export * from './gitSnapshot';
export { cloneShallow } from './safeGit';
