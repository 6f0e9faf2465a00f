/** Pod update rules (upstream ValidatePodUpdate): only a few spec fields may change. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import { cloneJson, isJsonObject, jsonEqual } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { indexedObjs, num, obj, objArr, str } from '../access.js';
import { podQOSClass } from '../qos.js';
import { validatePodSpecOfPod } from './pod.js';
import { validateTolerations } from './podspec.js';

const updatableFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];
// v1.27 updatablePodSpecFields: the resources entry comes last.
const updatableFieldsWithResources = [
  ...updatableFields,
  '`spec.containers[*].resources` (for CPU/memory only)',
];
const maxInt32 = 2147483647;

function validateContainerUpdates(
  newSpec: JsonObject,
  oldSpec: JsonObject,
  key: string,
  path: FieldPath,
): { errs: FieldError[]; stop: boolean } {
  const errs: FieldError[] = [];
  const newList = objArr(newSpec, key);
  if (newList.length !== objArr(oldSpec, key).length) {
    return {
      errs: [fieldErrors.forbidden(path, 'pod updates may not add or remove containers')],
      stop: true,
    };
  }
  newList.forEach((c, i) => {
    const image = str(c, 'image') ?? '';
    if (image === '') errs.push(fieldErrors.required(path.index(i).child('image'), ''));
    if (image.trim().length !== image.length) {
      errs.push(
        fieldErrors.invalid(
          path.index(i).child('image'),
          image,
          'must not have leading or trailing whitespace',
        ),
      );
    }
  });
  return { errs, stop: false };
}

function validateOnlyAddedTolerations(
  newSpec: JsonObject,
  oldSpec: JsonObject,
  path: FieldPath,
): FieldError[] {
  const newTolerations = objArr(newSpec, 'tolerations');
  for (const old of objArr(oldSpec, 'tolerations')) {
    const found = newTolerations.some((t) => {
      const a = { ...old };
      const b = { ...t };
      delete a['tolerationSeconds'];
      delete b['tolerationSeconds'];
      return jsonEqual(a, b);
    });
    if (!found)
      return [
        fieldErrors.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds'),
      ];
  }
  return validateTolerations(newSpec, path);
}

function validateOnlyDeletedSchedulingGates(
  newSpec: JsonObject,
  oldSpec: JsonObject,
  path: FieldPath,
): FieldError[] {
  const old = new Set(objArr(oldSpec, 'schedulingGates').map((g) => str(g, 'name') ?? ''));
  const errs: FieldError[] = [];
  const reported = new Set<string>();
  const gates = indexedObjs(newSpec, 'schedulingGates');
  for (let k = gates.length - 1; k >= 0; k--) {
    const [i, g] = gates[k]!;
    const name = str(g, 'name') ?? '';
    if (old.has(name) || reported.has(name)) continue;
    reported.add(name);
    errs.unshift(
      fieldErrors.forbidden(
        path.index(i).child('name'),
        `only deletion is allowed, but found new scheduling gate '${name}'`,
      ),
    );
  }
  return errs;
}

/** CPU/memory of `list` replaced by those of `old` (what in-place resize may change). */
function mungeCpuMemory(list: JsonValue | undefined, old: JsonValue | undefined): JsonValue | undefined {
  // Upstream mungeCpuMemResources: no old list, no list.
  if (!isJsonObject(old)) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(isJsonObject(list) ? list : {}))
    if (k !== 'cpu' && k !== 'memory') out[k] = v;
  for (const k of ['cpu', 'memory']) {
    const v = isJsonObject(old) ? old[k] : undefined;
    if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

/** Container resources with CPU/memory taken from the old container (they may change). */
function normalizeResources(c: JsonObject, oldC: JsonObject): void {
  const res = obj(c, 'resources');
  const oldRes = obj(oldC, 'resources');
  const out: JsonObject = res === undefined ? {} : { ...res };
  for (const key of ['limits', 'requests']) {
    const m = mungeCpuMemory(res?.[key], oldRes?.[key]);
    if (m === undefined) delete out[key];
    else out[key] = m;
  }
  c['resources'] = out;
}

function goFieldName(key: string): string {
  const special: Record<string, string> = {
    dnsPolicy: 'DNSPolicy',
    dnsConfig: 'DNSConfig',
    hostIPC: 'HostIPC',
    hostPID: 'HostPID',
    os: 'OS',
  };
  return special[key] ?? key.charAt(0).toUpperCase() + key.slice(1);
}

/** A short rendering of what differs (upstream prints a cmp.Diff of the internal structs). */
function specDiff(oldSpec: JsonObject, newSpec: JsonObject): string {
  const keys = [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])];
  let out = '  core.PodSpec{\n';
  for (const k of keys) {
    if (jsonEqual(oldSpec[k], newSpec[k])) continue;
    if (oldSpec[k] !== undefined) out += `- \t${goFieldName(k)}: ${JSON.stringify(oldSpec[k])},\n`;
    if (newSpec[k] !== undefined) out += `+ \t${goFieldName(k)}: ${JSON.stringify(newSpec[k])},\n`;
  }
  return `${out}  }\n`;
}

