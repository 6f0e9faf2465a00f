/** Our own words for the Service spec and ports. Not upstream's. */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';

export const serviceTexts: DescriptionTable = {
  [`${core}ServiceSpec`]: {
    text: 'The desired state of a service.',
    fields: {
      type: 'How the service is exposed: "ClusterIP" (default, inside the cluster), "NodePort" (also on a port of every node), "LoadBalancer" (also through an external load balancer) or "ExternalName" (a DNS alias).',
      selector:
        'The pods traffic goes to, by label. Without a selector, endpoints are managed by someone else.',
      ports: 'The ports the service exposes.',
      clusterIP:
        'The service\'s virtual address, usually allocated at creation. "None" makes a headless service. Cannot change once set.',
      clusterIPs:
        "The service's virtual addresses, one per IP family (the first equals clusterIP). Cannot change once set.",
      ipFamilies: 'The IP families ("IPv4", "IPv6") of the service\'s addresses, in order.',
      ipFamilyPolicy:
        '"SingleStack" (default), "PreferDualStack" or "RequireDualStack": how many IP families the service gets.',
      externalName: "For type ExternalName: the DNS name the service's name points at (a CNAME record).",
      externalIPs:
        'Further addresses, not managed by Kubernetes, on which nodes accept traffic for the service.',
      sessionAffinity: '"None" (default) or "ClientIP": send each client\'s connections to the same pod.',
      sessionAffinityConfig: 'Settings of the session affinity.',
      loadBalancerIP: 'Deprecated: an address to ask the load balancer for; providers may ignore it.',
      loadBalancerSourceRanges:
        'Client CIDRs the load balancer lets through, where the provider supports it.',
      loadBalancerClass:
        "The load balancer implementation to use; unset means the cloud provider's default. Cannot change.",
      allocateLoadBalancerNodePorts:
        'For type LoadBalancer: whether node ports are allocated. Defaults to true.',
      externalTrafficPolicy:
        'How traffic from outside is routed: "Cluster" (default, to any pod) or "Local" (only to pods on the receiving node, keeping the client address).',
      internalTrafficPolicy:
        'How traffic from inside the cluster is routed: "Cluster" (default) or "Local" (only to pods on the same node).',
      healthCheckNodePort:
        'For type LoadBalancer with externalTrafficPolicy Local: the node port where the load balancer checks node health.',
      publishNotReadyAddresses:
        "Whether pods that are not ready are also published in the service's endpoints and DNS.",
    },
  },
  [`${core}ServicePort`]: {
    text: 'One port of a service.',
    fields: {
      name: "The port's name, required when there are several ports; endpoints refer to it.",
      protocol: '"TCP" (default), "UDP" or "SCTP".',
      port: 'The port the service listens on.',
      targetPort: 'The pod port traffic goes to, as a number or as a named container port. Defaults to port.',
      nodePort:
        'For NodePort and LoadBalancer services: the port opened on every node; allocated from the node port range when unset.',
      appProtocol:
        'The application protocol, e.g. "http" or "kubernetes.io/h2c"; a hint for implementations.',
    },
  },
  [`${core}SessionAffinityConfig`]: {
    text: 'Settings of session affinity.',
    fields: { clientIP: 'Settings of ClientIP affinity.' },
  },
  [`${core}ClientIPConfig`]: {
    text: 'Settings of ClientIP session affinity.',
    fields: {
      timeoutSeconds: 'How long a client sticks to the same pod, 1 to 86400 seconds. Defaults to 10800.',
    },
  },
};
