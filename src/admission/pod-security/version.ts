/**
 * Pod Security policy versions (upstream api.Version): `latest` or `v1.<minor>`. Only major 1
 * exists, so a version is its minor number; `latest` is newer than any numbered one.
 */
export type PolicyVersion = number | 'latest';

export const versionParseError = 'must be "latest" or "v1.x"';

const versionPattern = /^v1\.([0-9]|[1-9][0-9]*)$/;

/** upstream ParseVersion: an unparsable version is an error and reads as latest. */
export function parseVersion(s: string): { readonly version: PolicyVersion; readonly error?: string } {
  if (s === 'latest') return { version: 'latest' };
  const m = versionPattern.exec(s);
  const minor = m?.[1] !== undefined ? Number(m[1]) : NaN;
  if (!Number.isSafeInteger(minor)) return { version: 'latest', error: versionParseError };
  return { version: minor };
}

export function versionString(v: PolicyVersion): string {
  return v === 'latest' ? 'latest' : `v1.${v}`;
}
