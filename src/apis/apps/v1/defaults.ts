/** apps/v1 defaults (upstream pkg/apis/apps/v1/defaults.go plus the pod template defaults), in place. */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, objArr, setDefault, setDefaultStr, str } from '../../core/v1/access.js';
import { defaultPodTemplateSpec } from '../../core/v1/defaults/pod.js';

function defaultTemplate(spec: JsonObject): void {
  defaultPodTemplateSpec(ensureObj(spec, 'template'));
}

export function defaultDeployment(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = ensureObj(spec, 'strategy');
  setDefaultStr(strategy, 'type', 'RollingUpdate');
  if (str(strategy, 'type') === 'RollingUpdate') {
    const ru = ensureObj(strategy, 'rollingUpdate');
    setDefault(ru, 'maxUnavailable', '25%');
    setDefault(ru, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}

export function defaultReplicaSet(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  setDefault(spec, 'replicas', 1);
  defaultTemplate(spec);
}

export function defaultDaemonSet(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  const strategy = ensureObj(spec, 'updateStrategy');
  setDefaultStr(strategy, 'type', 'RollingUpdate');
  if (str(strategy, 'type') === 'RollingUpdate') {
    const ru = ensureObj(strategy, 'rollingUpdate');
    setDefault(ru, 'maxUnavailable', 1);
    setDefault(ru, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
}

/**
 * PersistentVolumeClaim defaults a volume claim template gets (SetDefaults_PersistentVolumeClaim
 * and _PersistentVolumeClaimSpec): phase Pending, volumeMode Filesystem.
 */
function defaultClaimTemplate(pvc: JsonObject): void {
  setDefaultStr(ensureObj(pvc, 'status'), 'phase', 'Pending');
  setDefault(ensureObj(pvc, 'spec'), 'volumeMode', 'Filesystem');
}

/** StatefulSetAutoDeletePVC is beta and on by default in 1.27, so the retention policy is defaulted. */
export function defaultStatefulSet(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  setDefaultStr(spec, 'podManagementPolicy', 'OrderedReady');
  const strategy = ensureObj(spec, 'updateStrategy');
  if (str(strategy, 'type') === undefined || str(strategy, 'type') === '') {
    strategy['type'] = 'RollingUpdate';
    ensureObj(strategy, 'rollingUpdate');
  }
  const ru = obj(strategy, 'rollingUpdate');
  if (str(strategy, 'type') === 'RollingUpdate' && ru !== undefined) setDefault(ru, 'partition', 0);
  const policy = ensureObj(spec, 'persistentVolumeClaimRetentionPolicy');
  setDefaultStr(policy, 'whenDeleted', 'Retain');
  setDefaultStr(policy, 'whenScaled', 'Retain');
  setDefault(spec, 'replicas', 1);
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
  for (const pvc of objArr(spec, 'volumeClaimTemplates')) defaultClaimTemplate(pvc);
}
