import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import type { JsonObject } from '../../../../util/json.js';
import { validateEventCreate, validateEventUpdate } from './event.js';
import type { EventRequestVersion } from './event.js';

const msgs = (errs: FieldError[]): string[] => errs.map((e) => e.toString());

const coreV1: EventRequestVersion | undefined = undefined;
const eventsV1: EventRequestVersion = { group: 'events.k8s.io', version: 'v1' };
const eventsV1beta1: EventRequestVersion = { group: 'events.k8s.io', version: 'v1beta1' };

const qualifiedNameRegex =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const pod = { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' };

/** A core/v1 Event as stored, with `fields` over a legacy event about a pod in default. */
function legacy(fields: JsonObject = {}, metadata: JsonObject = {}): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: 'web.1', namespace: 'default', resourceVersion: '5', ...metadata },
    involvedObject: pod,
    reason: 'Started',
    source: { component: 'kubelet' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:00:00Z',
    count: 1,
    type: 'Normal',
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
    ...fields,
  };
}

/** A "new" event as an events.k8s.io/v1 client writes it (as core/v1). */
function strict(fields: JsonObject = {}, metadata: JsonObject = {}): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: 'web.1', namespace: 'default', resourceVersion: '5', ...metadata },
    involvedObject: pod,
    reason: 'Started',
    message: 'started',
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    type: 'Normal',
    eventTime: '2024-01-01T00:00:00.123456Z',
    action: 'Starting',
    reportingComponent: 'k8s.io/kubelet',
    reportingInstance: 'node-1',
    ...fields,
  };
}

