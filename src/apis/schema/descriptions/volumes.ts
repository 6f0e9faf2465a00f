/** Our own words for pod volumes and the common volume sources. Not upstream's. */
import type { DescriptionTable } from './table.js';

const core = 'io.k8s.api.core.v1.';

const legacy = (what: string): string => `${what} Deprecated in-tree plugin; prefer the CSI driver.`;

const itemsText =
  'Which keys to project, and to which file paths. Without it every key becomes a file named after the key.';
const defaultModeText =
  'File permission bits for the created files, 0000 to 0777 (octal in YAML, decimal in JSON). Defaults to 0644.';

export const volumeTexts: DescriptionTable = {
  [`${core}Volume`]: {
    text: 'A named volume of a pod that its containers can mount. Exactly one source is set.',
    fields: {
      name: "The volume's name, a DNS label unique in the pod; volume mounts refer to it.",
      emptyDir: 'A new empty directory that lives as long as the pod.',
      configMap: 'The keys of a config map as files.',
      secret: 'The keys of a secret as files.',
      persistentVolumeClaim: "The persistent volume bound to a claim in the pod's namespace.",
      hostPath:
        'A file or directory of the node. Gives access to the host; meant for system agents, not applications.',
      projected:
        'Several sources (secrets, config maps, downward API, service account tokens) merged into one directory.',
      downwardAPI: 'Fields of the pod, and resource values of its containers, as files.',
      ephemeral:
        'A volume provisioned by a storage driver for this pod alone, through a claim created from a template and deleted with the pod.',
      csi: 'An ephemeral volume provided inline by a CSI driver.',
      nfs: 'An NFS export.',
      iscsi: 'An iSCSI disk.',
      gitRepo:
        'Deprecated: a git repository cloned into an empty directory. Clone it in an init container instead.',
      awsElasticBlockStore: legacy('An AWS EBS disk.'),
      azureDisk: legacy('An Azure data disk.'),
      azureFile: legacy('An Azure File share.'),
      cephfs: 'A CephFS mount.',
      cinder: legacy('An OpenStack Cinder volume.'),
      fc: 'A Fibre Channel disk.',
      flexVolume: 'A volume provided by a FlexVolume driver (deprecated mechanism).',
      flocker: 'A Flocker dataset (deprecated).',
      gcePersistentDisk: legacy('A GCE persistent disk.'),
      glusterfs: 'A GlusterFS mount (deprecated).',
      photonPersistentDisk: 'A Photon Controller disk (deprecated).',
      portworxVolume: legacy('A Portworx volume.'),
      quobyte: 'A Quobyte mount (deprecated).',
      rbd: 'A Ceph RBD block device (deprecated).',
      scaleIO: 'A ScaleIO volume (deprecated).',
      storageos: 'A StorageOS volume (deprecated).',
      vsphereVolume: legacy('A vSphere VMDK volume.'),
    },
  },
  [`${core}EmptyDirVolumeSource`]: {
    text: 'An empty directory created when the pod starts and removed with it.',
    fields: {
      medium:
        'Where the data lives: "" (the node\'s default storage) or "Memory" (a tmpfs, counted against the container\'s memory).',
      sizeLimit: 'The most data the directory may hold; exceeding it gets the pod evicted.',
    },
  },
  [`${core}ConfigMapVolumeSource`]: {
    text: 'A config map whose keys appear as files.',
    fields: {
      name: "The config map's name.",
      items: itemsText,
      defaultMode: defaultModeText,
      optional: 'Whether the pod may start when the config map or a listed key is missing.',
    },
  },
  [`${core}SecretVolumeSource`]: {
    text: 'A secret whose keys appear as files.',
    fields: {
      secretName: "The secret's name, in the pod's namespace.",
      items: itemsText,
      defaultMode: defaultModeText,
      optional: 'Whether the pod may start when the secret or a listed key is missing.',
    },
  },
  [`${core}KeyToPath`]: {
    text: 'Puts one key into one file.',
    fields: {
      key: 'The key to project.',
      path: 'The file path, relative to the volume; may not be absolute or contain "..".',
      mode: "Permission bits for this file (0000 to 0777); the volume's defaultMode when unset.",
    },
  },
  [`${core}PersistentVolumeClaimVolumeSource`]: {
    text: 'Uses the volume bound to a persistent volume claim.',
    fields: {
      claimName: "The claim's name, in the pod's namespace.",
      readOnly: 'Whether to mount the volume read-only. Defaults to false.',
    },
  },
  [`${core}HostPathVolumeSource`]: {
    text: 'A path on the node.',
    fields: {
      path: 'The path on the node; a symbolic link is followed.',
      type: 'What must exist at the path: "" (no check), "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice" or "BlockDevice".',
    },
  },
  [`${core}ProjectedVolumeSource`]: {
    text: 'Several sources projected into one directory.',
    fields: {
      sources: 'The sources, merged in order.',
      defaultMode: defaultModeText,
    },
  },
  [`${core}VolumeProjection`]: {
    text: 'One source of a projected volume; exactly one field is set.',
    fields: {
      configMap: 'Keys of a config map.',
      secret: 'Keys of a secret.',
      downwardAPI: 'Fields of the pod and resource values.',
      serviceAccountToken: "A token of the pod's service account, renewed by the kubelet before it expires.",
    },
  },
  [`${core}ConfigMapProjection`]: {
    text: 'Config map keys in a projected volume.',
    fields: {
      name: "The config map's name.",
      items: itemsText,
      optional: 'Whether the config map or a listed key may be missing.',
    },
  },
  [`${core}SecretProjection`]: {
    text: 'Secret keys in a projected volume.',
    fields: {
      name: "The secret's name.",
      items: itemsText,
      optional: 'Whether the secret or a listed key may be missing.',
    },
  },
  [`${core}ServiceAccountTokenProjection`]: {
    text: 'A service account token written to a file of a projected volume.',
    fields: {
      path: 'The file path, relative to the volume.',
      audience: "Who the token is for; the API server's own audience when empty.",
      expirationSeconds:
        'How long the token should be valid; at least 600, default 3600. The kubelet renews it before it expires.',
    },
  },
  [`${core}DownwardAPIVolumeSource`]: {
    text: 'Facts about the pod written to files.',
    fields: { items: 'The files to write.', defaultMode: defaultModeText },
  },
  [`${core}DownwardAPIProjection`]: {
    text: 'Facts about the pod in a projected volume.',
    fields: { items: 'The files to write.' },
  },
  [`${core}DownwardAPIVolumeFile`]: {
    text: 'One file holding a field of the pod or a resource value.',
    fields: {
      path: 'The file path, relative to the volume.',
      fieldRef: 'A field of the pod: metadata.name, metadata.namespace, metadata.uid, labels or annotations.',
      resourceFieldRef: 'A resource request or limit of a container.',
      mode: 'Permission bits for this file (0000 to 0777).',
    },
  },
  [`${core}EphemeralVolumeSource`]: {
    text: 'A volume made for the pod from a claim template; the claim is named "<pod>-<volume>" and owned by the pod.',
    fields: { volumeClaimTemplate: 'The claim to create. Required.' },
  },
  [`${core}PersistentVolumeClaimTemplate`]: {
    text: 'The claim an ephemeral volume creates.',
    fields: {
      metadata: 'Labels and annotations copied to the claim.',
      spec: "The claim's spec, copied unchanged.",
    },
  },
  [`${core}CSIVolumeSource`]: {
    text: 'An inline volume provided by a CSI driver that supports ephemeral volumes.',
    fields: {
      driver: 'Which CSI driver provides the volume.',
      readOnly: 'Whether to mount read-only. Defaults to false.',
      fsType: 'The filesystem type to mount, e.g. "ext4"; the driver chooses when empty.',
      volumeAttributes: 'Driver-specific settings.',
      nodePublishSecretRef: 'A secret with data the driver needs to mount the volume.',
    },
  },
  [`${core}NFSVolumeSource`]: {
    text: 'An NFS export mounted into the pod.',
    fields: {
      server: "The NFS server's host name or address.",
      path: 'The exported path.',
      readOnly: 'Whether to mount read-only. Defaults to false.',
    },
  },
};
