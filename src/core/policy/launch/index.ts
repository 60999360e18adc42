// What an approval of a started program covers (its launch, its named files, outside the sandbox the whole workspace tree) and when it is stale.
export { bindCode, bindingKey, staleReason, isWorkspaceTree, type CodeBinding, type BindCodeOptions } from './codeBinding';
export { ABSENT, describeFileChanges, FileHasher, launchFiles, launchProtectedGlobs, type Launch, type LaunchFiles } from './launchFiles';
export { describeTreeChange, workspaceTree, MAX_TREE_ENTRIES, type WorkspaceTree } from './workspaceTree';
export { canonicalJson, hash } from './canonicalHash';
