export { createCommandPolicy, type CommandPolicyOptions, type LoadedCommandPolicy } from './policy';
export type { CommandPolicySettings, CommandPolicyConfig } from './settings';
export type { CommandCheckInput, CommandPolicy, Word, Redirect, SimpleCommand } from './types';
export { TestDefinitionGuard, testCommandKind } from './testDefinitionGuard';
export { parseRulePattern, ruleMatches, type CommandRule } from './rules';
export { classifyWriteTarget, protectedReason } from './paths';
export { DEFAULT_ALLOW_RULES } from './defaults';
export { locateWasm } from './bashParser';
export { allowedByUserRules } from './userAllowed';
