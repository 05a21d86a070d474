/** A problem with what the person asked for: printed as one clear line, never as a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
