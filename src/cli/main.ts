import { ExitCode, UsageError } from './io';
import { COMMAND_SUMMARIES, COMMAND_USAGE } from './usage';

/** One entry per top-level command; each command lives in its own file under ./commands. */
type CommandModule = { run(argv: string[]): Promise<number> };
const commands: Record<string, () => Promise<CommandModule>> = {
  patch: () => import('./commands/patch'),
  history: () => import('./commands/history'),
  run: () => import('./commands/run'),
  mcp: () => import('./commands/mcp'),
  hooks: () => import('./commands/hooks'),
  'model-program': () => import('./commands/modelProgram'),
  restore: () => import('./commands/restore'),
  serve: () => import('./commands/serve'),
  config: () => import('./commands/config'),
  import: () => import('./commands/import'),
  batch: () => import('./commands/batch'),
};

function usage(): string {
  const lines = Object.keys(commands).map((name) => `  patchpilot ${name.padEnd(8)} ${COMMAND_SUMMARIES[name] ?? ''}`.trimEnd());
  return ['PatchPilot: a careful coding agent, headless.', '', 'Usage:', ...lines, '', 'patchpilot COMMAND --help for details.'].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage() + '\n');
    return name ? ExitCode.ok : ExitCode.usage;
  }
  if (name === '--version') {
    process.stdout.write(`${PATCHPILOT_VERSION}\n`);
    return ExitCode.ok;
  }
  const load = commands[name];
  if (!load) {
    process.stderr.write(`patchpilot: unknown command '${name}'\n\n${usage()}\n`);
    return ExitCode.usage;
  }
  const commandUsage = COMMAND_USAGE[name] ?? '';
  // Help before the command loads: printing it evaluates none of the agent.
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(commandUsage + '\n');
    return ExitCode.ok;
  }
  const command = await load();
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`patchpilot ${name}: ${err.message}\n\n${commandUsage}\n`);
      return ExitCode.usage;
    }
    throw err;
  }
}

declare const PATCHPILOT_VERSION: string;

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`patchpilot: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = ExitCode.failed;
  },
);
