/**
 * Ephemeral containers (upstream validateEphemeralContainers and
 * ValidatePodEphemeralContainersUpdate, v1.27): what `pods/{name}/ephemeralcontainers` accepts.
 * Names are unique across every container of the pod, the target must be a regular or init
 * container, fields that would make the pod depend on them (ports, probes, resources, lifecycle)
 * are refused, and a container once added may neither change nor go away.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { semanticEqual } from '../../../apps/v1/validation/semantic.js';
import { indexedObjs, obj, objArr, str } from '../access.js';
import { validateContainerCommon } from './container.js';
import { structDiff } from './go-diff.js';
import { validatePodSpecOfPod } from './pod.js';
import { validateVolumes } from './volumes.js';

const forbiddenText = 'cannot be set for an Ephemeral Container';
const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

/**
 * EphemeralContainerCommon's fields outside upstream's allow list, in the struct's order: set
 * (non-zero in Go terms), each is refused.
 */
const disallowedFields = [
  'ports',
  'resources',
  'resizePolicy',
  'livenessProbe',
  'readinessProbe',
  'startupProbe',
  'lifecycle',
] as const;

/** Go's zero value test for the JSON form of a field (nil, empty list, struct of zero fields). */
function isZero(v: JsonValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isJsonObject(v)) return Object.values(v).every(isZero);
  return v === '' || v === 0 || v === false;
}

/** Upstream validateEphemeralContainers for spec.ephemeralContainers of a pod. */
export function validateEphemeralContainers(spec: JsonObject, path: FieldPath): FieldError[] {
  const list = indexedObjs(spec, 'ephemeralContainers');
  if (list.length === 0) return [];
  const errs: FieldError[] = [];
  const volumes = validateVolumes(spec, FieldPath.root('spec', 'volumes')).names;
  const others = new Set<string>();
  for (const key of ['containers', 'initContainers'])
    for (const c of objArr(spec, key)) others.add(str(c, 'name') ?? '');
  const all = new Set(others);
  for (const [i, c] of list) {
    const p = path.index(i);
    errs.push(...validateContainerCommon(c, volumes, p));
    const image = str(c, 'image') ?? '';
    if (image.trim().length !== image.length) {
      errs.push(fieldErrors.invalid(p.child('image'), image, 'must not have leading or trailing whitespace'));
    }
    const name = str(c, 'name') ?? '';
    if (all.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    else all.add(name);
    const target = str(c, 'targetContainerName') ?? '';
    if (target !== '' && !others.has(target)) {
      errs.push(fieldErrors.notFound(p.child('targetContainerName'), target));
    }
    for (const f of disallowedFields) {
      if (!isZero(c[f])) errs.push(fieldErrors.forbidden(p.child(f), forbiddenText));
    }
    for (const [j, m] of indexedObjs(c, 'volumeMounts')) {
      for (const f of ['subPath', 'subPathExpr']) {
        if ((str(m, f) ?? '') !== '') {
          errs.push(fieldErrors.forbidden(p.child('volumeMounts').index(j).child(f), forbiddenText));
        }
      }
    }
  }
  return errs;
}

/**
 * Upstream ValidatePodEphemeralContainersUpdate (ObjectMeta update rules are the generic store's):
 * the pod as a whole stays valid, static pods get none, existing ones stay as they were.
 */
export function validatePodEphemeralContainersUpdate(
  pod: JsonObject,
  old: JsonObject,
  ctx: StrategyContext,
): FieldError[] {
  const spec = obj(pod, 'spec') ?? {};
  const errs = [
    ...validatePodSpecOfPod(pod, ctx),
    ...validateEphemeralContainers(spec, FieldPath.root('spec', 'ephemeralContainers')),
  ];
  const oldAnnotations = obj(obj(old, 'metadata'), 'annotations');
  if (oldAnnotations !== undefined && mirrorPodAnnotation in oldAnnotations) {
    return [fieldErrors.forbidden(FieldPath.root(''), 'static pods do not support ephemeral containers')];
  }
  const specPath = FieldPath.root('spec', 'ephemeralContainers');
  const byName = new Map(objArr(spec, 'ephemeralContainers').map((c) => [str(c, 'name') ?? '', c]));
  for (const before of objArr(obj(old, 'spec'), 'ephemeralContainers')) {
    const name = str(before, 'name') ?? '';
    const after = byName.get(name);
    if (after === undefined) {
      errs.push(
        fieldErrors.forbidden(
          specPath,
          `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`,
        ),
      );
    } else if (!semanticEqual(before, after)) {
      errs.push(
        fieldErrors.forbidden(
          specPath.child(name),
          `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n${structDiff('core.EphemeralContainer', before, after)}`,
        ),
      );
    }
  }
  return errs;
}
