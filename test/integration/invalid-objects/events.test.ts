/**
 * Invalid events.k8s.io/v1 Events and v1.27's exact errors (pkg/apis/core/validation/events.go:
 * the legacy rules, then the strict ones for events.k8s.io/v1 creates). They are stored as core
 * Events, so the Status names the core GroupKind (`Event "x" is invalid`), as upstream's does.
 */
import { runTable } from './support.js';
import type { Row } from './support.js';

const rows: Row[] = [
  {
    name: 'events.k8s.io/v1 Event: eventTime required, type empty',
    kind: 'Event',
    path: '/apis/events.k8s.io/v1/namespaces/invalid/events',
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'ev' },
      regarding: { kind: 'Pod', name: 'p', namespace: 'invalid' },
    },
    causes: [
      ['eventTime', 'FieldValueRequired', 'Required value'],
      ['type', 'FieldValueInvalid', 'Invalid value: "": has invalid value: '],
    ],
  },
  {
    name: 'events.k8s.io/v1 Event: reportingController not a qualified name, action and reason required, unknown type',
    kind: 'Event',
    path: '/apis/events.k8s.io/v1/namespaces/invalid/events',
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'ev2' },
      eventTime: '2024-01-01T00:00:00.000000Z',
      reportingController: 'Bad Controller',
      reportingInstance: 'i',
      action: '',
      reason: '',
      type: 'Odd',
      regarding: { kind: 'Pod', name: 'p', namespace: 'other' },
      note: 'n',
    },
    causes: [
      [
        'reportingController',
        'FieldValueInvalid',
        "Invalid value: \"Bad Controller\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
      ['action', 'FieldValueRequired', 'Required value'],
      ['reason', 'FieldValueRequired', 'Required value'],
      ['type', 'FieldValueInvalid', 'Invalid value: "": has invalid value: Odd'],
    ],
  },
  {
    name: 'events.k8s.io/v1 Event: deprecated fields must stay unset, series too small',
    kind: 'Event',
    path: '/apis/events.k8s.io/v1/namespaces/invalid/events',
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'ev3' },
      eventTime: '2024-01-01T00:00:00.000000Z',
      reportingController: 'c',
      reportingInstance: 'i',
      action: 'a',
      reason: 'r',
      type: 'Normal',
      regarding: { kind: 'Pod', name: 'p', namespace: 'invalid' },
      deprecatedCount: 3,
      deprecatedSource: { component: 'x' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      series: { count: 1, lastObservedTime: '2024-01-01T00:00:00.000000Z' },
    },
    causes: [
      ['series.count', 'FieldValueInvalid', 'Invalid value: "": should be at least 2'],
      ['firstTimestamp', 'FieldValueInvalid', 'Invalid value: "": needs to be unset'],
      ['count', 'FieldValueInvalid', 'Invalid value: "": needs to be unset'],
      ['source', 'FieldValueInvalid', 'Invalid value: "": needs to be unset'],
    ],
  },
];

runTable('invalid objects: events.k8s.io/v1', rows);
