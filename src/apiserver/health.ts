/** /healthz, /livez, /readyz with `?verbose` check lists and /<endpoint>/<check> like upstream. */
import type { ServerResponseLike } from './response.js';

export interface HealthCheck {
  readonly name: string;
  check(): Promise<void>;
}

export interface HealthChecks {
  readonly livez: readonly HealthCheck[];
  readonly readyz: readonly HealthCheck[];
}

export async function handleHealth(
  res: ServerResponseLike,
  url: URL,
  checks: HealthChecks,
  shuttingDown: boolean,
): Promise<boolean> {
  const parts = url.pathname.split('/').filter((p) => p.length > 0);
  const kind = parts[0];
  if (kind !== 'healthz' && kind !== 'livez' && kind !== 'readyz') return false;
  const list = kind === 'livez' ? checks.livez : checks.readyz;
  const all: HealthCheck[] = [{ name: 'ping', check: async () => {} }, ...list];
  if (kind === 'readyz') {
    all.push({
      name: 'shutdown',
      check: () => (shuttingDown ? Promise.reject(new Error('process is shutting down')) : Promise.resolve()),
    });
  }
  const exclude = new Set(url.searchParams.getAll('exclude'));
  const only = parts[1];
  const selected =
    only === undefined ? all.filter((c) => !exclude.has(c.name)) : all.filter((c) => c.name === only);
  if (only !== undefined && selected.length === 0) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('404 page not found\n');
    return true;
  }
  const lines: string[] = [];
  let failed = false;
  for (const c of selected) {
    try {
      await c.check();
      lines.push(`[+]${c.name} ok`);
    } catch {
      failed = true;
      lines.push(`[-]${c.name} failed: reason withheld`);
    }
  }
  const verbose = url.searchParams.has('verbose');
  let body: string;
  if (only !== undefined) body = failed ? `internal server error: ${lines[0] ?? ''}\n` : 'ok';
  else if (failed || verbose) {
    body = `${lines.join('\n')}\n${failed ? `${kind} check failed` : `${kind} check passed`}\n`;
  } else body = 'ok';
  res.writeHead(failed ? 500 : 200, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache, private',
  });
  res.end(body);
  return true;
}
