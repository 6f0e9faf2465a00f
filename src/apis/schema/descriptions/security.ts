/** Our own words for pod and container security settings. Not upstream's. */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';

const sharedFields = {
  runAsUser: "The user ID the processes run as; the image's user when unset.",
  runAsGroup: "The primary group ID the processes run as; the runtime's default when unset.",
  runAsNonRoot: 'When true, the kubelet refuses to start a container that would run as user 0 (root).',
  seLinuxOptions: 'The SELinux context to apply; a random one is chosen by the runtime when unset.',
  seccompProfile: "The seccomp profile that filters the processes' system calls.",
  windowsOptions: 'Settings for Windows containers (GMSA credentials, host process, user name).',
} as const;

export const securityTexts: DescriptionTable = {
  [`${core}SecurityContext`]: {
    text: 'Security settings of one container; where the pod sets the same thing, the container wins.',
    fields: {
      ...sharedFields,
      privileged:
        'Whether the container runs in privileged mode, with nearly the access host root has. Defaults to false.',
      allowPrivilegeEscalation:
        'Whether a process can end up with privileges its parent process lacked (controls the no_new_privs flag). Always true when privileged or with CAP_SYS_ADMIN.',
      capabilities: "Linux capabilities added to, or dropped from, the runtime's default set.",
      readOnlyRootFilesystem:
        "Whether the container's root filesystem is mounted read-only. Defaults to false.",
      procMount: 'How /proc is mounted: "Default" (with masked paths) or "Unmasked".',
    },
  },
  [`${core}PodSecurityContext`]: {
    text: 'Security settings for every container of a pod, and for its volumes.',
    fields: {
      ...sharedFields,
      fsGroup:
        "A group added to every container's processes; volumes that support it are made group-owned by it and group-writable.",
      fsGroupChangePolicy:
        'When volume ownership is changed to fsGroup: "Always" (default) or "OnRootMismatch" (only when the root directory differs).',
      supplementalGroups: "More group IDs added to every container's first process.",
      sysctls: 'Namespaced kernel parameters set for the pod; unsafe ones must be allowed on the node.',
    },
  },
  [`${core}Capabilities`]: {
    text: "Linux capabilities to change from the runtime's default set.",
    fields: {
      add: 'Capabilities to add, e.g. "NET_ADMIN".',
      drop: 'Capabilities to remove, e.g. "ALL".',
    },
  },
  [`${core}SELinuxOptions`]: {
    text: 'An SELinux context.',
    fields: {
      user: 'The SELinux user.',
      role: 'The SELinux role.',
      type: 'The SELinux type.',
      level: 'The SELinux level (sensitivity and categories).',
    },
  },
  [`${core}SeccompProfile`]: {
    text: 'A seccomp profile.',
    fields: {
      type: '"RuntimeDefault" (the runtime\'s profile), "Unconfined" (no filtering) or "Localhost" (a file on the node).',
      localhostProfile: "For type Localhost: the profile file, relative to the kubelet's seccomp directory.",
    },
  },
};
