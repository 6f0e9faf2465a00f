/**
 * Baseline: only the safe sysctls; v1.27 added `net.ipv4.ip_local_reserved_ports` (upstream
 * check_sysctls.go).
 */
import { allowedResult, forbiddenResult, type Check, type CheckPodFn } from '../check.js';
import { objectsField, podSecurityContext, stringField } from '../pod-fields.js';

const allowed_1_0: readonly string[] = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];
const allowed_1_27: readonly string[] = [...allowed_1_0, 'net.ipv4.ip_local_reserved_ports'];

function sysctls(allowed: ReadonlySet<string>): CheckPodFn {
  return (_meta, spec) => {
    const forbidden = objectsField(podSecurityContext(spec), 'sysctls')
      .map((s) => stringField(s, 'name'))
      .filter((name) => !allowed.has(name));
    if (forbidden.length === 0) return allowedResult;
    return forbiddenResult('forbidden sysctls', forbidden.join(', '));
  };
}

export const sysctlsCheck: Check = {
  id: 'sysctls',
  level: 'baseline',
  versions: [
    { minimumVersion: 0, checkPod: sysctls(new Set(allowed_1_0)) },
    { minimumVersion: 27, checkPod: sysctls(new Set(allowed_1_27)) },
  ],
};