describe('event create validation', () => {
  const cases: {
    name: string;
    event: KubeObject;
    version: EventRequestVersion | undefined;
    want: string[];
  }[] = [
    { name: 'legacy event at core/v1', event: legacy(), version: coreV1, want: [] },
    { name: 'new event at core/v1', event: strict(), version: coreV1, want: [] },
    { name: 'new event at events.k8s.io/v1', event: strict(), version: eventsV1, want: [] },
    {
      name: 'involved object in another namespace',
      event: legacy({ involvedObject: { ...pod, namespace: 'other' } }),
      version: coreV1,
      want: ['involvedObject.namespace: Invalid value: "other": does not match event.namespace'],
    },
    {
      name: 'cluster-scoped involved object: the event lives in default (or no namespace)',
      event: legacy({ involvedObject: { kind: 'Node', name: 'n1' } }),
      version: coreV1,
      want: [],
    },
    {
      name: 'cluster-scoped involved object, legacy event outside default',
      event: legacy({ involvedObject: { kind: 'Node', name: 'n1' } }, { namespace: 'kube-system' }),
      version: coreV1,
      want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    },
    {
      name: 'cluster-scoped involved object, new event in kube-system',
      event: strict({ involvedObject: { kind: 'Node', name: 'n1' } }, { namespace: 'kube-system' }),
      version: coreV1,
      want: [],
    },
    {
      name: 'cluster-scoped involved object, new event elsewhere',
      event: strict({ involvedObject: { kind: 'Node', name: 'n1' } }, { namespace: 'apps' }),
      version: coreV1,
      want: ['involvedObject.namespace: Invalid value: "": does not match event.namespace'],
    },
    {
      name: 'new event without reporting fields at core/v1: the core/v1 field name',
      event: strict({ reportingComponent: '', reportingInstance: '', action: '', reason: '' }),
      version: coreV1,
      want: [
        'reportingComponent: Required value',
        'reportingComponent: Invalid value: "": name part must be non-empty',
        `reportingComponent: Invalid value: "": ${qualifiedNameRegex}`,
        'reportingInstance: Required value',
        'action: Required value',
        'reason: Required value',
      ],
    },
    {
      name: 'new event without reporting fields at events.k8s.io/v1: the internal field name',
      event: strict({ reportingComponent: '', reportingInstance: '', action: '', reason: '' }),
      version: eventsV1,
      want: [
        'reportingController: Required value',
        'reportingController: Invalid value: "": name part must be non-empty',
        `reportingController: Invalid value: "": ${qualifiedNameRegex}`,
        'reportingInstance: Required value',
        'action: Required value',
        'reason: Required value',
      ],
    },
    {
      name: 'lengths count bytes (43 × "€" is 129 bytes), note up to 1024 bytes',
      event: strict({
        reportingInstance: 'i'.repeat(129),
        action: '€'.repeat(43),
        reason: 'r'.repeat(128),
        message: 'm'.repeat(1025),
      }),
      version: coreV1,
      want: [
        'reportingInstance: Invalid value: "": can have at most 128 characters',
        'action: Invalid value: "": can have at most 128 characters',
        'message: Invalid value: "": can have at most 1024 characters',
      ],
    },
    {
      name: 'a note of exactly 1024 bytes',
      event: strict({ message: 'é'.repeat(512) }),
      version: eventsV1,
      want: [],
    },
    {
      name: 'strict rules: name, series, eventTime, type and the deprecated fields',
      event: legacy(
        {
          series: { count: 1 },
          type: 'Info',
          source: { host: 'n1' },
          count: 2,
        },
        { name: 'Web_1', finalizers: ['example.com/f', 'custom'] },
      ),
      version: eventsV1,
      want: [
        `metadata.name: Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        'metadata.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
        'series.count: Invalid value: "": should be at least 2',
        'series.lastObservedTime: Required value',
        'eventTime: Required value',
        'type: Invalid value: "": has invalid value: Info',
        'firstTimestamp: Invalid value: "": needs to be unset',
        'lastTimestamp: Invalid value: "": needs to be unset',
        'count: Invalid value: "": needs to be unset',
        'source: Invalid value: "": needs to be unset',
      ],
    },
    {
      name: 'a missing type is invalid at events.k8s.io/v1',
      event: strict({ type: '' }),
      version: eventsV1,
      want: ['type: Invalid value: "": has invalid value: '],
    },
    {
      name: 'a valid series',
      event: strict({ series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' } }),
      version: eventsV1,
      want: [],
    },
    {
      name: 'events.k8s.io/v1beta1 keeps the legacy rules (with the internal field name)',
      event: strict({ reportingComponent: '', type: 'Info' }),
      version: eventsV1beta1,
      want: [
        'reportingController: Required value',
        'reportingController: Invalid value: "": name part must be non-empty',
        `reportingController: Invalid value: "": ${qualifiedNameRegex}`,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(msgs(validateEventCreate(c.event, c.version)), c.want);
    });
  }
});

describe('event update validation', () => {
  const old = strict({ series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' } });
  const cases: {
    name: string;
    event: KubeObject;
    old?: KubeObject;
    version: EventRequestVersion | undefined;
    want: string[];
  }[] = [
    { name: 'unchanged', event: strict(old), version: eventsV1, want: [] },
    {
      name: 'core/v1 may change anything the legacy rules allow',
      event: legacy({ message: 'other', count: 7 }),
      version: coreV1,
      want: [],
    },
    {
      name: 'the legacy rules apply to updates at every version',
      event: strict({ ...old, reportingComponent: '' }),
      version: eventsV1,
      want: [
        'reportingController: Required value',
        'reportingController: Invalid value: "": name part must be non-empty',
        `reportingController: Invalid value: "": ${qualifiedNameRegex}`,
        'reportingController: Invalid value: "": field is immutable',
      ],
    },
    {
      name: 'everything but metadata and series is immutable (reason is reported twice, as upstream)',
      event: strict({
        involvedObject: { kind: 'Pod', namespace: 'default', name: 'db', uid: 'u2' },
        reason: 'Killed',
        message: 'killed',
        source: { component: 'kubelet', host: 'n1' },
        firstTimestamp: '2024-02-01T10:00:00Z',
        lastTimestamp: '2024-02-01T10:00:05Z',
        count: 3,
        type: 'Warning',
        eventTime: '2024-02-01T10:00:00.5Z',
        action: 'Killing',
        related: { kind: 'Node', name: 'n1' },
        reportingComponent: 'k8s.io/other',
        reportingInstance: 'node-2',
        series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' },
      }),
      version: eventsV1,
      want: [
        'involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"db", UID:"u2", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
        'reason: Invalid value: "Killed": field is immutable',
        'message: Invalid value: "killed": field is immutable',
        'source: Invalid value: core.EventSource{Component:"kubelet", Host:"n1"}: field is immutable',
        'firstTimestamp: Invalid value: 2024-02-01 10:00:00 +0000 UTC: field is immutable',
        'lastTimestamp: Invalid value: 2024-02-01 10:00:05 +0000 UTC: field is immutable',
        'count: Invalid value: 3: field is immutable',
        'reason: Invalid value: "Killed": field is immutable',
        'type: Invalid value: "Warning": field is immutable',
        'eventTime: Invalid value: 2024-02-01 10:00:00.5 +0000 UTC: field is immutable',
        'action: Invalid value: "Killing": field is immutable',
        'related: Invalid value: core.ObjectReference{Kind:"Node", Namespace:"", Name:"n1", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
        'reportingController: Invalid value: "k8s.io/other": field is immutable',
        'reportingInstance: Invalid value: "node-2": field is immutable',
      ],
    },
    {
      name: 'clearing values: zero times and a nil related reference',
      old: strict({
        firstTimestamp: '2024-01-01T00:00:00Z',
        related: { kind: 'Node', name: 'n1' },
        series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' },
      }),
      event: strict({ series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' } }),
      version: eventsV1,
      want: [
        'firstTimestamp: Invalid value: 0001-01-01 00:00:00 +0000 UTC: field is immutable',
        'related: Invalid value: "null": field is immutable',
      ],
    },
    {
      name: 'times compare as instants, absent strings as empty',
      old: strict({
        firstTimestamp: '2024-01-01T01:00:00+01:00',
        involvedObject: { ...pod, uid: '' },
        series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' },
      }),
      event: strict({
        firstTimestamp: '2024-01-01T00:00:00Z',
        series: { count: 2, lastObservedTime: '2024-01-01T00:00:01Z' },
      }),
      version: eventsV1,
      want: [],
    },
    {
      name: 'eventTime changes below a microsecond are tolerated',
      event: strict({ ...old, eventTime: '2024-01-01T00:00:00.123456789Z' }),
      version: eventsV1,
      want: [],
    },
    {
      name: 'an eventTime change of a microsecond is not',
      event: strict({ ...old, eventTime: '2024-01-01T00:00:00.123457Z' }),
      version: eventsV1,
      want: ['eventTime: Invalid value: 2024-01-01 00:00:00.123457 +0000 UTC: field is immutable'],
    },
    {
      name: 'a changed series is validated',
      event: strict({ ...old, series: { count: 1 } }),
      version: eventsV1,
      want: [
        'series.count: Invalid value: "": should be at least 2',
        'series.lastObservedTime: Required value',
      ],
    },
    {
      name: 'an unchanged series is not',
      old: strict({ series: { count: 1 } }),
      event: strict({ series: { count: 1 } }),
      version: eventsV1,
      want: [],
    },
    {
      name: 'ObjectMeta update rules and kube finalizer names',
      event: strict({ series: old['series']! }, { resourceVersion: '', finalizers: ['custom'] }),
      version: eventsV1,
      want: [
        'metadata.resourceVersion: Invalid value: "": must be specified for an update',
        'metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(msgs(validateEventUpdate(c.event, c.old ?? old, c.version)), c.want);
    });
  }
});
