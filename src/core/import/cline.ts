/**
 * Cline: its MCP file (`cline_mcp_settings.json`, `{ "mcpServers": { name: { command, args, env,
 * disabled, autoApprove, timeout, type, url } } }`, as Cline's MCP docs and McpHub write it), or a
 * rules file (`.clinerules`, markdown). Cline keeps its endpoint and keys in VS Code's secret
 * storage and has no export of them, so there is no endpoint to import from Cline.
 */
import path from 'node:path';
import { addMcpServers, addRules, emptyPlan, ImportError, isRecord, type ImportPlan, parseJson } from './importPlan';

export function planFromCline(file: string, text: string): ImportPlan {
  const plan = emptyPlan('cline', file);
  const name = path.basename(file);
  if (/^\.?clinerules/i.test(name) || /\.md$/i.test(name)) {
    addRules(plan, text, name);
    return plan;
  }
  const data = parseJson(file, text);
  if (!isRecord(data.mcpServers)) throw new ImportError(`${file}: not a Cline MCP settings file ({ "mcpServers": { ... } }) or rules file (.clinerules)`);
  addMcpServers(plan, data.mcpServers as Record<string, Record<string, unknown>>, 'mcpServers');
  for (const key of Object.keys(data).filter((k) => k !== 'mcpServers')) plan.notImported.push({ what: key, why: 'not part of an MCP server' });
  return plan;
}
