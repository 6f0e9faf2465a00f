/**
 * Event is served at core/v1 and at events.k8s.io/v1 from one storage (core/v1), as
 * upstream: one key space, one storage version hash, objects written at one version read back at
 * the other with the fields renamed, watches at each version in their own version, and the strict
 * events.k8s.io/v1 validation only for requests made at events.k8s.io/v1.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

let server: TestServer;
before(async () => {
  server = await startTestServer({ controllers: false });
});
after(() => server.stop());

const core = '/api/v1/namespaces/default/events';
const v1 = '/apis/events.k8s.io/v1/namespaces/default/events';
const pod = { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' };

type Json = Record<string, unknown>;
const at = (o: unknown, ...path: (string | number)[]): unknown =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

/** An event as an events.k8s.io/v1 client (client-go's new recorder) writes it. */
function newEvent(name: string, extra: Json = {}): Json {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2024-01-01T00:00:00.123456Z',
    reportingController: 'k8s.io/kubelet',
    reportingInstance: 'node-1',
    action: 'Pulling',
    reason: 'Pulled',
    regarding: pod,
    note: 'Pulled image',
    type: 'Normal',
    ...extra,
  };
}

/** An event as a legacy core/v1 client (kubectl describe's source) writes it. */
function legacyEvent(name: string, extra: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: pod,
    reason: 'Started',
    message: 'Started container',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:00:05Z',
    count: 2,
    type: 'Normal',
    ...extra,
  };
}

test('written at events.k8s.io/v1, read at core/v1 (same object, core field names)', async () => {
  const created = await server.request('POST', v1, { body: newEvent('new.1') });
  assert.equal(created.status, 201, created.text);
  const asV1 = created.json();
  assert.equal(asV1['apiVersion'], 'events.k8s.io/v1');
  assert.equal(asV1['note'], 'Pulled image');
  assert.deepEqual(asV1['regarding'], pod);
  const asCore = (await server.request('GET', `${core}/new.1`)).json();
  assert.equal(asCore['apiVersion'], 'v1');
  assert.deepEqual(asCore['involvedObject'], pod);
  assert.equal(asCore['message'], 'Pulled image');
  assert.equal(asCore['reportingComponent'], 'k8s.io/kubelet');
  assert.equal(asCore['reportingInstance'], 'node-1');
  assert.equal(asCore['eventTime'], '2024-01-01T00:00:00.123456Z');
  assert.deepEqual(asCore['source'], {});
  assert.equal(asCore['firstTimestamp'], null);
  for (const k of ['regarding', 'note', 'reportingController', 'deprecatedSource'])
    assert.ok(!(k in asCore), k);
  assert.equal(at(asCore, 'metadata', 'resourceVersion'), at(asV1, 'metadata', 'resourceVersion'));
  assert.equal(at(asCore, 'metadata', 'uid'), at(asV1, 'metadata', 'uid'));
});

test('written at core/v1, read at events.k8s.io/v1 (deprecated* fields)', async () => {
  const created = await server.request('POST', core, { body: legacyEvent('legacy.1') });
  assert.equal(created.status, 201, created.text);
  const asV1 = (await server.request('GET', `${v1}/legacy.1`)).json();
  assert.equal(asV1['apiVersion'], 'events.k8s.io/v1');
  assert.deepEqual(asV1['regarding'], pod);
  assert.equal(asV1['note'], 'Started container');
  assert.deepEqual(asV1['deprecatedSource'], { component: 'kubelet', host: 'node-1' });
  assert.equal(asV1['deprecatedFirstTimestamp'], '2024-01-01T00:00:00Z');
  assert.equal(asV1['deprecatedLastTimestamp'], '2024-01-01T00:00:05Z');
  assert.equal(asV1['deprecatedCount'], 2);
  assert.equal(asV1['eventTime'], null);
  for (const k of ['involvedObject', 'message', 'source', 'count', 'reportingComponent'])
    assert.ok(!(k in asV1), k);
  assert.equal(at(asV1, 'metadata', 'resourceVersion'), at(created.json(), 'metadata', 'resourceVersion'));
});

test('one key space: a list at either version sees events written at both', async () => {
  const names = (r: { items: Json[] }): string[] =>
    r.items.map((i) => String(at(i, 'metadata', 'name'))).sort();
  const coreList = (await server.request('GET', core)).json<{ items: Json[]; kind: string }>();
  const v1List = (await server.request('GET', v1)).json<{
    items: Json[];
    kind: string;
    apiVersion: string;
  }>();
  assert.deepEqual(names(coreList), ['legacy.1', 'new.1']);
  assert.deepEqual(names(v1List), ['legacy.1', 'new.1']);
  assert.equal(v1List.kind, 'EventList');
  assert.equal(v1List.apiVersion, 'events.k8s.io/v1');
  // List items carry no TypeMeta; their fields are the list's version's.
  assert.ok(v1List.items.every((i) => 'regarding' in i && !('involvedObject' in i)));
  assert.ok(coreList.items.every((i) => 'involvedObject' in i && !('regarding' in i)));
  // A name taken at one version is taken at the other.
  const dup = await server.request('POST', core, { body: legacyEvent('new.1') });
  assert.equal(dup.status, 409, dup.text);
  assert.equal(dup.json()['message'], 'events "new.1" already exists');
  // Deleted at one version, gone at the other.
  assert.equal((await server.request('DELETE', `${v1}/legacy.1`)).status, 200);
  const gone = await server.request('GET', `${core}/legacy.1`);
  assert.equal(gone.status, 404);
  assert.equal(gone.json()['message'], 'events "legacy.1" not found');
});

