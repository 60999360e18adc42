import * as vscode from 'vscode';
import { ANSWER_TESTS_OFFER } from '../../tests/offerDetectedTests';
import type { Handler } from './types';

/** The chat banner's buttons answer the same offer as the notification's (tests/offerDetectedTests.ts). */
export const answerTestsOffer: Handler<'tests/answer'> = async ({ answer }) => {
  const ok = await vscode.commands.executeCommand<boolean>(ANSWER_TESTS_OFFER, answer);
  return { ok: ok === true };
};
