/**
 * A problem with what the operator gave the server to start with (its data dir, its credentials):
 * the command prints the message as one line and exits non-zero, without a stack trace.
 */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}

const reasons: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  ENOSPC: 'no space left on device',
  EEXIST: 'a file is in the way',
  ELOOP: 'too many symbolic links',
};

/** A file system error as a short reason ("read-only file system (EROFS)"). */
export function fsReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return `${reasons[code] ?? code.toLowerCase()} (${code})`;
  return err instanceof Error ? err.message : String(err);
}
