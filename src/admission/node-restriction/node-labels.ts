/**
 * The Node labels a kubelet may set on its own Node (NodeRestriction with k8s.io/kubelet's
 * well-known labels, v1.27): labels under `node-restriction.kubernetes.io/` (or a subdomain of it)
 * never; other `kubernetes.io` and `k8s.io` labels (and their subdomains) only when they are
 * kubelet labels: the fixed list below, or under `kubelet.kubernetes.io` or `node.kubernetes.io`
 * (or their subdomains). Labels of other namespaces are free.
 */

/** Label keys a kubelet sets on its own Node (k8s.io/kubelet/pkg/apis kubeletLabels). */
export const kubeletLabels: ReadonlySet<string> = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);

/** Label namespaces (and their subdomains) a kubelet may use freely. */
export const kubeletLabelNamespaces: readonly string[] = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** v1.LabelNamespaceNodeRestriction. */
export const nodeRestrictionLabelNamespace = 'node-restriction.kubernetes.io';

/** The part of a key before its first '/', '' when it has none. */
export function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inNamespace(namespace: string, domain: string): boolean {
  return namespace === domain || namespace.endsWith(`.${domain}`);
}

export function isKubeletLabel(key: string): boolean {
  if (kubeletLabels.has(key)) return true;
  const namespace = labelNamespace(key);
  return kubeletLabelNamespaces.some((allowed) => inNamespace(namespace, allowed));
}

function isKubernetesLabel(key: string): boolean {
  const namespace = labelNamespace(key);
  return inNamespace(namespace, 'kubernetes.io') || inNamespace(namespace, 'k8s.io');
}

/** Keys whose presence or value differs between the two label maps. */
export function modifiedLabels(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): Set<string> {
  const modified = new Set<string>();
  for (const [k, v] of Object.entries(a)) if (!Object.hasOwn(b, k) || b[k] !== v) modified.add(k);
  for (const [k, v] of Object.entries(b)) if (!Object.hasOwn(a, k) || a[k] !== v) modified.add(k);
  return modified;
}

/** The modified keys a node may not add, remove or change, sorted (Go's sets.String.List()). */
export function forbiddenLabels(modified: Iterable<string>): string[] {
  const forbidden: string[] = [];
  for (const key of modified) {
    const restricted = inNamespace(labelNamespace(key), nodeRestrictionLabelNamespace);
    if (restricted || (isKubernetesLabel(key) && !isKubeletLabel(key))) forbidden.push(key);
  }
  return forbidden.sort();
}
