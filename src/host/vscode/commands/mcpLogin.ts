/**
 * Log In to MCP Server / Log Out of MCP Server: OAuth for a remote server (core/mcp/remote), the
 * tokens in SecretStorage. The user picks the server, then is asked before the browser opens,
 * with the authorization server's address shown; the browser comes back to a listener on
 * 127.0.0.1 in the extension host (so a remote window needs that port reachable from the browser).
 */
import * as vscode from 'vscode';
import type { McpHttpConfig } from '../../../core/config';
import { errorMessage } from '../../../core/base';
import { loginToMcpServer, logoutFromMcpServer } from '../../../core/mcp';
import type { HostConfig } from '../config/hostConfig';
import { VsCodeSecretStore } from '../config/secretStore';

export const MCP_LOGIN_HINT = (server: string) => `run "PatchPilot: Log In to MCP Server" and choose ${server}`;

export function registerMcpLoginCommands(context: vscode.ExtensionContext, config: HostConfig, onLoggedIn: () => void): void {
  const store = new VsCodeSecretStore(context.secrets);
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.mcpLogin', async (name?: string) => {
      const picked = await pickRemoteServer(config, 'Log In to MCP Server', name);
      if (!picked) return;
      const settings = config.settingsNow();
      try {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `PatchPilot: logging in to ${picked.name}`, cancellable: true },
          async (_progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort());
            await loginToMcpServer({
              server: picked.name,
              config: picked.config,
              store,
              network: { fetchAllowHosts: settings.policy.fetchAllowHosts, allowPrivateNetwork: settings.policy.allowPrivateNetwork },
              signal: controller.signal,
              open: async (url) => {
                const yes = await vscode.window.showInformationMessage(
                  `Log in to the MCP server "${picked.name}"? Your browser opens ${url.origin} to ask you for access.`,
                  { modal: true },
                  'Open Browser',
                );
                if (yes !== 'Open Browser') throw new Error('the login was cancelled');
                if (!(await vscode.env.openExternal(vscode.Uri.parse(url.href, true)))) throw new Error('the browser could not be opened');
              },
            });
          },
        );
      } catch (err) {
        void vscode.window.showErrorMessage(`PatchPilot: login to ${picked.name} failed: ${errorMessage(err)}`);
        return;
      }
      onLoggedIn();
      void vscode.window.showInformationMessage(`PatchPilot: logged in to ${picked.name}; the tokens are kept in VS Code's secret storage.`);
    }),
    vscode.commands.registerCommand('patchpilot.mcpLogout', async (name?: string) => {
      const picked = await pickRemoteServer(config, 'Log Out of MCP Server', name);
      if (!picked) return;
      await logoutFromMcpServer({ server: picked.name, config: picked.config, store });
      onLoggedIn();
      void vscode.window.showInformationMessage(`PatchPilot: logged out of ${picked.name}.`);
    }),
  );
}

async function pickRemoteServer(config: HostConfig, title: string, name?: string): Promise<{ name: string; config: McpHttpConfig } | undefined> {
  let servers;
  try {
    servers = config.settingsNow().mcp.servers;
  } catch (err) {
    void vscode.window.showErrorMessage(`PatchPilot: ${errorMessage(err)}`);
    return undefined;
  }
  const remote = Object.entries(servers).filter((e): e is [string, McpHttpConfig] => e[1].transport !== 'stdio');
  if (remote.length === 0) {
    void vscode.window.showInformationMessage('PatchPilot: no remote MCP server (with "url") is configured in patchpilot.mcp.servers.');
    return undefined;
  }
  const chosen =
    name ??
    (
      await vscode.window.showQuickPick(
        remote.map(([n, c]) => ({ label: n, description: c.url })),
        { title: `PatchPilot: ${title}` },
      )
    )?.label;
  const found = remote.find(([n]) => n === chosen);
  return found ? { name: found[0], config: found[1] } : undefined;
}
