import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ExitCode, UsageError, parseCommandLine } from '../io';
import { ChannelServer } from '../../core/channels';
import { ModelConfigError } from '../../core/llm';
import { errorMessage } from '../../core/base';
import { createAgent } from '../../core/session';
import { cliHost } from '../node/cliHost';
import { CliChat } from '../node/cliChat';
import { RUN_CONFIG_OPTIONS, loadRunConfig, stderrNotifier } from '../node/runConfig';
import { TelegramChannel } from '../node/telegramChannel';
import { DecliningElicitor } from '../node/elicitors';
import { startCliTelemetry } from '../node/telemetry';
import { withTelemetry } from '../../core/telemetry';

const OPTIONS = {
  telegram: { type: 'boolean' },
  workspace: { type: 'string' },
  ...RUN_CONFIG_OPTIONS,
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values: args, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (!args.telegram) throw new UsageError('choose a channel: --telegram');
  const workspace = path.resolve(args.workspace ?? process.cwd());
  if (!(await stat(workspace).catch(() => undefined))?.isDirectory()) throw new UsageError(`--workspace ${workspace} is not a folder`);
  const root = await realpath(workspace);
  const token = process.env.PATCHPILOT_TELEGRAM_TOKEN?.trim();
  if (!token) return settingsError('no bot token: set PATCHPILOT_TELEGRAM_TOKEN (from @BotFather)');

  const notifier = stderrNotifier;
  const config = await loadRunConfig(root, args, notifier);
  if (typeof config === 'string') return settingsError(config);
  const allowed = config.settings.channels.telegram.allowedChatIds;
  if (allowed.length === 0)
    return settingsError(
      'no chat may send goals: list their ids in patchpilot.channels.telegram.allowedChatIds in your user settings (a message from another chat is answered with its id)',
    );

  const channel = new TelegramChannel(token, process.env.PATCHPILOT_TELEGRAM_API_ROOT?.trim() || undefined);
  const server = new ChannelServer({
    channel,
    allowedChatIds: allowed,
    approverIds: config.settings.channels.telegram.approverIds,
    log: (line) => process.stderr.write(`patchpilot serve: ${line}\n`),
  });
  // A long-lived process: the place for a Prometheus endpoint (patchpilot.telemetry.prometheusEndpoint).
  const telemetry = await startCliTelemetry(config.settings, notifier);
  if (typeof telemetry === 'string') return settingsError(telemetry);
  let built;
  try {
    // No terminal to answer an MCP server's questions on: they are declined, and the log says so.
    const onEvent = withTelemetry(server.onEvent, telemetry);
    built = await createAgent(cliHost({ root, approver: server.approver, notifier, onEvent, elicitor: new DecliningElicitor(notifier) }), config);
  } catch (err) {
    await telemetry?.shutdown();
    if (err instanceof ModelConfigError) return settingsError(err.message);
    throw err;
  }
  const session = new CliChat(built, notifier);
  // Between goals a signal stops serving; during one, CliChat cancels the goal first.
  const quit = () => {
    if (!session.running) void channel.close();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, quit);
  notifier.info(`serving ${root} to ${allowed.length} Telegram chat${allowed.length === 1 ? '' : 's'}; Ctrl-C stops`);
  try {
    await server.serve(session);
    return ExitCode.ok;
  } catch (err) {
    process.stderr.write(`patchpilot serve: the bot stopped: ${errorMessage(err)}\n`);
    return ExitCode.failed;
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, quit);
    await session.close();
    await telemetry?.shutdown();
  }
}

function settingsError(message: string): number {
  process.stderr.write(`patchpilot serve: ${message}\n`);
  return ExitCode.usage;
}
