/**
 * Which garbage-collection finalizers a DELETE leaves on an object (k8s.io/apiserver v0.27
 * registry/generic/registry/store.go: shouldOrphanDependents, shouldDeleteDependents,
 * deletionFinalizersForGarbageCollection) and the DeleteOptions checks of
 * apimachinery's ValidateDeleteOptions.
 */
import type { FieldError } from '../../machinery/field/errors.js';
import { fieldErrors } from '../../machinery/field/errors.js';
import type { DeleteRequest } from '../options.js';

/** metav1.FinalizerOrphanDependents */
export const orphanFinalizer = 'orphan';
/** metav1.FinalizerDeleteDependents */
export const foregroundFinalizer = 'foregroundDeletion';

/**
 * A kind's default when a DELETE names no policy (rest.GarbageCollectionPolicy): `Unsupported`
 * never sets the finalizers, `OrphanDependents` orphans, anything else deletes in the background.
 */
export type GarbageCollectionPolicy = 'DeleteDependents' | 'OrphanDependents' | 'Unsupported';

/**
 * Upstream v1.27's per-kind defaults for the versions nanokube serves: ReplicationController (v1)
 * and Job (batch/v1) orphan "for backwards compatibility"; every other built-in kind (apps/v1
 * included) and custom resources delete their dependents in the background.
 */
export function defaultGarbageCollectionPolicy(info: {
  readonly group: string;
  readonly kind: string;
}): GarbageCollectionPolicy {
  if (info.group === '' && info.kind === 'ReplicationController') return 'OrphanDependents';
  if (info.group === 'batch' && info.kind === 'Job') return 'OrphanDependents';
  return 'DeleteDependents';
}

const policies = ['Foreground', 'Background', 'Orphan'];

/**
 * apimachinery's ValidateDeleteOptions (v0.27) for the propagation fields: both set is invalid, an
 * unknown policy is not supported. The policy is taken as sent (the handler sees any string).
 */
export function validateDeleteOptions(o: {
  readonly orphanDependents?: boolean | undefined;
  readonly propagationPolicy?: string | undefined;
}): FieldError[] {
  const errs: FieldError[] = [];
  const policy = o.propagationPolicy;
  if (o.orphanDependents !== undefined && policy !== undefined) {
    errs.push(
      fieldErrors.invalid(
        'propagationPolicy',
        policy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (policy !== undefined && !policies.includes(policy)) {
    errs.push(fieldErrors.notSupported('propagationPolicy', policy, [...policies, 'nil']));
  }
  return errs;
}

type PropagationOptions = Pick<DeleteRequest, 'orphanDependents' | 'propagationPolicy'>;

function shouldOrphan(
  finalizers: readonly string[],
  o: PropagationOptions,
  d: GarbageCollectionPolicy,
): boolean {
  if (d === 'Unsupported') return false;
  if (o.orphanDependents !== undefined) return o.orphanDependents;
  if (o.propagationPolicy !== undefined) return o.propagationPolicy === 'Orphan';
  for (const f of finalizers) {
    if (f === orphanFinalizer) return true;
    if (f === foregroundFinalizer) return false;
  }
  return d === 'OrphanDependents';
}

function shouldDeleteDependents(
  finalizers: readonly string[],
  o: PropagationOptions,
  d: GarbageCollectionPolicy,
): boolean {
  if (d === 'Unsupported') return false;
  if (o.orphanDependents !== undefined) return false;
  if (o.propagationPolicy !== undefined) return o.propagationPolicy === 'Foreground';
  for (const f of finalizers) {
    if (f === foregroundFinalizer) return true;
    if (f === orphanFinalizer) return false;
  }
  return false;
}

/**
 * The finalizers a DELETE with these options leaves: both GC finalizers removed, then `orphan`
 * and/or `foregroundDeletion` appended as the options, the object's own finalizers and the
 * kind's default say. `changed` compares as sets, like upstream.
 */
export function deletionFinalizers(
  finalizers: readonly string[],
  o: PropagationOptions,
  d: GarbageCollectionPolicy,
): { readonly changed: boolean; readonly finalizers: readonly string[] } {
  const orphan = shouldOrphan(finalizers, o, d);
  const foreground = shouldDeleteDependents(finalizers, o, d);
  const next = finalizers.filter((f) => f !== orphanFinalizer && f !== foregroundFinalizer);
  if (orphan) next.push(orphanFinalizer);
  if (foreground) next.push(foregroundFinalizer);
  const before = new Set(finalizers);
  const after = new Set(next);
  const same = before.size === after.size && [...before].every((f) => after.has(f));
  return same ? { changed: false, finalizers } : { changed: true, finalizers: next };
}
