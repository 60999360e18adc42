export { parseMcpServers, describeLaunch, type McpServerConfig, type McpStdioConfig, type McpHttpConfig } from '../config/mcpServers';
export { McpManager, type McpManagerOptions, type McpServerStatus, type McpServerState, type McpServerCatalog } from './manager';
export { launchFingerprint, toolFingerprint, type McpToolDefinition } from './fingerprint';
export { exposedToolName } from './naming';
export { launchFiles, describeFileChanges, type LaunchFiles } from '../policy/launch';
export { mcpProtectedGlobs } from './protectedFiles';
export type { McpPromptDefinition, McpResourceDefinition } from './clientFeatures';
export { isPromptCommand, parsePromptCommand, promptCommandName, PROMPT_COMMAND_PREFIX, type PromptCommand, type PromptCatalog } from './promptCommand';
export { expandPromptCommand, type AskPromptArgument } from './expandPrompt';
export { attachMentionedResources, resourceMentions, type ResourceAttachment } from './resourceMentions';
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { loginToMcpServer, logoutFromMcpServer } from './remote/login';