export function validatePodUpdate(pod: JsonObject, old: JsonObject, ctx: StrategyContext): FieldError[] {
  const specPath = FieldPath.root('spec');
  const newSpec = obj(pod, 'spec') ?? {};
  const oldSpec = obj(old, 'spec') ?? {};
  const errs = validatePodSpecOfPod(pod, ctx);
  for (const key of ['containers', 'initContainers']) {
    const r = validateContainerUpdates(newSpec, oldSpec, key, specPath.child(key));
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const newDeadline = num(newSpec, 'activeDeadlineSeconds');
  const oldDeadline = num(oldSpec, 'activeDeadlineSeconds');
  const deadlinePath = specPath.child('activeDeadlineSeconds');
  if (newDeadline !== undefined) {
    if (newDeadline < 0 || newDeadline > maxInt32) {
      return [
        ...errs,
        fieldErrors.invalid(deadlinePath, newDeadline, `must be between 0 and ${maxInt32}, inclusive`),
      ];
    }
    if (oldDeadline !== undefined && oldDeadline < newDeadline) {
      return [
        ...errs,
        fieldErrors.invalid(deadlinePath, newDeadline, 'must be less than or equal to previous value'),
      ];
    }
  } else if (oldDeadline !== undefined) {
    errs.push(
      fieldErrors.invalid(deadlinePath, null, 'must not update from a positive integer to nil value'),
    );
  }
  errs.push(...validateOnlyAddedTolerations(newSpec, oldSpec, specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedSchedulingGates(newSpec, oldSpec, specPath.child('schedulingGates')));
  if (jsonEqual(newSpec, oldSpec)) return errs;

  // v1.27 checks the QoS class whatever the gate, on `metadata`, with the stored class as value.
  if (podQOSClass(newSpec) !== podQOSClass(oldSpec)) {
    const stored = str(obj(pod, 'status'), 'qosClass') ?? str(obj(old, 'status'), 'qosClass') ?? '';
    errs.push(fieldErrors.invalid(FieldPath.root('metadata'), stored, 'Pod QoS is immutable'));
  }
  const resize = ctx.features.enabled('InPlacePodVerticalScaling');
  const munged = cloneJson(newSpec);
  for (const key of ['containers', 'initContainers']) {
    const oldList = objArr(oldSpec, key);
    objArr(munged, key).forEach((c, i) => {
      const oldC = oldList[i]!;
      if (oldC['image'] === undefined) delete c['image'];
      else c['image'] = oldC['image'];
      if (resize && key === 'containers') normalizeResources(c, oldC);
    });
  }
  const oldCompared = cloneJson(oldSpec);
  if (resize) {
    const oldList = objArr(oldSpec, 'containers');
    objArr(oldCompared, 'containers').forEach((c, i) => normalizeResources(c, oldList[i]!));
  }
  for (const key of ['activeDeadlineSeconds', 'schedulingGates', 'tolerations']) {
    if (oldSpec[key] === undefined) delete munged[key];
    else munged[key] = oldSpec[key]!;
  }
  const oldGrace = num(oldSpec, 'terminationGracePeriodSeconds');
  if (oldGrace !== undefined && oldGrace < 0 && num(munged, 'terminationGracePeriodSeconds') === 1) {
    munged['terminationGracePeriodSeconds'] = oldGrace;
  }
  if (!jsonEqual(munged, oldCompared)) {
    const fields = resize ? updatableFieldsWithResources : updatableFields;
    errs.push(
      fieldErrors.forbidden(
        specPath,
        `pod updates may not change fields other than ${fields.join(',')}\n${specDiff(oldSpec, munged)}`,
      ),
    );
  }
  return errs;
}
