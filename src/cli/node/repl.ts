import { createInterface } from 'node:readline';
import { ExitCode } from '../io';
import type { CliChat } from './cliChat';

type Prompted = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt' };

export const REPL_HELP = 'Type a goal and press Enter. /exit or Ctrl-D quits; Ctrl-C cancels a running goal, or quits at this prompt.';

/**
 * `patchpilot run` on a terminal without --goal: ask for a goal, run it with live progress, ask
 * again. The prompt's readline exists only while it waits, so during a run the terminal is in
 * cooked mode (Ctrl-C is a real SIGINT, which the session turns into a cancel) and approval
 * questions own stdin alone.
 */
export async function runRepl(
  session: CliChat,
  io: { input?: NodeJS.ReadStream; output?: NodeJS.WritableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<number> {
  const input = io.input ?? process.stdin;
  const output = io.output ?? process.stderr;
  const stdout = io.stdout ?? process.stdout;
  const history: string[] = [];
  output.write(`patchpilot: interactive session. ${REPL_HELP}\n`);
  try {
    for (;;) {
      const got = await prompt(input, output, history);
      if (got.kind === 'eof') return ExitCode.ok;
      if (got.kind === 'interrupt') return ExitCode.cancelled;
      const goal = got.text.trim();
      if (!goal) continue;
      if (goal === '/exit' || goal === '/quit') return ExitCode.ok;
      if (goal === '/help') {
        output.write(`${REPL_HELP}\n`);
        continue;
      }
      history.unshift(goal);
      const prepared = await session.prepareGoal(goal);
      if ('error' in prepared) {
        output.write(`patchpilot: ${prepared.error}\n`);
        continue;
      }
      const outcome = await session.runGoal(prepared.goal);
      if (outcome.summary && outcome.status === 'finished') stdout.write(`${outcome.summary}\n`);
    }
  } finally {
    await session.close();
  }
}

function prompt(input: NodeJS.ReadStream, output: NodeJS.WritableStream, history: string[]): Promise<Prompted> {
  return new Promise((resolve) => {
    const rl = createInterface({ input, output, terminal: true, history: [...history], historySize: 100, removeHistoryDuplicates: true });
    let settled = false;
    const settle = (result: Prompted) => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(result);
    };
    rl.on('line', (text) => settle({ kind: 'line', text }));
    rl.on('SIGINT', () => {
      output.write('^C\n');
      settle({ kind: 'interrupt' });
    });
    rl.on('close', () => settle({ kind: 'eof' }));
    rl.setPrompt('goal> ');
    rl.prompt();
  });
}
