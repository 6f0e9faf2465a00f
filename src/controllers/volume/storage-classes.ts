/**
 * StorageClass questions the v1.27 PV controller asks: the binding mode of a claim's class
 * (IsDelayBindingMode), the default class (util.GetDefaultClass), and which in-tree provisioners
 * are migrated to a CSI driver by default in v1.27 (their claims wait for that driver).
 */
import type { JsonObject } from '../../util/json.js';
import { annotations, meta, name, obj, str, timeOf } from '../util/objects.js';

const isDefaultAnnotation = 'storageclass.kubernetes.io/is-default-class';
const betaIsDefaultAnnotation = 'storageclass.beta.kubernetes.io/is-default-class';

/** IsDelayBindingMode: the class (when it exists) binds WaitForFirstConsumer; throws when unset. */
export function isDelayBindingMode(className: string, cls: JsonObject | undefined): boolean {
  if (className === '' || cls === undefined) return false;
  const mode = obj(cls)['volumeBindingMode'];
  if (typeof mode !== 'string') throw new Error(`VolumeBindingMode not set for StorageClass "${className}"`);
  return mode === 'WaitForFirstConsumer';
}

function isDefault(cls: JsonObject): boolean {
  const a = annotations(cls);
  return a[isDefaultAnnotation] === 'true' || a[betaIsDefaultAnnotation] === 'true';
}

/** GetDefaultClass: among classes marked default, the newest (then the first by name). */
export function defaultClass(classes: readonly JsonObject[]): JsonObject | undefined {
  const defaults = classes.filter(isDefault);
  defaults.sort((a, b) => {
    const ta = timeOf(meta(a)['creationTimestamp']) ?? 0;
    const tb = timeOf(meta(b)['creationTimestamp']) ?? 0;
    if (ta !== tb) return tb - ta;
    return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0;
  });
  return defaults[0];
}

/** In-tree provisioners whose CSI migration is on by default in v1.27, and their drivers. */
const migratedProvisioners: Readonly<Record<string, string>> = {
  'kubernetes.io/aws-ebs': 'ebs.csi.aws.com',
  'kubernetes.io/gce-pd': 'pd.csi.storage.gke.io',
  'kubernetes.io/azure-disk': 'disk.csi.azure.com',
  'kubernetes.io/azure-file': 'file.csi.azure.com',
  'kubernetes.io/cinder': 'cinder.csi.openstack.org',
  'kubernetes.io/vsphere-volume': 'csi.vsphere.vmware.com',
};

export type Provisioning =
  | { readonly external: true; readonly provisioner: string }
  | { readonly external: false; readonly error: string };

/**
 * findProvisionablePlugin without in-tree plugins: a migrated in-tree provisioner means its CSI
 * driver, any other `kubernetes.io/` one has no plugin here, anything else is external.
 */
export function provisioningFor(cls: JsonObject): Provisioning {
  const provisioner = str(cls['provisioner']);
  const migrated = migratedProvisioners[provisioner];
  if (migrated !== undefined) return { external: true, provisioner: migrated };
  if (provisioner.startsWith('kubernetes.io/')) {
    return { external: false, error: `no volume plugin matched name: ${provisioner}` };
  }
  return { external: true, provisioner };
}
