/**
 * Our own words for the pod spec, containers and what they refer to (ports, environment, mounts,
 * resources). Upstream's sentences are not copied.
 */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';

const containerFields: Readonly<Record<string, string>> = {
  name: "The container's name, a DNS label unique within the pod. Cannot change.",
  image: 'The container image to run, e.g. "nginx:1.25" or a digest reference.',
  imagePullPolicy:
    'When the kubelet pulls the image: "Always", "IfNotPresent" or "Never". Defaults to Always for the tag "latest" or no tag, otherwise IfNotPresent.',
  command:
    "The program to run, replacing the image's ENTRYPOINT. Not run in a shell; $(VAR) is replaced by the variable's value and $$ gives a literal $.",
  args: "Arguments for the program, replacing the image's CMD. $(VAR) references are expanded as in command.",
  workingDir: "The directory the program starts in; the image's default when empty.",
  ports: 'Ports the container listens on. Informational: a port not listed here is still reachable.',
  env: 'Environment variables set in the container, in order; later entries may refer to earlier ones with $(NAME).',
  envFrom:
    'Config maps or secrets whose every key becomes an environment variable. Entries in env win over these.',
  resources: 'The compute resources (CPU, memory, ...) the container requests and may at most use.',
  resizePolicy: 'For each resource, whether changing it in place needs a container restart (alpha).',
  volumeMounts: "Volumes of the pod mounted into the container's filesystem.",
  volumeDevices: 'Block volumes of the pod exposed to the container as raw devices.',
  livenessProbe: 'A check run periodically; when it fails often enough, the container is restarted.',
  readinessProbe: 'A check run periodically; while it fails, the pod is taken out of service endpoints.',
  startupProbe:
    'A check that must succeed once before the other probes begin; when it fails often enough, the container is restarted.',
  lifecycle: 'Actions run right after the container starts and right before it is stopped.',
  terminationMessagePath:
    'The file whose contents become the termination message when the container ends. Defaults to /dev/termination-log.',
  terminationMessagePolicy:
    'Where the termination message comes from: "File" (default) or "FallbackToLogsOnError" (use the end of the log when a failed container left no message file).',
  securityContext:
    "Security settings for this container (user, capabilities, privilege...); they override the pod's.",
  stdin: 'Whether the container gets a standard input stream; otherwise reads from it see end of file.',
  stdinOnce:
    'Whether standard input is closed after the first attach session ends (and stays closed until the container restarts).',
  tty: 'Whether the container gets a terminal; usually set together with stdin.',
};

