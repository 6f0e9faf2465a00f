import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../../machinery/object.js';
import { cloneJson } from '../../../util/json.js';
import { eventToCore, eventToV1 } from './conversion.js';

const meta = { name: 'web.17a', namespace: 'default', uid: 'u1', resourceVersion: '7' };
const pod = { kind: 'Pod', namespace: 'default', name: 'web', uid: 'p1', apiVersion: 'v1' };
const node = { kind: 'Node', name: 'n1' };

/** A core/v1 Event as the server stores it (every field set). */
function fullCore(): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { ...meta, labels: { a: 'b' } },
    involvedObject: { ...pod, fieldPath: 'spec.containers{web}' },
    reason: 'Pulled',
    message: 'Pulled image',
    source: { component: 'kubelet', host: 'n1' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:01:00Z',
    count: 4,
    type: 'Normal',
    eventTime: '2024-01-01T00:00:00.123456Z',
    series: { count: 3, lastObservedTime: '2024-01-01T00:01:00.000001Z' },
    action: 'Pulling',
    related: node,
    reportingComponent: 'kubelet',
    reportingInstance: 'n1',
  };
}

/** The same event as events.k8s.io/v1 prints it. */
function fullV1(): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: { ...meta, labels: { a: 'b' } },
    eventTime: '2024-01-01T00:00:00.123456Z',
    series: { count: 3, lastObservedTime: '2024-01-01T00:01:00.000001Z' },
    reportingController: 'kubelet',
    reportingInstance: 'n1',
    action: 'Pulling',
    reason: 'Pulled',
    regarding: { ...pod, fieldPath: 'spec.containers{web}' },
    related: node,
    note: 'Pulled image',
    type: 'Normal',
    deprecatedSource: { component: 'kubelet', host: 'n1' },
    deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
    deprecatedLastTimestamp: '2024-01-01T00:01:00Z',
    deprecatedCount: 4,
  };
}

/** A legacy event (no eventTime, no reporting fields) as core/v1 stores it. */
function legacyCore(): KubeObject {
  return {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { ...meta },
    involvedObject: pod,
    reason: 'Started',
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  };
}

describe('events.k8s.io/v1 ⇄ core/v1 Event conversion', () => {
  test('every field maps to its counterpart, in Go field order', () => {
    const v1 = eventToV1(fullCore());
    assert.deepEqual(v1, fullV1());
    assert.deepEqual(Object.keys(v1), Object.keys(fullV1()));
    const core = eventToCore(fullV1());
    assert.deepEqual(core, fullCore());
    assert.deepEqual(Object.keys(core), Object.keys(fullCore()));
  });

  test('round trips are lossless both ways', () => {
    for (const o of [fullCore(), legacyCore()]) assert.deepEqual(eventToCore(eventToV1(o)), o);
    for (const o of [fullV1(), eventToV1(legacyCore())]) assert.deepEqual(eventToV1(eventToCore(o)), o);
  });

  test('zero values print as each version prints them', () => {
    assert.deepEqual(eventToV1(legacyCore()), {
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      metadata: meta,
      eventTime: null,
      reason: 'Started',
      regarding: pod,
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    // A minimal events.k8s.io/v1 body: core/v1 always prints the reporting fields and the structs.
    const minimal: KubeObject = { kind: 'Event', apiVersion: 'events.k8s.io/v1', metadata: { name: 'x' } };
    assert.deepEqual(eventToCore(minimal), {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name: 'x' },
      involvedObject: {},
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    });
  });

  test('series: count is omitempty in core/v1 only', () => {
    const core = { ...legacyCore(), series: { lastObservedTime: null } };
    assert.deepEqual(eventToV1(core)['series'], { count: 0, lastObservedTime: null });
    const v1: KubeObject = { ...fullV1(), series: { count: 0, lastObservedTime: null } };
    assert.deepEqual(eventToCore(v1)['series'], { lastObservedTime: null });
  });

  test('an empty related reference stays (it is a pointer), an absent one stays absent', () => {
    assert.deepEqual(eventToV1({ ...legacyCore(), related: {} })['related'], {});
    assert.equal('related' in eventToV1(legacyCore()), false);
    assert.equal('related' in eventToCore({ ...fullV1(), related: null }), false);
  });

  test('conversions leave their input alone and share nothing with it', () => {
    const core = fullCore();
    const before = cloneJson(core);
    const v1 = eventToV1(core);
    assert.deepEqual(core, before);
    (v1['regarding'] as Record<string, string>)['name'] = 'changed';
    v1.metadata.name = 'changed';
    assert.deepEqual(core, before);
    const back = eventToCore(v1);
    (back['source'] as Record<string, string>)['host'] = 'changed';
    assert.equal((v1['deprecatedSource'] as Record<string, string>)['host'], 'n1');
  });
});
