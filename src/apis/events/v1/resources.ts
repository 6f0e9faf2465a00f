/**
 * events.k8s.io/v1 resources as kube-apiserver v1.27 serves and discovers them. Event is stored as
 * core/v1 Event (one key space with /api/v1 events; ./conversion.ts converts). Upstream registers
 * no defaulting functions for events.k8s.io/v1, so there is no defaulter.
 */
import type { ResourceInfo } from '../../resource.js';
import { allVerbs } from '../../resource.js';

export const eventV1Info: ResourceInfo = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  resource: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  definition: 'io.k8s.api.events.v1.Event',
  verbs: allVerbs,
};

export const eventsV1ResourceInfos: readonly ResourceInfo[] = [eventV1Info];
