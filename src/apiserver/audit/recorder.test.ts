/** Audit event shapes per level and stage (AM-17), as k8s.io/apiserver v0.27 writes them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditEvent } from './event.js';
import { microTime, sourceIPs, truncatedUserAgent } from './event.js';
import type { AuditLevel, AuditStage } from './policy.js';
import { AuditRecorder, withoutManagedFields } from './recorder.js';

function recorder(
  level: AuditLevel,
  omitStages: AuditStage[] = [],
  omitManagedFields = false,
): { r: AuditRecorder; events: AuditEvent[]; annotations: Map<string, string> } {
  const events: AuditEvent[] = [];
  const annotations = new Map<string, string>();
  const r = new AuditRecorder({
    config: { level, omitStages, omitManagedFields },
    sink: { process: (e) => void events.push(e) },
    auditID: 'id-1',
    requestURI: '/api/v1/namespaces/ns/configmaps?fieldManager=x',
    verb: 'create',
    user: { username: 'alice', groups: ['system:authenticated'] },
    sourceIPs: ['127.0.0.1'],
    userAgent: 'kubectl/v1.27.0',
    objectRef: { resource: 'configmaps', namespace: 'ns', apiVersion: 'v1' },
    requestReceivedMicros: Date.UTC(2026, 0, 2, 3, 4, 5) * 1000 + 123456,
    annotations,
    impersonatedUser: () => undefined,
  });
  return { r, events, annotations };
}

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm',
    namespace: 'ns',
    managedFields: [{ manager: 'kubectl', operation: 'Update' }],
  },
  data: { a: '1' },
};

test('AM-17: Metadata: no bodies; objectRef completed from the request object; stages in order', () => {
  const { r, events, annotations } = recorder('Metadata');
  r.emit('RequestReceived');
  r.requestObject({ ...configMap, metadata: { ...configMap.metadata, uid: 'u-1', resourceVersion: '5' } });
  annotations.set('authorization.k8s.io/decision', 'allow');
  r.responseObject({ ...configMap, metadata: { ...configMap.metadata, resourceVersion: '6' } });
  r.complete(201, false);
  assert.deepEqual(
    events.map((e) => e.stage),
    ['RequestReceived', 'ResponseComplete'],
  );
  const [received, complete] = events as [AuditEvent, AuditEvent];
  assert.deepEqual(Object.keys(complete), [
    'kind',
    'apiVersion',
    'level',
    'auditID',
    'stage',
    'requestURI',
    'verb',
    'user',
    'sourceIPs',
    'userAgent',
    'objectRef',
    'responseStatus',
    'requestReceivedTimestamp',
    'stageTimestamp',
    'annotations',
  ]);
  assert.equal(complete.kind, 'Event');
  assert.equal(complete.apiVersion, 'audit.k8s.io/v1');
  assert.deepEqual(complete.objectRef, {
    resource: 'configmaps',
    namespace: 'ns',
    name: 'cm',
    uid: 'u-1',
    apiVersion: 'v1',
    resourceVersion: '5',
  });
  assert.deepEqual(complete.responseStatus, { metadata: {}, code: 201 });
  assert.equal(complete.requestObject, undefined);
  assert.equal(complete.responseObject, undefined);
  // RequestReceived: stamped at arrival, no status yet, annotations not yet added.
  assert.equal(received.stageTimestamp, '2026-01-02T03:04:05.123456Z');
  assert.equal(received.requestReceivedTimestamp, '2026-01-02T03:04:05.123456Z');
  assert.equal(received.responseStatus, undefined);
  assert.equal(received.annotations, undefined);
  assert.deepEqual(complete.annotations, { 'authorization.k8s.io/decision': 'allow' });
  assert.match(complete.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
});

test('AM-17: Request keeps the request object (a copy), RequestResponse the response too', () => {
  const req = recorder('Request');
  const sent = structuredClone(configMap);
  req.r.requestObject(sent);
  sent.data.a = 'changed by admission';
  req.r.responseObject(configMap);
  req.r.complete(201, false);
  assert.deepEqual((req.events[0]!.requestObject as typeof configMap).data, { a: '1' });
  assert.equal(req.events[0]!.responseObject, undefined);

  const rr = recorder('RequestResponse', [], true);
  rr.r.requestObject(configMap);
  rr.r.responseObject({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [configMap] });
  rr.r.complete(200, false);
  const e = rr.events[0]!;
  // omitManagedFields: gone from the object and from list items, the original untouched.
  assert.deepEqual((e.requestObject as typeof configMap).metadata, { name: 'cm', namespace: 'ns' });
  assert.deepEqual((e.responseObject as { items: (typeof configMap)[] }).items[0]!.metadata, {
    name: 'cm',
    namespace: 'ns',
  });
  assert.equal(configMap.metadata.managedFields.length, 1);
});

test('AM-17: a Status answer becomes the response status (failure fields as upstream)', () => {
  const { r, events } = recorder('Metadata');
  r.responseObject({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'configmaps "cm" already exists',
    reason: 'AlreadyExists',
    details: { name: 'cm', kind: 'configmaps' },
    code: 409,
  });
  r.complete(409, false);
  assert.deepEqual(events[0]!.responseStatus, {
    metadata: {},
    status: 'Failure',
    message: 'configmaps "cm" already exists',
    reason: 'AlreadyExists',
    details: { name: 'cm', kind: 'configmaps' },
    code: 409,
  });
});

test('AM-17: long-running: ResponseStarted when the headers go out, then ResponseComplete; omitStages drop stages', () => {
  const { r, events } = recorder('Metadata', ['RequestReceived']);
  r.emit('RequestReceived');
  r.codeSent(200, true);
  r.complete(200, true);
  assert.deepEqual(
    events.map((e) => [e.stage, e.responseStatus?.code]),
    [
      ['ResponseStarted', 200],
      ['ResponseComplete', 200],
    ],
  );
  // A long-running request that never answered: upstream's "Connection closed early".
  const early = recorder('Metadata');
  early.r.complete(undefined, true);
  assert.deepEqual(
    early.events.map((e) => [e.stage, e.responseStatus]),
    [
      ['ResponseStarted', { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 }],
      [
        'ResponseComplete',
        { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 },
      ],
    ],
  );
});

test('AM-17: Panic replaces ResponseComplete', () => {
  const { r, events } = recorder('Metadata');
  r.panic(new Error('boom'));
  r.complete(500, false);
  assert.deepEqual(
    events.map((e) => [e.stage, e.responseStatus]),
    [
      [
        'Panic',
        {
          metadata: {},
          status: 'Failure',
          message: "APIServer panic'd: boom",
          reason: 'InternalError',
          code: 500,
        },
      ],
    ],
  );
});

test('AM-17: annotations: the first value of a key stays', () => {
  const warnings: string[] = [];
  const annotations = new Map<string, string>();
  const r = new AuditRecorder({
    config: { level: 'Metadata', omitStages: [], omitManagedFields: false },
    sink: { process: () => true },
    auditID: 'a',
    requestURI: '/',
    verb: 'get',
    user: {},
    sourceIPs: [],
    userAgent: '',
    requestReceivedMicros: 0,
    annotations,
    impersonatedUser: () => undefined,
    onWarning: (w) => warnings.push(w),
  });
  r.addAnnotation('hook.example.com/k', 'one');
  r.addAnnotation('hook.example.com/k', 'two');
  r.addAnnotation('hook.example.com/k', 'one');
  assert.equal(annotations.get('hook.example.com/k'), 'one');
  assert.equal(warnings.length, 1);
});

test('AM-17: a throwing sink is reported, not thrown', () => {
  const dropped: unknown[] = [];
  const r = new AuditRecorder({
    config: { level: 'Metadata', omitStages: [], omitManagedFields: false },
    sink: {
      process: () => {
        throw new Error('disk gone');
      },
    },
    auditID: 'a',
    requestURI: '/',
    verb: 'get',
    user: {},
    sourceIPs: [],
    userAgent: '',
    requestReceivedMicros: 0,
    annotations: new Map(),
    impersonatedUser: () => undefined,
    onDropped: (e) => dropped.push(e),
  });
  assert.equal(r.emit('RequestReceived'), false);
  assert.equal(dropped.length, 1);
});

test('AM-17: MicroTime, sourceIPs and user agents as upstream', () => {
  assert.equal(microTime(Date.UTC(2026, 11, 1, 0, 0, 0) * 1000 + 7), '2026-12-01T00:00:00.000007Z');
  assert.deepEqual(sourceIPs({}, '::ffff:127.0.0.1'), ['127.0.0.1']);
  assert.deepEqual(
    sourceIPs({ 'x-forwarded-for': '10.0.0.1, bogus, 10.0.0.2', 'x-real-ip': '10.0.0.1' }, '127.0.0.1'),
    ['10.0.0.1', '10.0.0.2', '127.0.0.1'],
  );
  assert.deepEqual(sourceIPs({ 'x-real-ip': '10.0.0.9' }, '10.0.0.9'), ['10.0.0.9']);
  assert.equal(truncatedUserAgent('a'.repeat(1025)), `${'a'.repeat(1024)}...TRUNCATED`);
  assert.equal(truncatedUserAgent('kubectl'), 'kubectl');
});

test('AM-17: withoutManagedFields covers tables', () => {
  const table = {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    rows: [{ cells: ['cm'], object: configMap }],
  };
  const out = withoutManagedFields(table) as typeof table;
  assert.deepEqual(out.rows[0]!.object.metadata, { name: 'cm', namespace: 'ns' });
});
