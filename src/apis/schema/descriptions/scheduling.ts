/** Our own words for affinity, tolerations and topology spread. Not upstream's. */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';

const ignoredLater = 'Only checked when the pod is scheduled: a later change does not move a running pod.';

export const schedulingTexts: DescriptionTable = {
  [`${core}Affinity`]: {
    text: 'Scheduling rules relating the pod to nodes and to other pods.',
    fields: {
      nodeAffinity: 'Rules about which nodes the pod may, or prefers to, run on.',
      podAffinity: 'Rules placing the pod near pods that match a selector (same node, zone...).',
      podAntiAffinity: 'Rules keeping the pod away from pods that match a selector.',
    },
  },
  [`${core}NodeAffinity`]: {
    text: 'Rules about the nodes a pod may run on, by node labels and fields.',
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: `Nodes must match for the pod to be placed there. ${ignoredLater}`,
      preferredDuringSchedulingIgnoredDuringExecution:
        'Weighted preferences: nodes matching more (and heavier) terms score higher. Nodes that match none can still be chosen.',
    },
  },
  [`${core}NodeSelector`]: {
    text: 'A node selector: a node matches when it matches any of the terms.',
    fields: { nodeSelectorTerms: 'The terms, combined with OR. Required.' },
  },
  [`${core}NodeSelectorTerm`]: {
    text: 'Conditions on a node; all must hold. An empty term matches no node.',
    fields: {
      matchExpressions: 'Conditions on node labels.',
      matchFields: 'Conditions on node fields (only metadata.name is supported).',
    },
  },
  [`${core}NodeSelectorRequirement`]: {
    text: 'One condition on a node label or field.',
    fields: {
      key: 'The label key or field name.',
      operator: '"In", "NotIn", "Exists", "DoesNotExist", "Gt" or "Lt".',
      values:
        'The values: one or more for In and NotIn, none for Exists and DoesNotExist, a single integer for Gt and Lt.',
    },
  },
  [`${core}PreferredSchedulingTerm`]: {
    text: 'A node preference and its weight.',
    fields: {
      preference: 'The node conditions.',
      weight: 'How much matching nodes gain, 1 to 100.',
    },
  },
  [`${core}PodAffinity`]: {
    text: 'Rules placing a pod in the same topology domain (node, zone...) as other pods.',
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: `Every term must be met by some pod in the chosen domain. ${ignoredLater}`,
      preferredDuringSchedulingIgnoredDuringExecution:
        'Weighted preferences: domains with more matching pods score higher.',
    },
  },
  [`${core}PodAntiAffinity`]: {
    text: 'Rules keeping a pod out of topology domains (node, zone...) that hold certain pods.',
    fields: {
      requiredDuringSchedulingIgnoredDuringExecution: `No pod matching a term may run in the chosen domain. ${ignoredLater}`,
      preferredDuringSchedulingIgnoredDuringExecution:
        'Weighted preferences: domains with fewer matching pods score higher.',
    },
  },
  [`${core}PodAffinityTerm`]: {
    text: 'A set of pods, and the topology key whose domains the rule is about.',
    fields: {
      labelSelector: 'The pods the term is about.',
      namespaces:
        "Namespaces to look for those pods in; with namespaceSelector unset, empty means the pod's own namespace.",
      namespaceSelector:
        'Namespaces, by label, to look for those pods in, added to namespaces; an empty selector means all namespaces.',
      topologyKey:
        'A node label key: nodes with the same value form one domain, e.g. "kubernetes.io/hostname" or "topology.kubernetes.io/zone". Required.',
    },
  },
  [`${core}WeightedPodAffinityTerm`]: {
    text: 'A pod affinity term and its weight.',
    fields: {
      podAffinityTerm: 'The term.',
      weight: 'How much a matching domain gains (or loses, for anti-affinity), 1 to 100.',
    },
  },
  [`${core}Toleration`]: {
    text: 'Lets a pod be scheduled onto, or keep running on, nodes with a matching taint.',
    fields: {
      key: 'The taint key matched; empty, with operator Exists, matches every taint.',
      operator: '"Equal" (default: key and value must match) or "Exists" (any value).',
      value: 'The taint value matched with operator Equal; empty for Exists.',
      effect:
        'The taint effect matched: "NoSchedule", "PreferNoSchedule" or "NoExecute"; empty matches all effects.',
      tolerationSeconds:
        'For NoExecute taints only: how long the pod may stay after the taint appears before it is evicted. Unset means forever.',
    },
  },
  [`${core}TopologySpreadConstraint`]: {
    text: 'How evenly matching pods should be spread over the domains of a topology key.',
    fields: {
      maxSkew:
        'The largest allowed difference in matching pods between the fullest domain and the emptiest eligible one. At least 1.',
      topologyKey:
        'A node label key; nodes with the same value form one domain, e.g. "topology.kubernetes.io/zone".',
      whenUnsatisfiable:
        'What to do when the pod cannot be placed within maxSkew: "DoNotSchedule" (wait) or "ScheduleAnyway" (prefer the least skewed domains).',
      labelSelector: 'The pods counted in each domain.',
      minDomains:
        'The number of domains there should be at least; with fewer, the empty ones count as zero. Only with DoNotSchedule.',
      nodeAffinityPolicy:
        'Whether the pod\'s node affinity and selector limit the domains counted: "Honor" (default) or "Ignore".',
      nodeTaintsPolicy:
        'Whether tainted nodes the pod does not tolerate are left out of the domains: "Honor" or "Ignore" (default).',
      matchLabelKeys:
        'Label keys whose values are taken from the incoming pod and added to the selector, e.g. "pod-template-hash".',
    },
  },
};