export const podTexts: DescriptionTable = {
  [`${core}PodSpec`]: {
    text: 'What a pod should run and how: its containers, volumes and scheduling and security settings.',
    fields: {
      containers: 'The containers of the pod; at least one. Containers cannot be added or removed later.',
      initContainers:
        'Containers run one after another, each to completion, before the regular containers start.',
      ephemeralContainers:
        'Temporary containers added to a running pod for debugging, through the ephemeralcontainers subresource.',
      volumes: 'Volumes the containers of the pod can mount.',
      restartPolicy:
        'When containers are restarted after they exit: "Always" (default), "OnFailure" or "Never".',
      terminationGracePeriodSeconds:
        'Seconds between the stop signal and a forced kill when the pod is deleted. Defaults to 30.',
      activeDeadlineSeconds:
        'A limit, in seconds from its start, on how long the pod may run; past it the system marks the pod failed.',
      dnsPolicy:
        'How DNS is set up for the pod: "ClusterFirst" (default), "ClusterFirstWithHostNet", "Default" or "None".',
      dnsConfig: 'Extra DNS settings (name servers, searches, options) merged with those the policy gives.',
      nodeSelector: 'Node labels (key and value) a node must carry to be eligible for this pod.',
      nodeName:
        'The node the pod runs on. Normally set by the scheduler; setting it directly skips scheduling.',
      serviceAccountName: 'The service account the pod runs as. Defaults to "default".',
      serviceAccount: 'Deprecated alias of serviceAccountName.',
      automountServiceAccountToken: 'Whether an API token for the service account is mounted into the pod.',
      hostNetwork: "Whether the pod uses the node's network namespace. Ports are then the node's ports.",
      hostPID: "Whether the pod shares the node's process ID namespace.",
      hostIPC: "Whether the pod shares the node's IPC namespace.",
      hostUsers:
        "Whether the pod uses the node's user namespace (true, the default) or a user namespace of its own.",
      shareProcessNamespace:
        "Whether the containers of the pod share one process namespace and so see each other's processes.",
      securityContext: 'Security settings for the whole pod; container settings override them.',
      imagePullSecrets: "Secrets in the pod's namespace with credentials for pulling the images.",
      hostname: "The pod's host name; defaults to the pod's name.",
      subdomain:
        'When set, the pod\'s fully qualified name is "<hostname>.<subdomain>.<namespace>.svc.<cluster domain>".',
      setHostnameAsFQDN: 'Whether the kernel host name is the fully qualified name instead of the short one.',
      affinity: 'Rules attracting the pod to nodes, or to or away from other pods.',
      schedulerName: 'The scheduler that places the pod. Defaults to the default scheduler.',
      tolerations: 'Taints of nodes this pod tolerates.',
      hostAliases: "Extra entries written into the pod's /etc/hosts.",
      priorityClassName: "The priority class whose value becomes the pod's priority.",
      priority: "The pod's priority, filled in from the priority class by admission.",
      preemptionPolicy:
        'Whether this pod may preempt lower-priority pods: "PreemptLowerPriority" (default) or "Never".',
      readinessGates: 'Extra conditions that must be true for the pod to count as ready.',
      runtimeClassName: "The runtime class the pod's containers run with.",
      enableServiceLinks:
        'Whether variables describing the services of the namespace are set in the containers (Docker-links style). Defaults to true.',
      overhead: 'Resources the pod uses beyond its containers, set from the runtime class by admission.',
      topologySpreadConstraints:
        'How the pod and its peers should be spread across zones, nodes or other domains.',
      os: 'The operating system the pod needs; some fields are checked against it.',
      schedulingGates:
        'While any gate remains, the pod is not scheduled. Gates can only be removed after creation.',
      resourceClaims: 'Resource claims the pod uses, by name, for its containers to refer to (alpha).',
    },
  },
  [`${core}PodTemplateSpec`]: {
    text: 'The pod a controller creates: labels and annotations, and the pod spec.',
    fields: {
      metadata: 'Labels and annotations given to every pod made from the template.',
      spec: 'The spec of every pod made from the template.',
    },
  },
  [`${core}Container`]: {
    text: 'One container of a pod: an image and how to run it.',
    fields: containerFields,
  },
  [`${core}EphemeralContainer`]: {
    text: 'A temporary container added to a running pod, usually for debugging. It is never restarted and has no ports, probes or resources.',
    fields: {
      ...containerFields,
      ports: 'Not allowed for ephemeral containers.',
      livenessProbe: 'Not allowed for ephemeral containers.',
      readinessProbe: 'Not allowed for ephemeral containers.',
      startupProbe: 'Not allowed for ephemeral containers.',
      lifecycle: 'Not allowed for ephemeral containers.',
      resources: 'Not allowed for ephemeral containers: they use what the pod already has.',
      targetContainerName:
        "A container of the pod whose process namespace this one joins; unset means the pod's shared namespace, if any.",
    },
  },
  [`${core}ContainerPort`]: {
    text: 'A network port of a container.',
    fields: {
      containerPort: 'The port number the container listens on (1-65535).',
      name: 'A name for the port that services can refer to; an IANA service name, unique in the pod.',
      protocol: 'The protocol: "TCP" (default), "UDP" or "SCTP".',
      hostPort: 'A port of the node forwarded to this port; rarely needed.',
      hostIP: 'The node address hostPort binds to.',
    },
  },
  [`${core}EnvVar`]: {
    text: 'An environment variable of a container.',
    fields: {
      name: "The variable's name.",
      value:
        'The value. $(VAR) references to earlier variables are expanded; $$ gives a literal $. Defaults to "".',
      valueFrom:
        'Take the value from a config map, a secret, a field of the pod or a resource value instead.',
    },
  },
  [`${core}EnvVarSource`]: {
    text: "Where an environment variable's value comes from; exactly one source is set.",
    fields: {
      configMapKeyRef: 'A key of a config map.',
      secretKeyRef: 'A key of a secret.',
      fieldRef:
        'A field of the pod: metadata.name, metadata.namespace, metadata.uid, a label or annotation, spec.nodeName, spec.serviceAccountName, status.hostIP, status.podIP or status.podIPs.',
      resourceFieldRef: 'A resource request or limit of a container, e.g. limits.memory.',
    },
  },
  [`${core}EnvFromSource`]: {
    text: 'A config map or secret all of whose keys become environment variables.',
    fields: {
      prefix: 'Text put in front of every variable name.',
      configMapRef: 'The config map to read.',
      secretRef: 'The secret to read.',
    },
  },
  [`${core}ConfigMapKeySelector`]: {
    text: 'One key of a config map.',
    fields: {
      name: "The config map's name.",
      key: 'The key to read.',
      optional: 'Whether the config map or the key may be missing.',
    },
  },
  [`${core}SecretKeySelector`]: {
    text: 'One key of a secret.',
    fields: {
      name: "The secret's name.",
      key: 'The key to read.',
      optional: 'Whether the secret or the key may be missing.',
    },
  },
  [`${core}ObjectFieldSelector`]: {
    text: 'A field of the pod, by path.',
    fields: {
      fieldPath: 'The path of the field, e.g. metadata.name.',
      apiVersion: 'The API version the path is written in. Defaults to "v1".',
    },
  },
  [`${core}ResourceFieldSelector`]: {
    text: 'A resource request or limit of a container.',
    fields: {
      containerName: 'The container; required in volumes, optional for environment variables.',
      resource: 'Which value, e.g. "limits.cpu" or "requests.memory".',
      divisor: 'The unit the value is given in, e.g. "1m" or "1Mi". Defaults to "1".',
    },
  },
  [`${core}VolumeMount`]: {
    text: 'Where a volume of the pod appears in a container.',
    fields: {
      name: 'The name of the pod volume to mount.',
      mountPath: 'The path in the container where the volume appears; may not contain ":".',
      readOnly: 'Whether the mount is read-only. Defaults to false.',
      subPath: 'A path inside the volume to mount instead of its root.',
      subPathExpr:
        "Like subPath, but $(VAR) references to the container's environment are expanded. Exclusive with subPath.",
      mountPropagation:
        'Whether mounts propagate between host and container: "None" (default), "HostToContainer" or "Bidirectional".',
    },
  },
  [`${core}VolumeDevice`]: {
    text: 'A block volume of the pod exposed in a container as a device.',
    fields: {
      name: 'The name of a persistentVolumeClaim volume of the pod.',
      devicePath: 'The device path inside the container.',
    },
  },
  [`${core}ResourceRequirements`]: {
    text: 'The compute resources a container asks for and the most it may use.',
    fields: {
      requests:
        'The resources reserved for the container; the scheduler places the pod on a node with this much free. Defaults to the limits when only those are set.',
      limits: 'The most the container may use. Exceeding the memory limit gets it killed; CPU is throttled.',
      claims: "Names of the pod's resource claims this container uses (alpha).",
    },
  },
  [`${core}ResourceClaim`]: {
    text: "Refers to one of the pod's resource claims.",
    fields: { name: "The name of an entry in the pod's spec.resourceClaims." },
  },
  [`${core}ContainerResizePolicy`]: {
    text: 'Whether changing one resource of a running container needs a restart.',
    fields: {
      resourceName: 'The resource, "cpu" or "memory".',
      restartPolicy: '"NotRequired" (default) or "RestartContainer".',
    },
  },
  [`${core}Lifecycle`]: {
    text: 'Actions the kubelet runs when a container starts and before it stops.',
    fields: {
      postStart:
        'Runs right after the container is created. If it fails, the container is killed and handled by the restart policy.',
      preStop:
        'Runs before the container is stopped (deletion, probe failure, preemption...). The grace period keeps counting while it runs.',
    },
  },
  [`${core}PodDNSConfig`]: {
    text: 'DNS settings of a pod, merged into those its DNS policy gives.',
    fields: {
      nameservers: 'Name server addresses added to the list.',
      searches: 'Search domains added to the list.',
      options: 'Resolver options; an option given here replaces one of the same name.',
    },
  },
  [`${core}PodOS`]: {
    text: 'The operating system a pod needs.',
    fields: { name: '"linux" or "windows".' },
  },
  [`${core}PodSchedulingGate`]: {
    text: 'A gate that keeps a pod from being scheduled while it is present.',
    fields: { name: "The gate's name, unique in the pod." },
  },
  [`${core}PodResourceClaim`]: {
    text: 'A resource claim a pod uses, under a name its containers refer to (alpha).',
    fields: {
      name: 'The name containers use for the claim, unique in the pod.',
      source: 'An existing claim, or a template from which a claim is made for this pod.',
    },
  },
  [`${core}HostAlias`]: {
    text: "An entry of the pod's /etc/hosts.",
    fields: { ip: 'The address.', hostnames: 'The host names for the address.' },
  },
  [`${core}LocalObjectReference`]: {
    text: 'Names an object in the same namespace.',
    fields: { name: "The object's name." },
  },
};
