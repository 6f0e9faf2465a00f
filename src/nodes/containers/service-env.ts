/**
 * The service variables the kubelet (v1.27) puts in every container's environment: for the
 * `kubernetes` service of the default namespace always, and for the services of the pod's own
 * namespace when `enableServiceLinks` is not false. Each service with a cluster IP gives
 * `<NAME>_SERVICE_HOST`, `<NAME>_SERVICE_PORT` (its first port), `<NAME>_SERVICE_PORT_<PORT_NAME>`
 * per named port, and the Docker-link style `<NAME>_PORT`, `<NAME>_PORT_<port>_<PROTO>[_PROTO|
 * _PORT|_ADDR]` (upstream pkg/kubelet/envvars).
 */
import type { JsonObject } from '../../util/json.js';
import { metaOf, numAt, objAt, objsAt, strAt } from '../json.js';
import { joinHostPort } from '../../util/host-port.js';

function envName(s: string): string {
  return s.replace(/-/g, '_').toUpperCase();
}

/** The variables of one service, in the kubelet's order. */
function fromService(svc: JsonObject): [string, string][] {
  const spec = objAt(svc, 'spec');
  const ip = strAt(spec, 'clusterIP') ?? '';
  const ports = objsAt(spec, 'ports');
  if (ip === '' || ip === 'None' || ports.length === 0) return [];
  const prefix = envName(strAt(metaOf(svc), 'name') ?? '');
  const out: [string, string][] = [
    [`${prefix}_SERVICE_HOST`, ip],
    [`${prefix}_SERVICE_PORT`, String(numAt(ports[0], 'port') ?? 0)],
  ];
  for (const p of ports) {
    const name = strAt(p, 'name') ?? '';
    if (name !== '') out.push([`${prefix}_SERVICE_PORT_${envName(name)}`, String(numAt(p, 'port') ?? 0)]);
  }
  ports.forEach((p, i) => {
    const port = numAt(p, 'port') ?? 0;
    const protocol = strAt(p, 'protocol') ?? 'TCP';
    const url = `${protocol.toLowerCase()}://${joinHostPort(ip, port)}`;
    if (i === 0) out.push([`${prefix}_PORT`, url]);
    const portPrefix = `${prefix}_PORT_${port}_${protocol.toUpperCase()}`;
    out.push(
      [portPrefix, url],
      [`${portPrefix}_PROTO`, protocol.toLowerCase()],
      [`${portPrefix}_PORT`, String(port)],
      [`${portPrefix}_ADDR`, ip],
    );
  });
  return out;
}

/** The service variables for a pod in `namespace`, from every service the node knows. */
export function serviceEnv(
  services: readonly JsonObject[],
  namespace: string,
  enableServiceLinks: boolean,
): Map<string, string> {
  const chosen = new Map<string, JsonObject>();
  for (const svc of services) {
    const meta = metaOf(svc);
    const name = strAt(meta, 'name') ?? '';
    const ns = strAt(meta, 'namespace') ?? '';
    if (ns === 'default' && name === 'kubernetes') {
      if (!chosen.has(name)) chosen.set(name, svc);
    } else if (ns === namespace && enableServiceLinks) chosen.set(name, svc);
  }
  const env = new Map<string, string>();
  for (const name of [...chosen.keys()].sort())
    for (const [k, v] of fromService(chosen.get(name)!)) env.set(k, v);
  return env;
}
