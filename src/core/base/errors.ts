/** An error whose message is meant for the user (or the model) as is: no stack trace needed. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly code: string = 'user-error',
  ) {
    super(message);
    this.name = 'UserError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
