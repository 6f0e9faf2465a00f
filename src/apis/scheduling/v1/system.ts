/**
 * The system priority classes kube-apiserver creates at start-up, and the rule that reserves the
 * `system-` prefix for them (upstream pkg/apis/scheduling and pkg/apis/scheduling/v1/helpers.go).
 */

/** Names with this prefix are reserved for the system priority classes. */
export const systemPriorityClassPrefix = 'system-';
/** The largest value a user-defined priority class may have. */
export const highestUserDefinablePriority = 1_000_000_000;
/** The value of system-cluster-critical; system-node-critical is 1000 higher. */
export const systemCriticalPriority = 2 * highestUserDefinablePriority;

export interface SystemPriorityClass {
  readonly name: string;
  readonly value: number;
  readonly globalDefault: boolean;
  readonly description: string;
}

/** In upstream's order; their descriptions are what clients read back, so they are kept verbatim. */
export const systemPriorityClassList: readonly SystemPriorityClass[] = [
  {
    name: 'system-node-critical',
    value: systemCriticalPriority + 1000,
    globalDefault: false,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: systemCriticalPriority,
    globalDefault: false,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/**
 * Upstream IsKnownSystemPriorityClass: undefined when name, value and globalDefault match a system
 * class exactly, otherwise the reason it does not.
 */
export function knownSystemPriorityClassError(
  name: string,
  value: number,
  globalDefault: boolean,
): string | undefined {
  const spc = systemPriorityClassList.find((c) => c.name === name);
  if (spc === undefined) return `${name} is not a known system priority class`;
  if (spc.value !== value) return `value of ${spc.name} PriorityClass must be ${spc.value}`;
  if (spc.globalDefault !== globalDefault) {
    return `globalDefault of ${spc.name} PriorityClass must be ${String(spc.globalDefault)}`;
  }
  return undefined;
}
