/**
 * kube-proxy's HTTP endpoints (v1.27): `/healthz` on the health address answers 200 unless a
 * change has waited more than two sync periods to be written (then 503), with kube-proxy's body
 * `{"lastUpdated": "...","currentTime": "..."}` (NW-13: the proxy's own health); `/metrics`,
 * `/healthz` ("ok") and `/proxyMode` on the metrics address.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { ProxyMetrics } from './metrics.js';
import type { Proxier } from './proxier.js';

/** Go's time.Time.String() in UTC: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTime(ms: number | undefined): string {
  if (ms === undefined) return '0001-01-01 00:00:00 +0000 UTC';
  const iso = new Date(ms).toISOString(); // 2006-01-02T15:04:05.123Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac === '' ? '' : `.${frac}`} +0000 UTC`;
}

const json = { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' };
const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

/** An answer of one of kube-proxy's HTTP endpoints. */
export interface ProxyAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const notFound: ProxyAnswer = { status: 404, headers: text, body: '404 page not found\n' };

/** What the health address answers on `path`. */
export function healthAnswer(proxier: Pick<Proxier, 'health'>, path: string): ProxyAnswer {
  if (path !== '/healthz') return notFound;
  const h = proxier.health();
  const current = goTime(h.now);
  const last = h.healthy ? current : goTime(h.lastUpdated);
  return {
    status: h.healthy ? 200 : 503,
    headers: json,
    body: `{"lastUpdated": ${JSON.stringify(last)},"currentTime": ${JSON.stringify(current)}}`,
  };
}

/** What the metrics address answers on `path`. */
export async function metricsAnswer(metrics: ProxyMetrics, path: string): Promise<ProxyAnswer> {
  if (path === '/healthz') return { status: 200, headers: text, body: 'ok' };
  if (path === '/proxyMode') return { status: 200, headers: text, body: 'iptables' };
  if (path !== '/metrics') return notFound;
  try {
    const body = await metrics.registry.metrics();
    return { status: 200, headers: { 'Content-Type': metrics.registry.contentType }, body };
  } catch (err) {
    return { status: 500, headers: text, body: String(err) };
  }
}

function pathOf(url: string | undefined): string {
  return new URL(url ?? '/', 'http://x').pathname;
}

export function healthServer(proxier: Pick<Proxier, 'health'>): Server {
  return createServer((req, res) => {
    const a = healthAnswer(proxier, pathOf(req.url));
    res.writeHead(a.status, a.headers).end(a.body);
  });
}

export function metricsServer(metrics: ProxyMetrics): Server {
  return createServer((req, res) => {
    void metricsAnswer(metrics, pathOf(req.url)).then((a) => res.writeHead(a.status, a.headers).end(a.body));
  });
}

/** `host:port` (IPv6 in brackets) as kube-proxy's bind address flags take it. */
export function splitHostPort(address: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(address);
  if (m === null) return undefined;
  return { host: m[1] ?? m[2] ?? '', port: Number(m[3]) };
}
