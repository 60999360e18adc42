export * from './settings';
export { buildSettings, validateSettingValue } from './settingValues';
export * from './resolve';
export * from './cliConfig';
export * from './origin';
export * from './providers';
export * from './hooks';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export type { McpHttpConfig } from './mcpServers';
export { defaultUserStateDir } from './userState';
