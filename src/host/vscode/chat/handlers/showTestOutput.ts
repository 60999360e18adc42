import * as vscode from 'vscode';
import { SHOW_TEST_OUTPUT_COMMAND } from '../../tests/testTaskTerminals';
import type { Handler } from './types';

/** "Show Output" on a test row: the test service's terminals bring up that command's newest task terminal. */
export const showTestOutput: Handler<'tests/showOutput'> = async ({ command }) => {
  const shown = await vscode.commands.executeCommand<boolean | undefined>(SHOW_TEST_OUTPUT_COMMAND, command);
  return { shown: shown === true };
};
