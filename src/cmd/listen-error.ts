/**
 * What an operator reads when the server cannot listen: one line saying what went wrong and what
 * to do, instead of Node's stack trace (a port another server holds is the usual case).
 */

/** The line for a failed listen(2); undefined for any other error. */
export function listenErrorMessage(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & { code?: unknown; syscall?: unknown; address?: unknown; port?: unknown };
  if (e.syscall !== 'listen' || typeof e.code !== 'string') return undefined;
  const where =
    typeof e.address === 'string' && typeof e.port === 'number'
      ? `${e.address.includes(':') ? `[${e.address}]` : e.address}:${e.port}`
      : 'the address';
  switch (e.code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: another process already uses it; stop it, or pick another port with --secure-port (0 picks a free one)`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); pick another port with --secure-port`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no interface of this machine has that address; pick another with --bind-address`;
    default:
      return `cannot listen on ${where}: ${e.message}`;
  }
}
