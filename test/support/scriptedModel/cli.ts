/**
 * Starts a scripted model server from a JSON script file, for tests that spawn the real CLI:
 *   node --import tsx test/support/scriptedModel/cli.ts --script FILE [--port N]
 * Prints the base URL (ending in /v1) as its first stdout line, then serves until SIGTERM/SIGINT.
 * On exit it prints a one-line JSON summary (turns served, requests, mismatches) to stderr.
 */
import { loadScriptFile } from './script';
import { ScriptedModelServer } from './server';

function flag(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = args[i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1];
}

async function main(): Promise<number> {
  const file = flag('script');
  const portText = flag('port') ?? '0';
  const port = Number(portText);
  if (!file || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('usage: cli.ts --script FILE [--port N]\n');
    return 2;
  }
  let server: ScriptedModelServer;
  try {
    server = await ScriptedModelServer.start(loadScriptFile(file), port);
  } catch (err) {
    process.stderr.write(`scripted model: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`${server.baseUrl}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  const summary = {
    turnsServed: server.turnsServed,
    requests: server.chatRequests.length,
    mismatches: server.mismatches,
  };
  await server.close();
  process.stderr.write(`${JSON.stringify(summary)}\n`);
  return 0;
}

main().then((code) => process.exit(code));
