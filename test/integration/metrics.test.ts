/**
 * Observability: `/metrics` in the Prometheus text format with kube-apiserver v1.27's
 * names, labels and label values — request counts and latencies, in-flight and long-running
 * requests, watchers and watch events, stored objects, process metrics — for authorized users
 * only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminSession, collectWatch, until } from '../support/h2-watch.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const labelPair = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/;

/** A strict reader of the text format (0.0.4): every line must be a comment or a sample. */
function parseExposition(text: string): Exposition {
  assert.ok(text.endsWith('\n'), 'ends with a newline');
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
    if (comment !== null) {
      if (comment[1] === 'TYPE') {
        assert.match(comment[3]!, /^(counter|gauge|histogram|summary|untyped)$/, line);
        assert.ok(!types.has(comment[2]!), `one TYPE per family: ${line}`);
        types.set(comment[2]!, comment[3]!);
      }
      continue;
    }
    const m = sampleLine.exec(line);
    assert.ok(m !== null, `not a sample line: ${JSON.stringify(line)}`);
    const [, name, rawLabels = '', rawValue] = m;
    const labels: Record<string, string> = {};
    for (let rest = rawLabels; rest !== '';) {
      const p = labelPair.exec(rest);
      assert.ok(p !== null, `bad labels in ${line}`);
      labels[p[1]!] = p[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(p[0].length);
    }
    // Go's ParseFloat, which Prometheus reads values with, takes NaN in any case (prom-client: "Nan").
    const nan = rawValue!.toLowerCase() === 'nan';
    const value = rawValue === '+Inf' ? Infinity : rawValue === '-Inf' ? -Infinity : Number(rawValue);
    assert.ok(nan || !Number.isNaN(value), `bad value in ${line}`);
    const family = name!.replace(/_(bucket|sum|count)$/, '');
    assert.ok(types.has(name!) || types.has(family), `sample before its TYPE: ${line}`);
    const id = `${name!}${JSON.stringify(Object.entries(labels).sort())}`;
    assert.ok(!seen.has(id), `duplicate series: ${line}`);
    seen.add(id);
    samples.push({ name: name!, labels, value });
  }
  return { types, samples };
}

function matches(s: Sample, name: string, labels: Readonly<Record<string, string>>): boolean {
  return s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v);
}

/** The one sample of `name` with (at least) `labels`, or undefined. */
function sample(e: Exposition, name: string, labels: Readonly<Record<string, string>>): Sample | undefined {
  const found = e.samples.filter((s) => matches(s, name, labels));
  assert.ok(found.length <= 1, `several ${name} samples match ${JSON.stringify(labels)}`);
  return found[0];
}

function value(e: Exposition, name: string, labels: Readonly<Record<string, string>>): number {
  return sample(e, name, labels)?.value ?? 0;
}

const upstreamBuckets = [
  '0.005',
  '0.025',
  '0.05',
  '0.1',
  '0.2',
  '0.4',
  '0.6',
  '0.8',
  '1',
  '1.25',
  '1.5',
  '2',
  '3',
  '4',
  '5',
  '6',
  '8',
  '10',
  '15',
  '20',
  '30',
  '45',
  '60',
  '+Inf',
];

const core = { group: '', version: 'v1', component: 'apiserver', dry_run: '', subresource: '' };
const configmaps = { ...core, resource: 'configmaps' };
const ns = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });

describe('/metrics', () => {
  let server: TestServer;
  const scrape = async (): Promise<Exposition> => {
    const r = await server.request('GET', '/metrics', { accept: '*/*' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    return parseExposition(r.text);
  };

  before(async () => {
    // Anonymous on (off by default) to check the forbidden message of the path.
    server = await startTestServer({ controllers: false, storageCountPollMs: 50, anonymousAuth: true });
  });
  after(() => server.stop());

  test('anonymous is forbidden with the upstream non-resource message; the admin reads it', async () => {
    const r = await server.request('GET', '/metrics', { credentials: 'none' });
    assert.equal(r.status, 403);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "system:anonymous" cannot get path "/metrics"',
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
    await scrape();
    const root = await server.request('GET', '/');
    assert.ok(root.json<{ paths: string[] }>().paths.includes('/metrics'));
  });

  test('apiserver_request_total and the duration histogram: upstream verbs, scopes and codes', async () => {
    const before = await scrape();
    const postSeries = { ...configmaps, verb: 'POST', scope: 'resource' };
    const post = { ...postSeries, code: '201' };
    assert.equal((await server.request('POST', ns, { body: cm('one') })).status, 201);
    assert.equal((await server.request('POST', `${ns}?dryRun=All`, { body: cm('dry') })).status, 201);
    assert.equal((await server.request('GET', `${ns}/one`)).status, 200);
    assert.equal((await server.request('GET', `${ns}/missing`)).status, 404);
    assert.equal((await server.request('GET', ns)).status, 200);
    assert.equal((await server.request('GET', '/api/v1/configmaps')).status, 200);
    assert.equal((await server.request('PUT', `${ns}/one`, { body: cm('one') })).status, 200);
    assert.equal((await server.request('DELETE', `${ns}/one`)).status, 200);
    assert.equal((await server.request('GET', '/healthz')).status, 200);
    const e = await scrape();
    const delta = (labels: Record<string, string>) =>
      value(e, 'apiserver_request_total', labels) - value(before, 'apiserver_request_total', labels);
    assert.equal(delta(post), 1);
    assert.equal(delta({ ...post, dry_run: 'All' }), 1);
    assert.equal(delta({ ...configmaps, verb: 'GET', scope: 'resource', code: '200' }), 1);
    assert.equal(delta({ ...configmaps, verb: 'GET', scope: 'resource', code: '404' }), 1);
    assert.equal(delta({ ...configmaps, verb: 'LIST', scope: 'namespace', code: '200' }), 1);
    assert.equal(delta({ ...configmaps, verb: 'LIST', scope: 'cluster', code: '200' }), 1);
    assert.equal(delta({ ...configmaps, verb: 'PUT', scope: 'resource', code: '200' }), 1);
    assert.equal(delta({ ...configmaps, verb: 'DELETE', scope: 'resource', code: '200' }), 1);
    // Health paths as upstream instruments them: the path as subresource, component "".
    const healthz = { verb: 'GET', group: '', version: '', resource: '', subresource: '/healthz', scope: '' };
    assert.equal(delta({ ...healthz, component: '', dry_run: '', code: '200' }), 1);
    // Every label upstream has, and no other.
    const line = sample(e, 'apiserver_request_total', post);
    assert.deepEqual(Object.keys(line?.labels ?? {}).sort(), [
      'code',
      'component',
      'dry_run',
      'group',
      'resource',
      'scope',
      'subresource',
      'verb',
      'version',
    ]);
    assert.equal(e.types.get('apiserver_request_total'), 'counter');
    assert.equal(e.types.get('apiserver_request_duration_seconds'), 'histogram');
    const buckets = e.samples.filter((s) =>
      matches(s, 'apiserver_request_duration_seconds_bucket', postSeries),
    );
    assert.deepEqual(
      buckets.map((s) => s.labels['le']),
      upstreamBuckets,
    );
    const counts = buckets.map((s) => s.value);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => a - b),
      'cumulative',
    );
    const count = value(e, 'apiserver_request_duration_seconds_count', postSeries);
    assert.equal(counts.at(-1), count);
    assert.ok(count >= 1 && value(e, 'apiserver_request_duration_seconds_sum', postSeries) > 0);
    assert.deepEqual(
      Object.keys(sample(e, 'apiserver_request_duration_seconds_count', postSeries)!.labels).sort(),
      ['component', 'dry_run', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
    );
  });

  test('a request no handler serves is not recorded (unknown resource, unknown subresource)', async () => {
    assert.equal((await server.request('GET', '/api/v1/namespaces/default/nothings')).status, 404);
    assert.equal((await server.request('GET', `${ns}/x/nothing`)).status, 404);
    const e = await scrape();
    assert.equal(sample(e, 'apiserver_request_total', { resource: 'nothings' }), undefined);
    assert.equal(sample(e, 'apiserver_request_total', { subresource: 'nothing' }), undefined);
  });

  test('in-flight gauge per request kind', async () => {
    const e = await scrape();
    assert.equal(e.types.get('apiserver_current_inflight_requests'), 'gauge');
    for (const kind of ['readOnly', 'mutating']) {
      assert.ok(sample(e, 'apiserver_current_inflight_requests', { request_kind: kind }), kind);
    }
    // The scrape itself is a read in flight: within a second the watermark shows it.
    await waitFor(
      'the read-only watermark',
      async () =>
        value(await scrape(), 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }) >= 1,
    );
  });

  test('a watch: registered watcher and long-running request while open, events counted, 0 after', async () => {
    const session = adminSession(server);
    const watcher = { group: '', version: 'v1', kind: 'ConfigMap' };
    const { dry_run: dryRun, ...coreLabels } = configmaps;
    const longRunningLabels = { ...coreLabels, verb: 'WATCH', scope: 'namespace' };
    const longRunning = { ...longRunningLabels, dry_run: dryRun };
    try {
      const before = await scrape();
      const w = collectWatch(session, `${ns}?watch=1`);
      assert.equal(await w.status, 200);
      await waitFor(
        'the watcher',
        async () => value(await scrape(), 'apiserver_registered_watchers', watcher) === 1,
      );
      const open = await scrape();
      assert.equal(value(open, 'apiserver_longrunning_requests', longRunningLabels), 1);
      assert.deepEqual(
        Object.keys(sample(open, 'apiserver_longrunning_requests', longRunningLabels)!.labels).sort(),
        ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'],
      );
      assert.equal((await server.request('POST', ns, { body: cm('watched') })).status, 201);
      await until(() => w.lines.length >= 1);
      const events = await scrape();
      const sent =
        value(events, 'apiserver_watch_events_total', watcher) -
        value(before, 'apiserver_watch_events_total', watcher);
      assert.equal(sent, 1);
      assert.ok(value(events, 'apiserver_watch_events_sizes_count', watcher) >= 1);
      assert.ok(value(events, 'apiserver_watch_events_sizes_sum', watcher) > 100);
      w.stream.close();
      await w.ended;
      await waitFor(
        'no watcher',
        async () => value(await scrape(), 'apiserver_registered_watchers', watcher) === 0,
      );
      const closed = await scrape();
      assert.equal(value(closed, 'apiserver_longrunning_requests', longRunningLabels), 0);
      // As upstream, the watch is counted (and its whole life timed) once it ends.
      assert.equal(
        value(closed, 'apiserver_request_total', { ...longRunning, code: '200' }) -
          value(before, 'apiserver_request_total', { ...longRunning, code: '200' }),
        1,
      );
    } finally {
      session.close();
    }
  });

  test('apiserver_storage_objects counts stored objects per resource, "<resource>.<group>"', async () => {
    for (const name of ['s1', 's2', 's3']) {
      assert.equal(
        (
          await server.request('POST', '/api/v1/namespaces/default/secrets', {
            body: { apiVersion: 'v1', kind: 'Secret', metadata: { name } },
          })
        ).status,
        201,
      );
    }
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    };
    assert.equal(
      (await server.request('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment }))
        .status,
      201,
    );
    const e = await waitFor('the counts', async () => {
      const m = await scrape();
      return value(m, 'apiserver_storage_objects', { resource: 'secrets' }) === 3 &&
        value(m, 'apiserver_storage_objects', { resource: 'deployments.apps' }) === 1
        ? m
        : undefined;
    });
    assert.equal(e.types.get('apiserver_storage_objects'), 'gauge');
    assert.equal(value(e, 'apiserver_storage_objects', { resource: 'namespaces' }), 4);
    assert.ok(sample(e, 'apiserver_storage_objects', { resource: 'leases.coordination.k8s.io' }));
  });

  test('storage requests by operation and resource, lists from storage, the database size (AM-13)', async () => {
    const before = await scrape();
    const requests = (e: Exposition, operation: string): number =>
      value(e, 'etcd_request_duration_seconds_count', { operation, type: 'configmaps' });
    const list = (e: Exposition, what: string): number =>
      value(e, `apiserver_storage_list_${what}`, { resource: 'configmaps' });
    for (const name of ['st-1', 'st-2', 'st-3']) {
      assert.equal((await server.request('POST', ns, { body: cm(name) })).status, 201);
    }
    const got = await server.request('GET', `${ns}/st-1`);
    assert.equal(got.status, 200);
    const updated = { ...got.json(), data: { a: 'c' } };
    assert.equal((await server.request('PUT', `${ns}/st-1`, { body: updated })).status, 200);
    assert.equal((await server.request('DELETE', `${ns}/st-3`)).status, 200);
    const at = ((await server.request('GET', ns)).json()['metadata'] as { resourceVersion: string })
      .resourceVersion;
    // An exact snapshot reads storage; the name selector tests every ConfigMap.
    const listed = await server.request(
      'GET',
      `${ns}?fieldSelector=metadata.name%3Dst-2&limit=500&resourceVersion=${at}&resourceVersionMatch=Exact`,
    );
    assert.equal(listed.status, 200);
    const after = await scrape();
    assert.equal(after.types.get('etcd_request_duration_seconds'), 'histogram');
    assert.equal(requests(after, 'create') - requests(before, 'create'), 3);
    assert.equal(requests(after, 'update') - requests(before, 'update'), 1);
    assert.equal(requests(after, 'delete') - requests(before, 'delete'), 1);
    // The delete reads storage first; the update may start from the watch cache's copy.
    assert.ok(requests(after, 'get') - requests(before, 'get') >= 1, 'the read before the delete');
    assert.ok(requests(after, 'list') - requests(before, 'list') >= 1);
    assert.deepEqual(
      after.samples
        .filter((x) =>
          matches(x, 'etcd_request_duration_seconds_bucket', { operation: 'create', type: 'configmaps' }),
        )
        .map((x) => x.labels['le']),
      upstreamBuckets,
    );
    assert.equal(after.types.get('apiserver_storage_list_total'), 'counter');
    assert.ok(list(after, 'total') - list(before, 'total') >= 1);
    const fetched = list(after, 'fetched_objects_total') - list(before, 'fetched_objects_total');
    const evaluated = list(after, 'evaluated_objects_total') - list(before, 'evaluated_objects_total');
    const returned = list(after, 'returned_objects_total') - list(before, 'returned_objects_total');
    assert.ok(fetched >= 2 && evaluated === fetched, `fetched ${fetched}, evaluated ${evaluated}`);
    assert.ok(returned >= 1 && returned < evaluated, `returned ${returned} of ${evaluated}`);
    // Without a limit, the most recent state comes from the watch cache once it has caught up
    // with storage (consistent reads from cache): a cache list, no storage list.
    const cacheLists = (e: Exposition): number =>
      value(e, 'apiserver_cache_list_total', { resource_prefix: '/configmaps', index: '' });
    const plain = await server.request('GET', `${ns}?fieldSelector=metadata.name%3Dst-2`);
    assert.deepEqual(
      (plain.json()['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name),
      ['st-2'],
    );
    const afterPlain = await scrape();
    assert.equal(cacheLists(afterPlain) - cacheLists(after), 1);
    assert.equal(list(afterPlain, 'total') - list(after, 'total'), 0);
    // Pages of a most-recent list come from the cache too while it stays at the first page's
    // revision (KEP-4988): two pages, two cache lists, no storage list.
    const page1 = await server.request('GET', `${ns}?limit=1`);
    const token = (page1.json()['metadata'] as { continue?: string }).continue ?? '';
    assert.notEqual(token, '');
    const page2 = await server.request('GET', `${ns}?limit=1&continue=${encodeURIComponent(token)}`);
    assert.deepEqual(
      [page1, page2].map((p) => (p.json()['items'] as { metadata: { name: string } }[])[0]?.metadata.name),
      ['st-1', 'st-2'],
    );
    const afterPages = await scrape();
    assert.equal(cacheLists(afterPages) - cacheLists(afterPlain), 2);
    assert.equal(list(afterPages, 'total') - list(afterPlain, 'total'), 0);
    // The object count poll: listWithCount, labelled with the key prefix as upstream does.
    const counted = await waitFor('a count', async () => {
      const m = await scrape();
      return value(m, 'etcd_request_duration_seconds_count', {
        operation: 'listWithCount',
        type: '/registry/configmaps/',
      }) > 0
        ? m
        : undefined;
    });
    // SQLite reports its file's size under its path, as etcd members under their URLs.
    const size = counted.samples.filter((x) => x.name === 'apiserver_storage_db_total_size_in_bytes');
    assert.equal(size.length, 1);
    assert.match(size[0]!.labels['endpoint'] ?? '', /state\.db$/);
    assert.ok(size[0]!.value > 4096, String(size[0]!.value));
  });

  test('apiserver_watch_cache_* follow the watch caches (events received, initializations)', async () => {
    // A list at resourceVersion 0 is served by (and so starts) the ConfigMaps' watch cache.
    assert.equal((await server.request('GET', `${ns}?resourceVersion=0`)).status, 200);
    const before = await scrape();
    const received = (e: Exposition): number =>
      value(e, 'apiserver_watch_cache_events_received_total', { resource: 'configmaps' });
    assert.equal(before.types.get('apiserver_watch_cache_events_received_total'), 'counter');
    assert.ok(value(before, 'apiserver_watch_cache_initializations_total', { resource: 'configmaps' }) >= 1);
    for (const name of ['wc-1', 'wc-2', 'wc-3']) {
      assert.equal((await server.request('POST', ns, { body: cm(name) })).status, 201);
    }
    const deadline = Date.now() + 5000;
    let after = await scrape();
    while (received(after) < received(before) + 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      after = await scrape();
    }
    assert.ok(received(after) >= received(before) + 3, `${received(before)} → ${received(after)}`);
  });

  test('#8 the other watch-cache metrics: dispatched, lists served, init events, capacity', async () => {
    const before = await scrape();
    const lists = { resource_prefix: '/configmaps', index: '' };
    const byResource = { resource: 'configmaps' };
    assert.equal((await server.request('GET', `${ns}?resourceVersion=0`)).status, 200);
    // A watch from "" starts with the state: each object is an init event.
    const session = adminSession(server);
    const w = collectWatch(session, `${ns}?watch=1`);
    assert.equal(await w.status, 200);
    const deadline = Date.now() + 5000;
    let after = await scrape();
    const grew = (name: string, labels: Record<string, string>): number =>
      value(after, name, labels) - value(before, name, labels);
    assert.equal((await server.request('POST', ns, { body: cm('dispatched-1') })).status, 201);
    while (
      (grew('apiserver_watch_cache_events_dispatched_total', byResource) < 1 ||
        grew('apiserver_init_events_total', byResource) < 1) &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 20));
      after = await scrape();
    }
    w.stream.close();
    await w.ended;
    session.close();
    assert.equal(after.types.get('apiserver_cache_list_total'), 'counter');
    assert.equal(grew('apiserver_cache_list_total', lists), 1);
    const items = JSON.parse((await server.request('GET', ns)).text) as { items: unknown[] };
    assert.ok(grew('apiserver_cache_list_fetched_objects_total', lists) >= 1);
    assert.ok(grew('apiserver_cache_list_returned_objects_total', { resource_prefix: '/configmaps' }) >= 1);
    assert.ok(grew('apiserver_init_events_total', byResource) >= items.items.length - 1);
    assert.ok(grew('apiserver_watch_cache_events_dispatched_total', byResource) >= 1);
    assert.equal(after.types.get('apiserver_terminated_watchers_total'), 'counter');
    assert.equal(after.types.get('watch_cache_capacity'), 'gauge');
    assert.equal(value(after, 'watch_cache_capacity', byResource), 1000);
  });

  test('process and Node.js runtime metrics', async () => {
    const e = await scrape();
    assert.ok(value(e, 'process_cpu_seconds_total', {}) > 0);
    assert.ok(value(e, 'process_resident_memory_bytes', {}) > 0);
    assert.ok(value(e, 'process_start_time_seconds', {}) > 1_600_000_000);
    assert.ok(sample(e, 'process_open_fds', {}));
    assert.ok(e.types.has('nodejs_heap_size_used_bytes'));
  });
});
