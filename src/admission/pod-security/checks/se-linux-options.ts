/**
 * Baseline, v1.0+: the SELinux type may only be a container type, and no user or role may be set,
 * at pod or container level (upstream check_seLinuxOptions.go).
 */
import {
  allowedResult,
  forbiddenResult,
  joinQuote,
  pluralize,
  sortedSet,
  type Check,
  type CheckPodFn,
} from '../check.js';
import {
  containerName,
  containerSecurityContext,
  objectField,
  podSecurityContext,
  stringField,
  visitContainers,
} from '../pod-fields.js';
import type { JsonObject } from '../../../util/json.js';

const allowedTypes_1_0: ReadonlySet<string> = new Set([
  '',
  'container_t',
  'container_init_t',
  'container_kvm_t',
]);

const seLinuxOptions_1_0: CheckPodFn = (_meta, spec) => {
  const badSetters: string[] = [];
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (opts: JsonObject): boolean => {
    let ok = true;
    const type = stringField(opts, 'type');
    if (!allowedTypes_1_0.has(type)) {
      ok = false;
      badTypes.push(type);
    }
    if (stringField(opts, 'user') !== '') {
      ok = false;
      setUser = true;
    }
    if (stringField(opts, 'role') !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };

  const podOpts = objectField(podSecurityContext(spec), 'seLinuxOptions');
  if (podOpts !== undefined && !valid(podOpts)) badSetters.push('pod');
  const badContainers: string[] = [];
  visitContainers(spec, (c) => {
    const opts = objectField(containerSecurityContext(c), 'seLinuxOptions');
    if (opts !== undefined && !valid(opts)) badContainers.push(containerName(c));
  });
  if (badContainers.length > 0) {
    badSetters.push(
      `${pluralize('container', 'containers', badContainers.length)} ${joinQuote(badContainers)}`,
    );
  }
  if (badSetters.length === 0) return allowedResult;

  const badData: string[] = [];
  const types = sortedSet(badTypes);
  if (types.length > 0) badData.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) badData.push('user may not be set');
  if (setRole) badData.push('role may not be set');
  return forbiddenResult(
    'seLinuxOptions',
    `${badSetters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${badData.join('; ')}`,
  );
};

export const seLinuxOptionsCheck: Check = {
  id: 'seLinuxOptions',
  level: 'baseline',
  versions: [{ minimumVersion: 0, checkPod: seLinuxOptions_1_0 }],
};
