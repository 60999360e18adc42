import { createInterface } from 'node:readline/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Exit codes shared by every CLI command (a goal's own: RUN_EXIT_CODES in src/protocol/runResult.ts). */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  cancelled: 130,
} as const;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type CliOptionSpec = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs in strict mode, with its errors turned into short usage errors: an unknown
 * option is reported as unknown wherever it stands, a string option without its value as such.
 */
export function parseCommandLine<const O extends CliOptionSpec>(
  argv: string[],
  options: O,
): { values: ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: true }>>['values']; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { values, positionals };
  } catch (err) {
    throw new UsageError(describeParseError(err));
  }
}

function describeParseError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  const name = /'(-{1,2}[^' ]+)/.exec(message)?.[1];
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${name ?? message}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return `${name} takes no value`;
      if (/ambiguous/.test(message)) return `${name} needs a value (a value that starts with "-" is written ${name}=-VALUE)`;
      return `${name ?? 'an option'} needs a value`;
    default:
      return message.split('\n')[0]!;
  }
}

/** Asks a yes/no question on the terminal (stderr, so stdout stays the command's output); only "y" or "yes" is yes. */
export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
