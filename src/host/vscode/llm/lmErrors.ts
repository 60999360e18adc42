import * as vscode from 'vscode';
import { errorMessage } from '../../../core/base';
import { ModelApiError, cancelledError } from '../../../core/llm';

const SELECT = 'run "PatchPilot: Select Model" to choose another';

/**
 * What the Language Model API threw, as the ModelApiError the loop understands, saying what to do:
 * the user's consent (NoPermissions), the provider's refusal or quota (Blocked), a model that went
 * away (NotFound). Nothing here is retried: the extension behind the model has its own retries.
 */
export function lmError(err: unknown, model: string, signal: AbortSignal | undefined): ModelApiError {
  if (err instanceof ModelApiError) return err;
  if (signal?.aborted || err instanceof vscode.CancellationError) return cancelledError(1);
  const detail = errorMessage(err);
  if (err instanceof vscode.LanguageModelError) {
    if (err.code === vscode.LanguageModelError.NoPermissions.name) {
      return new ModelApiError({
        kind: 'auth',
        retryable: false,
        code: err.code,
        cause: err,
        message: `VS Code did not let PatchPilot use the model "${model}": allow it when VS Code asks (Accounts menu > Manage Language Model Access), or ${SELECT} (${detail})`,
      });
    }
    if (err.code === vscode.LanguageModelError.Blocked.name) {
      return new ModelApiError({
        kind: 'quota',
        retryable: false,
        code: err.code,
        cause: err,
        message: `the extension that serves "${model}" refused the request (a quota or a policy of that provider): ${detail}; wait, check that extension's account, or ${SELECT}`,
      });
    }
    if (err.code === vscode.LanguageModelError.NotFound.name) {
      return new ModelApiError({
        kind: 'bad-request',
        retryable: false,
        code: err.code,
        cause: err,
        message: `the VS Code model "${model}" is not available any more (its extension was disabled or signed out): ${SELECT}`,
      });
    }
  }
  if (/token limit|too long|context (length|window)|maximum context/i.test(detail)) {
    return new ModelApiError({
      kind: 'context-overflow',
      retryable: false,
      cause: err,
      message: `the VS Code model "${model}" refused a prompt over its limit: ${detail}`,
    });
  }
  return new ModelApiError({ kind: 'server', retryable: false, cause: err, message: `the VS Code model "${model}" failed: ${detail}` });
}
