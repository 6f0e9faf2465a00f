/**
 * `/metrics`: every registered metric in the Prometheus text format (version 0.0.4), as
 * kube-apiserver's legacy registry handler serves it. Authorization is the chain's: a non-resource
 * path no public-info rule covers, so anonymous requests get upstream's 403.
 */
import { collectProcessMetrics, metricsContentType, renderMetrics } from '../../util/metrics.js';
import type { ServerResponseLike } from '../response.js';

export const metricsPath = '/metrics';

/** Registers what every server exposes besides its own metrics (process and runtime). */
export function initMetrics(): void {
  collectProcessMetrics();
}

export async function handleMetrics(res: ServerResponseLike): Promise<void> {
  const body = await renderMetrics();
  res.writeHead(200, {
    'content-type': metricsContentType,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
