/** Our own words for probes and the handlers they and lifecycle hooks run. Not upstream's. */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';

const handlerFields = {
  exec: 'Run a command inside the container; exit status 0 counts as success.',
  httpGet: 'Send an HTTP GET request; a status from 200 to 399 counts as success.',
  tcpSocket: 'Open a TCP connection; success when it connects.',
} as const;

export const probeTexts: DescriptionTable = {
  [`${core}Probe`]: {
    text: 'A check the kubelet runs against a container at intervals. Exactly one of exec, httpGet, tcpSocket and grpc is set.',
    fields: {
      ...handlerFields,
      grpc: 'Call the standard gRPC health checking service; success when it reports SERVING.',
      initialDelaySeconds: 'Seconds after the container starts before the first check.',
      periodSeconds: 'Seconds between checks. Defaults to 10; at least 1.',
      timeoutSeconds: 'Seconds after which a check counts as failed. Defaults to 1.',
      successThreshold:
        'Consecutive successes needed, after a failure, to count as healthy again. Defaults to 1, the only value liveness and startup probes accept.',
      failureThreshold: 'Consecutive failures after which the probe counts as failed. Defaults to 3.',
      terminationGracePeriodSeconds:
        "Seconds the container gets to stop after this probe fails, overriding the pod's grace period (liveness and startup probes only).",
    },
  },
  [`${core}LifecycleHandler`]: {
    text: 'What a lifecycle hook runs. Exactly one of exec, httpGet and tcpSocket is set; tcpSocket is kept for compatibility and not supported as a hook.',
    fields: handlerFields,
  },
  [`${core}ExecAction`]: {
    text: 'A command run inside the container.',
    fields: {
      command:
        'The command and its arguments. It runs directly, not in a shell: use ["sh", "-c", "..."] for shell syntax. Exit status 0 means success.',
    },
  },
  [`${core}HTTPGetAction`]: {
    text: 'An HTTP GET request sent by the kubelet.',
    fields: {
      path: 'The request path, e.g. "/healthz".',
      port: 'The port, as a number or as the name of a container port.',
      host: "The host name or address to call; the pod's IP when empty. Set a Host header through httpHeaders instead.",
      scheme: '"HTTP" (default) or "HTTPS"; certificates are not verified.',
      httpHeaders: 'Extra request headers; repeated names are allowed.',
    },
  },
  [`${core}HTTPHeader`]: {
    text: 'One HTTP header.',
    fields: {
      name: 'The header name; it is canonicalized when sent.',
      value: 'The header value.',
    },
  },
  [`${core}TCPSocketAction`]: {
    text: 'A TCP connection attempt.',
    fields: {
      port: 'The port, as a number or as the name of a container port.',
      host: "The host name or address to dial; the pod's IP when empty.",
    },
  },
  [`${core}GRPCAction`]: {
    text: 'A call to the gRPC health checking protocol.',
    fields: {
      port: 'The port number of the gRPC server (1-65535).',
      service: 'The service name sent in the health check request; empty asks about the server as a whole.',
    },
  },
};
