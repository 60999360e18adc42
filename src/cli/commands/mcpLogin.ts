/**
 * `patchpilot mcp login NAME` / `logout NAME`: OAuth for a remote server (core/mcp/remote). The
 * authorization page's address is printed, and opened in the browser unless --no-browser (an SSH
 * session: open it on any machine whose browser can reach back to this one's 127.0.0.1, e.g. a
 * forwarded port). Tokens go to a 0600 file in PATCHPILOT_STATE_HOME.
 */
import { spawn } from 'node:child_process';
import type { PatchPilotSettings } from '../../core/config';
import { loginToMcpServer, logoutFromMcpServer } from '../../core/mcp';
import { errorMessage } from '../../core/base';
import { ExitCode } from '../io';
import { cliSecretStore } from '../node/cliHost';

export async function loginOrLogout(
  sub: 'login' | 'logout',
  name: string,
  settings: PatchPilotSettings,
  o: { noBrowser: boolean; signal: AbortSignal },
): Promise<number> {
  const servers = settings.mcp.servers;
  const config = servers[name];
  if (!config) {
    process.stderr.write(`patchpilot mcp: no MCP server named "${name}" (configured: ${Object.keys(servers).join(', ') || 'none'})\n`);
    return ExitCode.usage;
  }
  if (config.transport === 'stdio') {
    process.stderr.write(`patchpilot mcp: "${name}" is a local server (command); login is for remote ones (url)\n`);
    return ExitCode.usage;
  }
  const store = cliSecretStore();
  if (sub === 'logout') {
    await logoutFromMcpServer({ server: name, config, store });
    process.stdout.write(`logged out of ${name} (${config.url}): its tokens are deleted here\n`);
    return ExitCode.ok;
  }
  process.stderr.write(`Logging in to ${name} at ${config.url}\n`);
  try {
    await loginToMcpServer({
      server: name,
      config,
      store,
      network: { fetchAllowHosts: settings.policy.fetchAllowHosts, allowPrivateNetwork: settings.policy.allowPrivateNetwork },
      signal: o.signal,
      open: async (url) => {
        process.stderr.write(`Open this page to log in (waiting up to 5 minutes):\n  ${url.href}\n`);
        if (!o.noBrowser) openInBrowser(url.href);
      },
    });
  } catch (err) {
    if (o.signal.aborted) return ExitCode.cancelled;
    process.stderr.write(`patchpilot mcp: login to ${name} failed: ${errorMessage(err)}\n`);
    return ExitCode.failed;
  }
  process.stdout.write(`logged in to ${name}; its tokens are kept in ${store.file} (readable by you only)\n`);
  return ExitCode.ok;
}

/** The platform's URL opener, detached; a failure only means the user opens the printed address. */
function openInBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    /* printed above */
  }
}
