/**
 * Flowcontrol.apiserver.k8s.io FlowSchema and PriorityLevelConfiguration, stored as
 * v1beta3 and served at v1beta2 and v1beta3 (+status), end to end: objects written at one version
 * read back at the other (assuredConcurrencyShares ⇄ nominalConcurrencyShares), defaults,
 * generation, /status, validation messages per request version, Table output, a watch at each
 * version and discovery against the reference server.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { flowcontrolResources } from '../../src/registry/resources/flowcontrol/index.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const group = 'flowcontrol.apiserver.k8s.io';
const refDir = join(process.cwd(), '../shared/reference/kube-apiserver-v1.28.7/default/discovery');
const table = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const mergePatch = 'application/merge-patch+json';
const path = (version: string, resource: string, name = ''): string =>
  `/apis/${group}/${version}/${resource}${name === '' ? '' : `/${name}`}`;
const plcs = (version: string, name = ''): string => path(version, 'prioritylevelconfigurations', name);
const fss = (version: string, name = ''): string => path(version, 'flowschemas', name);

type Json = Record<string, unknown>;
const at = (o: unknown, ...p: (string | number)[]): unknown =>
  p.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], o);

let server: TestServer;
before(async () => {
  // Raw API semantics: APF's config controller would write the schemas' Dangling conditions.
  server = await startTestServer({ controllers: false, enablePriorityAndFairness: false });
  // Until the composition root serves the group, register it here (the same resources).
  if ((await server.request('GET', `/apis/${group}/v1beta3`)).status === 404) {
    for (const r of flowcontrolResources) server.resources.add(r);
  }
});
after(() => server.stop());

function level(version: string, name: string, limited: Json): Json {
  return {
    apiVersion: `${group}/${version}`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: { type: 'Limited', limited },
  };
}

function schema(version: string, name: string, spec: Json): Json {
  return { apiVersion: `${group}/${version}`, kind: 'FlowSchema', metadata: { name }, spec };
}

const everything = {
  subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }],
  resourceRules: [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] },
  ],
};

test('discovery of both versions equals the reference server; v1beta3 is preferred', async (t) => {
  for (const version of ['v1beta2', 'v1beta3']) {
    const r = await server.request('GET', `/apis/${group}/${version}`);
    assert.equal(r.status, 200, r.text);
    const file = join(refDir, `apis_${group}_${version}.json`);
    if (!existsSync(file)) {
      t.skip(`reference discovery not found at ${file}`);
      return;
    }
    const ref = JSON.parse(readFileSync(file, 'utf8')) as { resources: Json[] };
    assert.deepEqual(r.json<{ resources: Json[] }>().resources, ref.resources, version);
  }
  const g = (await server.request('GET', `/apis/${group}`)).json();
  assert.deepEqual(at(g, 'preferredVersion'), { groupVersion: `${group}/v1beta3`, version: 'v1beta3' });
});

test('a level written at v1beta2 reads at v1beta3 (shares renamed, defaults applied) and back', async () => {
  const created = await server.request('POST', plcs('v1beta2'), {
    body: level('v1beta2', 'two', {
      assuredConcurrencyShares: 12,
      limitResponse: { type: 'Queue', queuing: { handSize: 4 } },
    }),
  });
  assert.equal(created.status, 201, created.text);
  const asV2 = created.json();
  assert.equal(asV2['apiVersion'], `${group}/v1beta2`);
  assert.deepEqual(at(asV2, 'spec', 'limited'), {
    assuredConcurrencyShares: 12,
    limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 4, queueLengthLimit: 50 } },
    lendablePercent: 0,
  });
  assert.equal(at(asV2, 'metadata', 'generation'), 1);
  assert.deepEqual(asV2['status'], {});

  const asV3 = (await server.request('GET', plcs('v1beta3', 'two'))).json();
  assert.equal(asV3['apiVersion'], `${group}/v1beta3`);
  assert.equal(at(asV3, 'spec', 'limited', 'nominalConcurrencyShares'), 12);
  assert.equal(at(asV3, 'spec', 'limited', 'assuredConcurrencyShares'), undefined);
  assert.equal(at(asV3, 'metadata', 'resourceVersion'), at(asV2, 'metadata', 'resourceVersion'));

  // Written at v1beta3 with the shares left to their default, read at v1beta2.
  const three = await server.request('POST', plcs('v1beta3'), {
    body: level('v1beta3', 'three', { limitResponse: { type: 'Reject' }, borrowingLimitPercent: 150 }),
  });
  assert.equal(three.status, 201, three.text);
  assert.equal(at(three.json(), 'spec', 'limited', 'nominalConcurrencyShares'), 30);
  const back = (await server.request('GET', plcs('v1beta2', 'three'))).json();
  assert.deepEqual(at(back, 'spec', 'limited'), {
    assuredConcurrencyShares: 30,
    limitResponse: { type: 'Reject' },
    lendablePercent: 0,
    borrowingLimitPercent: 150,
  });
});

test('updates through v1beta2 bump the generation; /status writes only the status', async () => {
  const read = (await server.request('GET', plcs('v1beta2', 'two'))).json<Json>();
  (at(read, 'spec', 'limited') as Json)['assuredConcurrencyShares'] = 20;
  const updated = await server.request('PUT', plcs('v1beta2', 'two'), { body: read });
  assert.equal(updated.status, 200, updated.text);
  assert.equal(at(updated.json(), 'metadata', 'generation'), 2);
  assert.equal(
    at(
      (await server.request('GET', plcs('v1beta3', 'two'))).json(),
      'spec',
      'limited',
      'nominalConcurrencyShares',
    ),
    20,
  );

  const labelled = await server.request('PATCH', plcs('v1beta3', 'two'), {
    contentType: mergePatch,
    body: { metadata: { labels: { team: 'a' } }, status: { conditions: [{ type: 'X', status: 'True' }] } },
  });
  assert.equal(labelled.status, 200, labelled.text);
  assert.equal(at(labelled.json(), 'metadata', 'generation'), 2, 'metadata changes keep the generation');
  assert.deepEqual(labelled.json()['status'], {}, 'the main resource does not write status');

  const status = await server.request('PATCH', `${plcs('v1beta2', 'two')}/status`, {
    contentType: mergePatch,
    body: {
      spec: { limited: { assuredConcurrencyShares: 99 } },
      status: { conditions: [{ type: 'ConcurrencyShared', status: 'True', reason: 'Test' }] },
    },
  });
  assert.equal(status.status, 200, status.text);
  assert.equal(at(status.json(), 'spec', 'limited', 'assuredConcurrencyShares'), 20);
  assert.equal(at(status.json(), 'status', 'conditions', 0, 'type'), 'ConcurrencyShared');
  assert.equal(at(status.json(), 'metadata', 'generation'), 2);

  const duplicate = await server.request('PATCH', `${plcs('v1beta3', 'two')}/status`, {
    contentType: mergePatch,
    body: { status: { conditions: [{ type: 'A' }, { type: 'A' }] } },
  });
  assert.equal(duplicate.status, 422, duplicate.text);
  assert.equal(
    duplicate.json()['message'],
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "two" is invalid: status.conditions[1].type: Duplicate value: "A"',
  );
});

test('validation messages name the shares field as the request version spells it', async () => {
  const v2 = await server.request('POST', plcs('v1beta2'), {
    body: level('v1beta2', 'bad', {
      assuredConcurrencyShares: -1,
      limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5 } },
    }),
  });
  assert.equal(v2.status, 422, v2.text);
  assert.equal(
    v2.json()['message'],
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: [spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive, spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)]',
  );
  const v3 = await server.request('POST', plcs('v1beta3'), {
    body: level('v1beta3', 'bad', {
      nominalConcurrencyShares: -1,
      limitResponse: { type: 'Reject' },
      lendablePercent: 101,
    }),
  });
  assert.equal(
    v3.json()['message'],
    'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: [spec.limited.nominalConcurrencyShares: Invalid value: -1: must be positive, spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive]',
  );
  const exempt = await server.request('POST', plcs('v1beta3'), {
    body: { ...level('v1beta3', 'exempt', { limitResponse: { type: 'Reject' } }) },
  });
  assert.equal(exempt.status, 422, exempt.text);
  const message = String(exempt.json()['message']);
  assert.ok(
    message.startsWith(
      `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "exempt" is invalid: [spec.type: Invalid value: "Limited": type must be 'Exempt' if and only if name is 'exempt', spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0x`,
    ),
    message,
  );
  assert.ok(message.endsWith(`)}: spec of 'exempt' must equal the fixed value]`), message);
});

test('flow schemas: defaults, both versions, validation and the Table', async () => {
  const created = await server.request('POST', fss('v1beta3'), {
    body: schema('v1beta3', 'mine', { priorityLevelConfiguration: { name: 'two' }, rules: [everything] }),
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(at(created.json(), 'spec', 'matchingPrecedence'), 1000);
  assert.equal(at(created.json(), 'metadata', 'generation'), 1);
  const asV2 = (await server.request('GET', fss('v1beta2', 'mine'))).json();
  assert.equal(asV2['apiVersion'], `${group}/v1beta2`);
  assert.deepEqual(asV2['spec'], created.json()['spec']);

  const byV2 = await server.request('POST', fss('v1beta2'), {
    body: schema('v1beta2', 'by-ns', {
      priorityLevelConfiguration: { name: 'three' },
      matchingPrecedence: 800,
      distinguisherMethod: { type: 'ByNamespace' },
      rules: [everything],
    }),
  });
  assert.equal(byV2.status, 201, byV2.text);
  await server.request('PUT', `${fss('v1beta3', 'by-ns')}/status`, {
    body: {
      ...(await server.request('GET', fss('v1beta3', 'by-ns'))).json(),
      status: { conditions: [{ type: 'Dangling', status: 'False', reason: 'Found' }] },
    },
  });

  const t = (await server.request('GET', fss('v1beta2'), { accept: table })).json<{
    columnDefinitions: { name: string }[];
    rows: { cells: unknown[] }[];
  }>();
  assert.deepEqual(
    t.columnDefinitions.map((c) => c.name),
    ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'],
  );
  const rows = new Map(t.rows.map((r) => [r.cells[0], r.cells]));
  assert.deepEqual(rows.get('mine')?.slice(0, 4), ['mine', 'two', 1000, '<none>']);
  assert.equal(rows.get('mine')?.[5], '?');
  assert.deepEqual(rows.get('by-ns')?.slice(0, 4), ['by-ns', 'three', 800, 'ByNamespace']);
  assert.equal(rows.get('by-ns')?.[5], 'False');

  const pt = (await server.request('GET', plcs('v1beta2', 'two'), { accept: table })).json<{
    columnDefinitions: { name: string }[];
    rows: { cells: unknown[] }[];
  }>();
  assert.deepEqual(
    pt.columnDefinitions.map((c) => c.name),
    ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'],
  );
  assert.deepEqual(pt.rows[0]?.cells.slice(0, 6), ['two', 'Limited', 20, 64, 4, 50]);

  const bad = await server.request('POST', fss('v1beta2'), {
    body: schema('v1beta2', 'bad', {
      matchingPrecedence: 1,
      distinguisherMethod: { type: 'ByPod' },
      rules: [
        { subjects: [{ kind: 'User' }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/a*'] }] },
      ],
    }),
  });
  assert.equal(bad.status, 422, bad.text);
  assert.equal(
    bad.json()['message'],
    'FlowSchema.flowcontrol.apiserver.k8s.io "bad" is invalid: [' +
      "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1, " +
      'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByPod"}: supported values: "ByNamespace", "ByUser", ' +
      'spec.priorityLevelConfiguration.name: Required value: must reference a priority level, ' +
      "spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User', " +
      'spec.rules[0].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a*": wildcard can only do suffix matching]',
  );
});

test('a watch at each version sees the same changes in its own version', async () => {
  const list = (await server.request('GET', plcs('v1beta3'))).json<{
    metadata: { resourceVersion: string };
  }>();
  const session = connect(server.url, {
    ca: server.pki.caCert,
    cert: server.pki.adminCert,
    key: server.pki.adminKey,
  });
  const open = (p: string): Json[] => {
    const lines: Json[] = [];
    const stream = session.request({
      ':path': `${p}?watch=1&resourceVersion=${list.metadata.resourceVersion}`,
    });
    let buf = '';
    stream.setEncoding('utf8');
    stream.on('data', (c: string) => {
      buf += c;
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, nl)) as Json);
        buf = buf.slice(nl + 1);
      }
    });
    return lines;
  };
  try {
    const w2 = open(plcs('v1beta2'));
    const w3 = open(plcs('v1beta3'));
    await new Promise((r) => setTimeout(r, 100));
    const patched = await server.request('PATCH', plcs('v1beta3', 'three'), {
      contentType: mergePatch,
      body: { spec: { limited: { nominalConcurrencyShares: 7 } } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await server.request('DELETE', plcs('v1beta2', 'three'))).status, 200);
    const end = Date.now() + 5000;
    while ((w2.length < 2 || w3.length < 2) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(
      w2.map((l) => l['type']),
      ['MODIFIED', 'DELETED'],
    );
    assert.deepEqual(
      w3.map((l) => l['type']),
      ['MODIFIED', 'DELETED'],
    );
    assert.equal(at(w2[0], 'object', 'apiVersion'), `${group}/v1beta2`);
    assert.equal(at(w2[0], 'object', 'spec', 'limited', 'assuredConcurrencyShares'), 7);
    assert.equal(at(w3[0], 'object', 'apiVersion'), `${group}/v1beta3`);
    assert.equal(at(w3[0], 'object', 'spec', 'limited', 'nominalConcurrencyShares'), 7);
    assert.equal(at(w2[0], 'object', 'metadata', 'generation'), 2);
    assert.equal(
      at(w2[1], 'object', 'metadata', 'resourceVersion'),
      at(w3[1], 'object', 'metadata', 'resourceVersion'),
    );
  } finally {
    session.close();
  }
});
