/**
 * events (upstream pkg/registry/core/event, release-1.27): stored as core/v1 Event and served at
 * /api/v1 and, converted, at events.k8s.io/v1 — one key space, one storage version hash. The
 * strategy validates by request version: core/v1 gets the legacy rules, events.k8s.io/v1 the
 * strict ones (../../../apis/core/v1/validation/event.ts).
 */
import { storageVersionOf } from '../../versioned-store.js';
import { obj, str } from '../../../apis/core/v1/access.js';
import { eventsInfo } from '../../../apis/core/v1/resources.js';
import { validateEventCreate, validateEventUpdate } from '../../../apis/core/v1/validation/event.js';
import { eventToCore, eventToV1 } from '../../../apis/events/v1/conversion.js';
import { eventV1Info } from '../../../apis/events/v1/resources.js';
import type { FieldError } from '../../../machinery/field/errors.js';
import { fieldLabelConversion } from '../../../machinery/fields/selector.js';
import type { KubeObject } from '../../../machinery/object.js';
import { validateObjectMeta } from '../../../machinery/validation/objectmeta.js';
import { eventTable } from '../../printers/event.js';
import type { RegistryResource, ServedVersion } from '../../resource.js';
import { defineStrategy } from '../../strategies/base.js';

export function eventSelectableFields(event: KubeObject): Record<string, string> {
  const involved = obj(event, 'involvedObject');
  const get = (key: string): string => str(involved, key) ?? '';
  const reportingController = str(event, 'reportingComponent') ?? '';
  const source = str(obj(event, 'source'), 'component') ?? '';
  return {
    'involvedObject.kind': get('kind'),
    'involvedObject.namespace': get('namespace'),
    'involvedObject.name': get('name'),
    'involvedObject.uid': get('uid'),
    'involvedObject.apiVersion': get('apiVersion'),
    'involvedObject.resourceVersion': get('resourceVersion'),
    'involvedObject.fieldPath': get('fieldPath'),
    reason: str(event, 'reason') ?? '',
    reportingComponent: reportingController,
    source: source === '' ? reportingController : source,
    type: str(event, 'type') ?? '',
  };
}

/**
 * Upstream names of events are only checked as path segments (rest.BeforeCreate/BeforeUpdate's
 * common ObjectMeta check; the legacy rules look at no metadata).
 */
const nameValidation = 'pathSegment';

/**
 * The strict create rules validate ObjectMeta again (DNS subdomain names). Upstream stops at the
 * strategy's errors and skips its common ObjectMeta check when there are any; the generic store
 * here always runs that check first, so the errors it already reports are not repeated.
 */
function withoutCommonMetaErrors(event: KubeObject, errs: FieldError[]): FieldError[] {
  const common = new Map<string, number>();
  for (const e of validateObjectMeta(event.metadata, { namespaced: true, nameValidation })) {
    common.set(e.toString(), (common.get(e.toString()) ?? 0) + 1);
  }
  if (common.size === 0) return errs;
  return errs.filter((e) => {
    const n = common.get(e.toString()) ?? 0;
    if (n === 0) return true;
    common.set(e.toString(), n - 1);
    return false;
  });
}

/** events.k8s.io/v1 field-selector labels as the core ones (upstream's field label conversion). */
const eventV1FieldLabels: ReadonlyMap<string, string> = new Map([
  ['reason', 'reason'],
  ['regarding.kind', 'involvedObject.kind'],
  ['regarding.namespace', 'involvedObject.namespace'],
  ['regarding.name', 'involvedObject.name'],
  ['regarding.uid', 'involvedObject.uid'],
  ['regarding.apiVersion', 'involvedObject.apiVersion'],
  ['regarding.resourceVersion', 'involvedObject.resourceVersion'],
  ['regarding.fieldPath', 'involvedObject.fieldPath'],
  ['reportingController', 'reportingComponent'],
  ['source', 'source'],
  ['type', 'type'],
  ['metadata.namespace', 'metadata.namespace'],
  ['metadata.name', 'metadata.name'],
]);

const eventV1FieldLabel = fieldLabelConversion(eventV1FieldLabels);

const servedVersions: readonly ServedVersion[] = [
  storageVersionOf(eventsInfo),
  { info: eventV1Info, toStorage: eventToCore, fromStorage: eventToV1, fieldLabel: eventV1FieldLabel },
];

export const eventsResource: RegistryResource = {
  // kube-apiserver --event-ttl default: events expire an hour after creation.
  ttlSeconds: 3600,
  info: eventsInfo,
  servedVersions,
  strategy: defineStrategy({
    namespaced: true,
    nameValidation,
    allowCreateOnUpdate: true,
    validate: (ctx, event) => withoutCommonMetaErrors(event, validateEventCreate(event, ctx.requestVersion)),
    validateUpdate: (ctx, event, old) => validateEventUpdate(event, old, ctx.requestVersion),
  }),
  table: eventTable,
  fieldLabels: fieldLabelConversion([
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'metadata.namespace',
    'metadata.name',
  ]),
  selectableFields: eventSelectableFields,
};