test('strict validation applies to events.k8s.io/v1 creates only', async () => {
  // The same legacy event body is fine at core/v1 ...
  const atCore = await server.request('POST', core, { body: legacyEvent('strict.1') });
  assert.equal(atCore.status, 201, atCore.text);
  // ... and refused at events.k8s.io/v1 with the deprecated fields set and no eventTime.
  const atV1 = await server.request('POST', v1, {
    body: {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'strict.2' },
      regarding: pod,
      reason: 'Started',
      note: 'Started container',
      type: 'Info',
      deprecatedSource: { component: 'kubelet' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T00:00:05Z',
      deprecatedCount: 2,
    },
  });
  assert.equal(atV1.status, 422, atV1.text);
  const status = atV1.json<{ message: string; details: Json }>();
  assert.equal(
    status.message,
    'Event "strict.2" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: Info, firstTimestamp: Invalid value: "": needs to be unset, lastTimestamp: Invalid value: "": needs to be unset, count: Invalid value: "": needs to be unset, source: Invalid value: "": needs to be unset]',
  );
  assert.equal(status.details['kind'], 'Event');
  assert.equal(status.details['group'], undefined);
  // The legacy rules name the reporting controller by the request's field name.
  const noController = await server.request('POST', v1, {
    body: newEvent('strict.3', { reportingController: undefined }),
  });
  assert.equal(noController.status, 422);
  assert.match(
    noController.json<{ message: string }>().message,
    /^Event "strict.3" is invalid: \[reportingController: Required value, /,
  );
  const noComponent = await server.request('POST', core, {
    body: { ...legacyEvent('strict.4'), eventTime: '2024-01-01T00:00:00.000000Z', action: 'A' },
  });
  assert.equal(noComponent.status, 422);
  assert.match(
    noComponent.json<{ message: string }>().message,
    /^Event "strict.4" is invalid: \[reportingComponent: Required value, /,
  );
  // Strict names: events.k8s.io/v1 wants a DNS subdomain, core/v1 only a path segment.
  const upper = await server.request('POST', v1, { body: newEvent('Upper.1') });
  assert.equal(upper.status, 422);
  assert.match(
    upper.json<{ message: string }>().message,
    /^Event "Upper.1" is invalid: metadata\.name: Invalid value: "Upper\.1": a lowercase RFC 1123 subdomain/,
  );
  const upperCore = await server.request('POST', core, { body: legacyEvent('Upper.1') });
  assert.equal(upperCore.status, 201, upperCore.text);
});

test('updates: immutable at events.k8s.io/v1, free at core/v1', async () => {
  const created = await server.request('POST', v1, { body: newEvent('update.1') });
  assert.equal(created.status, 201, created.text);
  // A series update through events.k8s.io/v1 (what client-go's recorder does) is allowed.
  const read = (await server.request('GET', `${v1}/update.1`)).json();
  read['series'] = { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' };
  const series = await server.request('PUT', `${v1}/update.1`, { body: read });
  assert.equal(series.status, 200, series.text);
  assert.deepEqual(series.json()['series'], { count: 2, lastObservedTime: '2024-01-01T00:01:00.000000Z' });
  // Changing the note is not.
  const note = await server.request('PATCH', `${v1}/update.1`, {
    contentType: 'application/merge-patch+json',
    body: { note: 'changed' },
  });
  assert.equal(note.status, 422, note.text);
  assert.equal(
    note.json()['message'],
    'Event "update.1" is invalid: message: Invalid value: "changed": field is immutable',
  );
  // The same change at core/v1 goes through.
  const message = await server.request('PATCH', `${core}/update.1`, {
    contentType: 'application/merge-patch+json',
    body: { message: 'changed' },
  });
  assert.equal(message.status, 200, message.text);
  assert.equal((await server.request('GET', `${v1}/update.1`)).json()['note'], 'changed');
  // An invalid new series is refused at events.k8s.io/v1.
  const bad = await server.request('PATCH', `${v1}/update.1`, {
    contentType: 'application/merge-patch+json',
    body: { series: { count: 1 } },
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'Event "update.1" is invalid: series.count: Invalid value: "": should be at least 2',
  );
  // PUT creates (AllowCreateOnUpdate) with the strict rules too.
  const put = await server.request('PUT', `${v1}/update.2`, {
    body: newEvent('update.2', { type: 'Other' }),
  });
  assert.equal(put.status, 422, put.text);
  const putOk = await server.request('PUT', `${v1}/update.2`, { body: newEvent('update.2') });
  assert.equal(putOk.status, 201, putOk.text);
});

test('a watch at each version sees the same changes in its own version', async () => {
  const list = (await server.request('GET', core)).json<{ metadata: { resourceVersion: string } }>();
  const session = adminSession(server);
  const open = (path: string) =>
    collectWatch<Json>(session, `${path}?watch=1&resourceVersion=${list.metadata.resourceVersion}`);
  try {
    const wCore = open(core);
    const wV1 = open(v1);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await server.request('POST', v1, { body: newEvent('watch.1') })).status, 201);
    assert.equal((await server.request('POST', core, { body: legacyEvent('watch.2') })).status, 201);
    assert.equal((await server.request('DELETE', `${core}/watch.1`)).status, 200);
    await until(() => wCore.lines.length >= 3 && wV1.lines.length >= 3, 5000);
    const summary = (w: { lines: Json[] }): string[] =>
      w.lines.map((l) => `${String(l['type'])} ${String(at(l, 'object', 'metadata', 'name'))}`);
    assert.deepEqual(summary(wCore), ['ADDED watch.1', 'ADDED watch.2', 'DELETED watch.1']);
    assert.deepEqual(summary(wV1), summary(wCore));
    assert.ok(wCore.lines.every((l) => at(l, 'object', 'apiVersion') === 'v1'));
    assert.ok(wV1.lines.every((l) => at(l, 'object', 'apiVersion') === 'events.k8s.io/v1'));
    assert.equal(at(wCore.lines[0], 'object', 'message'), 'Pulled image');
    assert.equal(at(wV1.lines[0], 'object', 'note'), 'Pulled image');
    assert.equal(at(wV1.lines[1], 'object', 'deprecatedCount'), 2);
    assert.equal(
      at(wCore.lines[2], 'object', 'metadata', 'resourceVersion'),
      at(wV1.lines[2], 'object', 'metadata', 'resourceVersion'),
    );
  } finally {
    session.close();
  }
});

test('discovery: both versions carry the core/v1 storage version hash; /apis lists events.k8s.io/v1', async () => {
  for (const path of ['/api/v1', '/apis/events.k8s.io/v1']) {
    const doc = (await server.request('GET', path)).json<{ resources: Json[] }>();
    const events = doc.resources.find((r) => r['name'] === 'events');
    assert.equal(events?.['storageVersionHash'], 'r2yiGXH7wu8=', path);
    assert.deepEqual(events?.['shortNames'], ['ev'], path);
  }
  const apis = (await server.request('GET', '/apis')).json<{
    groups: { name: string; preferredVersion: { groupVersion: string } }[];
  }>();
  const group = apis.groups.find((g) => g.name === 'events.k8s.io');
  assert.deepEqual(group?.preferredVersion, { groupVersion: 'events.k8s.io/v1', version: 'v1' });
  const table = await server.request('GET', v1, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  assert.equal(table.status, 200, table.text);
  const rows = table.json<{ rows: { cells: unknown[] }[] }>().rows;
  assert.ok(rows.length > 0);
});

test('field selectors use each version’s labels (regarding.* and reportingController at events.k8s.io/v1)', async () => {
  await server.request('POST', v1, {
    body: newEvent('selectable', { regarding: { ...pod, name: 'picked' } }),
  });
  const names = async (path: string): Promise<string[]> => {
    const r = await server.request('GET', path);
    assert.equal(r.status, 200, r.text);
    return r.json<{ items: { metadata: { name: string } }[] }>().items.map((i) => i.metadata.name);
  };
  assert.deepEqual(await names(`${v1}?fieldSelector=${encodeURIComponent('regarding.name=picked')}`), [
    'selectable',
  ]);
  assert.deepEqual(await names(`${core}?fieldSelector=${encodeURIComponent('involvedObject.name=picked')}`), [
    'selectable',
  ]);
  assert.ok(
    (await names(`${v1}?fieldSelector=${encodeURIComponent('reportingController=k8s.io/kubelet')}`)).includes(
      'selectable',
    ),
  );
  const refused = await server.request(
    'GET',
    `${v1}?fieldSelector=${encodeURIComponent('involvedObject.name=picked')}`,
  );
  assert.equal(refused.status, 400);
  assert.equal(refused.json()['message'], 'field label not supported: involvedObject.name');
  const watch = await server.request(
    'GET',
    `${v1}?watch=1&timeoutSeconds=1&fieldSelector=${encodeURIComponent('regarding.name=picked')}`,
  );
  assert.equal(watch.status, 200);
  assert.deepEqual(
    watch.text
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { object: { metadata: { name: string } } }).object.metadata.name),
    ['selectable'],
  );
});
