import { ExitCode, UsageError } from './io';

/** One entry per top-level command; each command lives in its own file under ./commands. */
type CommandModule = { run(argv: string[]): Promise<number>; usage: string };
const commands: Record<string, () => Promise<CommandModule>> = {
  patch: () => import('./commands/patch'),
  history: () => import('./commands/history'),
  run: () => import('./commands/run'),
  mcp: () => import('./commands/mcp'),
  hooks: () => import('./commands/hooks'),
  restore: () => import('./commands/restore'),
  serve: () => import('./commands/serve'),
  config: () => import('./commands/config'),
  import: () => import('./commands/import'),
  batch: () => import('./commands/batch'),
};

const summaries: Record<string, string> = {
  patch: 'apply or evaluate a patch (unified diff, apply_patch, SEARCH/REPLACE): exact or refused',
  history: 'list, show, search and export the workspace history database',
  run: 'work toward a goal with a model: read, patch, run tests (a REPL without --goal)',
  mcp: 'list the configured MCP servers with their status; approve them ahead of a run; log in to remote ones',
  hooks: "list the configured hooks (patchpilot.hooks); approve a workspace's hooks ahead of a run",
  restore: "put the files back as they were before a run's step (checkpoints), or redo",
  serve: 'run goals sent from a chat (Telegram): progress, approvals and /stop from the phone',
  config: 'print the settings files the CLI reads, and each setting in effect with where it came from',
  import: 'bring settings over from Roo Code, Cline or Continue into your user settings (previewed first)',
  batch: 'run many goals (repositories, goals, settings from a file) here, as a GitHub matrix or a Kubernetes Indexed Job',
};

function usage(): string {
  const lines = Object.keys(commands).map((name) => `  patchpilot ${name.padEnd(8)} ${summaries[name] ?? ''}`.trimEnd());
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
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage + '\n');
    return ExitCode.ok;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`patchpilot ${name}: ${err.message}\n\n${command.usage}\n`);
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
