// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { formatTokens } from './budget';
export { findBundledSkillsDir } from './skills/bundledDir';
