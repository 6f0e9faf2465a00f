/** Every check of Pod Security admission v1.27 (upstream policy.DefaultChecks). */
import type { Check } from './check.js';
import { allowPrivilegeEscalationCheck } from './checks/allow-privilege-escalation.js';
import { appArmorProfileCheck } from './checks/app-armor-profile.js';
import { capabilitiesBaselineCheck } from './checks/capabilities-baseline.js';
import { capabilitiesRestrictedCheck } from './checks/capabilities-restricted.js';
import { hostNamespacesCheck } from './checks/host-namespaces.js';
import { hostPathVolumesCheck } from './checks/host-path-volumes.js';
import { hostPortsCheck } from './checks/host-ports.js';
import { privilegedCheck } from './checks/privileged.js';
import { procMountCheck } from './checks/proc-mount.js';
import { restrictedVolumesCheck } from './checks/restricted-volumes.js';
import { runAsNonRootCheck } from './checks/run-as-non-root.js';
import { runAsUserCheck } from './checks/run-as-user.js';
import { seLinuxOptionsCheck } from './checks/se-linux-options.js';
import { seccompProfileBaselineCheck } from './checks/seccomp-profile-baseline.js';
import { seccompProfileRestrictedCheck } from './checks/seccomp-profile-restricted.js';
import { sysctlsCheck } from './checks/sysctls.js';
import { windowsHostProcessCheck } from './checks/windows-host-process.js';

export const defaultChecks: readonly Check[] = [
  allowPrivilegeEscalationCheck,
  appArmorProfileCheck,
  capabilitiesBaselineCheck,
  capabilitiesRestrictedCheck,
  hostNamespacesCheck,
  hostPathVolumesCheck,
  hostPortsCheck,
  privilegedCheck,
  procMountCheck,
  restrictedVolumesCheck,
  runAsNonRootCheck,
  runAsUserCheck,
  seLinuxOptionsCheck,
  seccompProfileBaselineCheck,
  seccompProfileRestrictedCheck,
  sysctlsCheck,
  windowsHostProcessCheck,
];
