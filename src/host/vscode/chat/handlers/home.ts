import * as vscode from 'vscode';
import { errorMessage } from '../../../../core/base';
import { detectTestCommand, diskProbe } from '../../../../core/testRuns';
import { exampleGoals } from '../../../../core/workspace';
import { recentConversations } from '../persistence/conversations';
import type { Handler } from './types';

/** The empty chat's content: goals that fit this project and the conversations to go back to. */
export const home: Handler<'chat/home'> = async (_payload, { host, log }) => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file') return { examples: [], conversations: [] };
  const probe = diskProbe(folder.uri.fsPath);
  const testCommand = host.testCommands()[0] ?? host.status().testsOffer?.command ?? (await detectTestCommand(probe).catch(() => undefined))?.command;
  const [examples, conversations] = await Promise.all([
    exampleGoals(probe, testCommand).catch(() => []),
    host
      .historyStore()
      .then((store) => recentConversations(store))
      .catch((err: unknown) => {
        log.warn(`recent conversations not listed: ${errorMessage(err)}`);
        return [];
      }),
  ]);
  return { examples, conversations };
};
