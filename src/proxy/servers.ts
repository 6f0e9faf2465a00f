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

export function healthServer(proxier: Pick<Proxier, 'health'>): Server {
  return createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/healthz') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    const h = proxier.health();
    const current = goTime(h.now);
    const last = h.healthy ? current : goTime(h.lastUpdated);
    res
      .writeHead(h.healthy ? 200 : 503, json)
      .end(`{"lastUpdated": ${JSON.stringify(last)},"currentTime": ${JSON.stringify(current)}}`);
  });
}

export function metricsServer(metrics: ProxyMetrics): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const text = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };
    if (path === '/healthz') res.writeHead(200, text).end('ok');
    else if (path === '/proxyMode') res.writeHead(200, text).end('iptables');
    else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (body) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(body),
        (err: unknown) => res.writeHead(500, text).end(String(err)),
      );
    } else res.writeHead(404, text).end('404 page not found\n');
  });
}

/** `host:port` (IPv6 in brackets) as kube-proxy's bind address flags take it. */
export function splitHostPort(address: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(address);
  if (m === null) return undefined;
  return { host: m[1] ?? m[2] ?? '', port: Number(m[3]) };
}
