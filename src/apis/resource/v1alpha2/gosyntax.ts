/**
 * Go `%#v` renderings of the internal resource.k8s.io structs immutability errors report. Pointer
 * addresses cannot match upstream (they differ per process); a fixed one is used.
 */
import { goQuote } from '../../../machinery/field/errors.js';
import type { JsonObject } from '../../../util/json.js';
import { bool, obj, objArr, str, strMap } from '../../core/v1/access.js';

const fakePointer = '0xc000010000';

const q = (o: JsonObject | undefined, key: string): string => goQuote(str(o, key) ?? '');

function goPointer(type: string, v: unknown): string {
  return `(*${type})(${v === undefined ? 'nil' : fakePointer})`;
}

function goStringMap(m: Record<string, string> | undefined): string {
  if (m === undefined) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(m[k]!)}`).join(', ')}}`;
}

/** `resource.ResourceClaimSpec{ResourceClassName:"c", ParametersRef:(*...)(nil), AllocationMode:"..."}`. */
export function goResourceClaimSpec(spec: JsonObject | undefined): string {
  return (
    `resource.ResourceClaimSpec{ResourceClassName:${q(spec, 'resourceClassName')}, ` +
    `ParametersRef:${goPointer('resource.ResourceClaimParametersReference', obj(spec, 'parametersRef'))}, ` +
    `AllocationMode:${q(spec, 'allocationMode')}}`
  );
}

/** A template's spec: its (labels/annotations only) ObjectMeta and claim spec. */
export function goResourceClaimTemplateSpec(spec: JsonObject | undefined): string {
  const meta = obj(spec, 'metadata');
  const objectMeta =
    'v1.ObjectMeta{Name:"", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", ' +
    'Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), ' +
    'DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), ' +
    `Labels:${goStringMap(strMap(meta, 'labels'))}, Annotations:${goStringMap(strMap(meta, 'annotations'))}, ` +
    'OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}';
  return `resource.ResourceClaimTemplateSpec{ObjectMeta:${objectMeta}, Spec:${goResourceClaimSpec(obj(spec, 'spec'))}}`;
}

/** A `*resource.AllocationResult` as field errors print it. */
export function goAllocationResult(a: JsonObject | undefined): string {
  if (a === undefined) return '"null"';
  const handles = Array.isArray(a['resourceHandles'])
    ? `[]resource.ResourceHandle{${objArr(a, 'resourceHandles')
        .map((h) => `resource.ResourceHandle{DriverName:${q(h, 'driverName')}, Data:${q(h, 'data')}}`)
        .join(', ')}}`
    : '[]resource.ResourceHandle(nil)';
  return (
    `resource.AllocationResult{ResourceHandles:${handles}, ` +
    `AvailableOnNodes:${goPointer('core.NodeSelector', obj(a, 'availableOnNodes'))}, ` +
    `Shareable:${String(bool(a, 'shareable') ?? false)}}`
  );
}
