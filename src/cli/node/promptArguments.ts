import { createInterface } from 'node:readline/promises';
import type { AskPromptArgument } from '../../core/mcp';

/** An MCP prompt's required argument not given after the command, asked on the terminal (empty: the command is not run). */
export function askPromptArgumentOnTerminal(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stderr): AskPromptArgument {
  return async (argument, command) => {
    const rl = createInterface({ input, output, terminal: true });
    try {
      const about = argument.description ? ` (${argument.description.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')})` : '';
      const answer = await rl.question(`${command}: ${argument.name}${about}: `);
      return answer.trim() ? answer : undefined;
    } finally {
      rl.close();
    }
  };
}
