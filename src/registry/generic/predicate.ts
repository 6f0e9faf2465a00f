/** Label and field selectors of list/watch requests, as one predicate over objects. */
import { apiErrors } from '../../machinery/errors.js';
import { parseFieldSelector } from '../../machinery/fields/selector.js';
import type { FieldSelector } from '../../machinery/fields/selector.js';
import { parseLabelSelector } from '../../machinery/labels/selector.js';
import type { LabelSelector } from '../../machinery/labels/selector.js';
import type { KubeObject } from '../../machinery/object.js';
import type { RegistryResource } from '../resource.js';

export interface Predicate {
  readonly everything: boolean;
  matches(obj: KubeObject): boolean;
}

/** The fields every object can be selected on, plus the resource's own. */
export function objectFields(resource: RegistryResource, obj: KubeObject): Record<string, string> {
  const fields: Record<string, string> = {
    ...(resource.selectableFields?.(obj) ?? {}),
    'metadata.name': obj.metadata.name ?? '',
  };
  if (resource.info.namespaced) fields['metadata.namespace'] = obj.metadata.namespace ?? '';
  return fields;
}

export function buildPredicate(
  resource: RegistryResource,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): Predicate {
  let labels: LabelSelector | undefined;
  let fields: FieldSelector | undefined;
  try {
    if (labelSelector !== undefined && labelSelector !== '') labels = parseLabelSelector(labelSelector);
  } catch (err) {
    throw apiErrors.badRequest(err instanceof Error ? err.message : String(err));
  }
  try {
    if (fieldSelector !== undefined && fieldSelector !== '') fields = parseFieldSelector(fieldSelector);
  } catch (err) {
    throw apiErrors.badRequest(err instanceof Error ? err.message : String(err));
  }
  // Which labels a kind supports is its served version's field label conversion (VersionedStore);
  // a label the object does not carry reads as empty, as upstream's fields.Set.
  const l = labels !== undefined && !labels.empty() ? labels : undefined;
  const f = fields !== undefined && !fields.empty() ? fields : undefined;
  if (l === undefined && f === undefined) return { everything: true, matches: () => true };
  return {
    everything: false,
    matches(obj) {
      if (l !== undefined && !l.matches(obj.metadata.labels)) return false;
      if (f !== undefined && !f.matches(objectFields(resource, obj))) return false;
      return true;
    },
  };
}
