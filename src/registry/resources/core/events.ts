/** events (core/v1; upstream pkg/registry/core/event): field selectors on the involved object. */
import { obj, str } from '../../../apis/core/v1/access.js';
import { eventsInfo } from '../../../apis/core/v1/resources.js';
import { validateEvent } from '../../../apis/core/v1/validation/event.js';
import type { KubeObject } from '../../../machinery/object.js';
import { eventTable } from '../../printers/event.js';
import type { RegistryResource } from '../../resource.js';
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

export const eventsResource: RegistryResource = {
  // kube-apiserver --event-ttl default: events expire an hour after creation.
  ttlSeconds: 3600,
  info: eventsInfo,
  strategy: defineStrategy({
    namespaced: true,
    allowCreateOnUpdate: true,
    validate: (_ctx, event) => validateEvent(event),
    validateUpdate: (_ctx, event) => validateEvent(event),
  }),
  table: eventTable,
  selectableFields: eventSelectableFields,
};
