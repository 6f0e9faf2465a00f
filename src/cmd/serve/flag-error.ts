/** A bad command-line flag: the message says which and why (the CLI prints it and exits 2). */
export class FlagError extends Error {
  override readonly name = 'FlagError';
}
