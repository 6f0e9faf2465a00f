/**
 * `--controllers` as kube-controller-manager reads it: `*` turns on every controller that is on by
 * default, `name` turns one on, `-name` turns one off; names are upstream's. Names upstream knows
 * but nanokube does not run yet are accepted (a manifest written for a real cluster keeps working)
 * and reported, so nobody believes they run.
 */
import { FlagError } from '../serve/flags.js';

/** Controllers nanokube runs, with whether `*` includes them. */
export const implementedControllers: Readonly<Record<string, boolean>> = {
  namespace: true,
  serviceaccount: true,
  'root-ca-cert-publisher': true,
  'serviceaccount-token': true,
  garbagecollector: true,
  replicaset: true,
  replicationcontroller: true,
  deployment: true,
  resourcequota: true,
  csrsigning: true,
  csrapproving: true,
  disruption: true,
  nodelifecycle: true,
  podgc: true,
  statefulset: true,
  daemonset: true,
  job: true,
  cronjob: true,
  'ttl-after-finished': true,
  'pvc-protection': true,
  'pv-protection': true,
  'persistentvolume-binder': true,
  endpoint: true,
  endpointslice: true,
  endpointslicemirroring: true,
  nodeipam: true,
  'clusterrole-aggregation': true,
};

/** kube-controller-manager v1.27's names; the off-by-default ones are marked false. */
const upstreamControllers: Readonly<Record<string, boolean>> = {
  attachdetach: true,
  bootstrapsigner: false,
  'cloud-node-lifecycle': true,
  'clusterrole-aggregation': true,
  cronjob: true,
  csrapproving: true,
  csrcleaner: true,
  csrsigning: true,
  daemonset: true,
  deployment: true,
  disruption: true,
  endpoint: true,
  endpointslice: true,
  endpointslicemirroring: true,
  'ephemeral-volume': true,
  garbagecollector: true,
  horizontalpodautoscaling: true,
  job: true,
  namespace: true,
  nodeipam: true,
  nodelifecycle: true,
  'persistentvolume-binder': true,
  'persistentvolume-expander': true,
  podgc: true,
  'pv-protection': true,
  'pvc-protection': true,
  replicaset: true,
  replicationcontroller: true,
  'resource-claim-controller': false,
  resourcequota: true,
  'root-ca-cert-publisher': true,
  route: true,
  service: true,
  serviceaccount: true,
  'serviceaccount-token': true,
  statefulset: true,
  'storage-version-gc': true,
  tokencleaner: false,
  ttl: true,
  'ttl-after-finished': true,
};

export interface ControllerSelection {
  /** Implemented controllers to run. */
  readonly enabled: ReadonlySet<string>;
  /** Requested (explicitly or through `*`) but not built yet. */
  readonly unavailable: readonly string[];
}

/** Parses `--controllers` (default `*`). */
export function parseControllers(
  spec: string,
  implemented: Readonly<Record<string, boolean>> = implementedControllers,
): ControllerSelection {
  const items = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const known = (name: string): boolean => name in upstreamControllers || name in implemented;
  for (const item of items) {
    const name = item.startsWith('-') ? item.slice(1) : item;
    if (item !== '*' && !known(name)) {
      throw new FlagError(`"${name}" is not in the list of known controllers`);
    }
  }
  const wants = (name: string, onByDefault: boolean): boolean => {
    if (items.includes(name)) return true;
    if (items.includes(`-${name}`)) return false;
    return items.includes('*') && onByDefault;
  };
  const enabled = new Set<string>();
  const unavailable: string[] = [];
  for (const [name, onByDefault] of Object.entries({ ...upstreamControllers, ...implemented })) {
    if (!wants(name, onByDefault)) continue;
    if (name in implemented) enabled.add(name);
    else unavailable.push(name);
  }
  return { enabled, unavailable: unavailable.sort() };
}
