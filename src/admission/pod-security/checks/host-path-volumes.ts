/** Baseline, v1.0+: no hostPath volumes (upstream check_hostPathVolumes.go). */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  type Check,
  type CheckPodFn,
} from '../check.js';
import { isSet, objectsField, stringField } from '../pod-fields.js';

export const hostPathVolumesID = 'hostPathVolumes';

const hostPathVolumes_1_0: CheckPodFn = (_meta, spec) => {
  const bad = objectsField(spec, 'volumes')
    .filter((v) => isSet(v, 'hostPath'))
    .map((v) => stringField(v, 'name'));
  if (bad.length === 0) return allowedResult;
  return forbiddenResult(
    'hostPath volumes',
    `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`,
  );
};

export const hostPathVolumesCheck: Check = {
  id: hostPathVolumesID,
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: hostPathVolumes_1_0 }],
};
