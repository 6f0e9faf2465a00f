/**
 * componentstatuses (core/v1, deprecated since v1.19 but still served by v1.27): the health of
 * etcd (here: the storage backend), the scheduler and the controller manager, probed as upstream
 * probes them (https://127.0.0.1:10259/healthz and :10257/healthz, certificates not verified).
 */
import { request } from 'node:https';
import type { ResourceInfo } from '../../apis/resource.js';
import type { VirtualEndpoint } from '../../apiserver/virtual-endpoint.js';
import type { KubeObject } from '../../machinery/object.js';
import type { TableConvertor } from '../../machinery/table.js';
import { isJsonObject } from '../../util/json.js';
import type { JsonObject } from '../../util/json.js';

export const componentStatusesInfo: ResourceInfo = {
  group: '',
  version: 'v1',
  kind: 'ComponentStatus',
  resource: 'componentstatuses',
  singular: 'componentstatus',
  namespaced: false,
  shortNames: ['cs'],
  definition: 'io.k8s.api.core.v1.ComponentStatus',
  verbs: ['get', 'list'],
  stored: false,
};

interface Probe {
  readonly ok: boolean;
  readonly message: string;
  readonly error: string;
}

/** An HTTPS GET of a component's /healthz, worded like Go's net/http errors. */
function probeHealthz(url: string, signal: AbortSignal): Promise<Probe> {
  return new Promise((resolve) => {
    const req = request(url, { rejectUnauthorized: false, timeout: 1000, signal }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const ok = res.statusCode === 200 && body.trim() === 'ok';
        resolve(
          ok
            ? { ok, message: 'ok', error: '' }
            : { ok, message: body, error: `unhealthy: status code ${String(res.statusCode ?? 0)}` },
        );
      });
    });
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', (err: NodeJS.ErrnoException) => {
      const { hostname, port } = new URL(url);
      const reason =
        err.code === 'ECONNREFUSED'
          ? `dial tcp ${hostname}:${port}: connect: connection refused`
          : err.message;
      resolve({ ok: false, message: '', error: `Get ${JSON.stringify(url)}: ${reason}` });
    });
    req.end();
  });
}

function componentStatus(name: string, probe: Probe): KubeObject {
  const condition: JsonObject = { type: 'Healthy', status: probe.ok ? 'True' : 'False' };
  if (probe.message !== '') condition['message'] = probe.message;
  if (probe.error !== '') condition['error'] = probe.error;
  return {
    kind: 'ComponentStatus',
    apiVersion: 'v1',
    metadata: { name, creationTimestamp: null },
    conditions: [condition],
  };
}

/** upstream printComponentStatus: NAME, STATUS, MESSAGE, ERROR. */
const componentStatusTable: TableConvertor = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: 'The name of the component.', priority: 0 },
    {
      name: 'Status',
      type: 'string',
      format: '',
      description: 'Whether the component is healthy.',
      priority: 0,
    },
    { name: 'Message', type: 'string', format: '', description: 'What the component reported.', priority: 0 },
    {
      name: 'Error',
      type: 'string',
      format: '',
      description: 'Why the component could not be probed.',
      priority: 0,
    },
  ],
  cells(obj) {
    const conditions = Array.isArray(obj['conditions']) ? obj['conditions'].filter(isJsonObject) : [];
    const healthy = conditions.find((c) => c['type'] === 'Healthy');
    const status = healthy === undefined ? 'Unknown' : healthy['status'] === 'True' ? 'Healthy' : 'Unhealthy';
    const text = (v: unknown): string => (typeof v === 'string' ? v : '');
    return [obj.metadata.name ?? '', status, text(healthy?.['message']), text(healthy?.['error'])];
  },
};

export function componentStatusesEndpoint(storageHealthy: () => Promise<boolean>): VirtualEndpoint {
  return {
    info: componentStatusesInfo,
    table: componentStatusTable,
    warnings: ['v1 ComponentStatus is deprecated in v1.19+'],
    async list({ signal }) {
      const [scheduler, controllerManager, etcd] = await Promise.all([
        probeHealthz('https://127.0.0.1:10259/healthz', signal),
        probeHealthz('https://127.0.0.1:10257/healthz', signal),
        storageHealthy().then((ok): Probe =>
          ok
            ? { ok, message: '{"health":"true","reason":""}', error: '' }
            : { ok, message: '', error: 'storage is not available' },
        ),
      ]);
      return [
        componentStatus('controller-manager', controllerManager),
        componentStatus('etcd-0', etcd),
        componentStatus('scheduler', scheduler),
      ];
    },
  };
}
