/**
 * Go's `path.Clean("/" + p)` (equally `path.Join("/", p)`): a rooted slash path with empty and
 * `.` elements dropped, `..` resolved (never above the root) and no trailing slash. Go's servers,
 * proxies and clients clean request paths this way.
 */
export function rootedCleanPath(p: string): string {
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}
