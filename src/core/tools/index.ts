import { editFileTool } from './editFile';
import { finishTool } from './finish';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listDirTool } from './listDir';
import { loadSkillTool } from './loadSkill';
import { proposePatchTool } from './proposePatch';
import { readFileTool } from './readFile';
import { rememberTool } from './remember';
import { ToolRegistry } from './registry';
import { runCommandTool } from './runCommand';
import { runTestsTool } from './runTests';
import { searchHistoryTool } from './searchHistory';
import { webFetchTool } from './webFetch';
import { writeFileTool } from './writeFile';
import type { Tool } from './types';

export * from './types';
export { ToolRegistry } from './registry';
export { runConfiguredTests } from './runTests';
export type { UnansweredTestCommand } from './detectedTests';

/** Which optional capabilities the host wired (a tool is only offered when it can work). */
export interface ToolAvailability {
  commands?: boolean;
  web?: boolean;
  history?: boolean;
  /** remember: writes .patchpilot/MEMORY.md (off in restricted mode). */
  memory?: boolean;
  /** load_skill. */
  skills?: boolean;
}

/** The public tool set, in the order the model sees it. */
export function createToolRegistry(available: ToolAvailability = {}): ToolRegistry {
  const tools: Tool<any>[] = [readFileTool, listDirTool, globTool, grepTool, editFileTool, proposePatchTool, writeFileTool];
  if (available.commands) tools.push(runCommandTool);
  tools.push(runTestsTool);
  if (available.web) tools.push(webFetchTool);
  if (available.history) tools.push(searchHistoryTool);
  if (available.memory) tools.push(rememberTool);
  if (available.skills) tools.push(loadSkillTool);
  tools.push(finishTool);
  return new ToolRegistry(tools);
}
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { createCommandExecutor, createCommandGuard, createPathPolicy } from './policyAdapters';
