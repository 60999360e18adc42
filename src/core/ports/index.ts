/**
 * Every interface the host implements, in one place (VS Code in src/host/vscode, Node in src/cli and
 * src/core/workspace, fakes in test/support). Core code depends on these, never on a host directly.
 */
export * from './notifier';
export * from './approver';
export * from './taskRunner';
export * from './commandExecutor';
export * from './testOutput';
export * from './testCommandRunner';
export * from './policy';
export * from './services';
export * from './chatModel';
export * from './workspaceFs';
export * from './diffPreview';
export * from './diagnostics';
export * from './secretStore';
export * from './elicitor';
export * from './host';
