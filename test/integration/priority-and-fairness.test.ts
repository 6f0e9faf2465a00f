/**
 * API Priority and Fairness end to end (AM-18): the classification headers, a one-seat Reject
 * level answering 429 with Retry-After, the dump_priority_levels format, and system:masters served
 * while another user floods the server. Non-admin users are impersonated by the admin; a
 * ClusterRoleBinding gives them cluster-admin so the tests stay valid once RBAC is enforced.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

const fc = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
const as = (user: string): Record<string, string> => ({ 'impersonate-user': user });

async function uidOf(server: TestServer, path: string): Promise<string> {
  const res = await server.request('GET', path);
  assert.equal(res.status, 200, res.text);
  return res.json<{ metadata: { uid: string } }>().metadata.uid;
}

describe('API Priority and Fairness', () => {
  let server: TestServer;
  before(async () => {
    // SCL 10: a level with 1 share of 246 gets ceil(10/246) = 1 seat.
    server = await startTestServer({
      controllers: false,
      nodes: 0,
      maxRequestsInflight: 6,
      maxMutatingRequestsInflight: 4,
    });
    const crb = await server.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'apf-test-users' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
        subjects: ['alice', 'flooder', 'limited', 'system:kube-controller-manager'].map((name) => ({
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'User',
          name,
        })),
      },
    });
    assert.equal(crb.status, 201, crb.text);
    const created = await server.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apf' } },
    });
    assert.equal(created.status, 201, created.text);
    await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        server.request('POST', '/api/v1/namespaces/apf/configmaps', {
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: `cm-${i}` },
            data: { v: 'x'.repeat(2000) },
          },
        }),
      ),
    );
    // The controller follows the bootstrap objects and marks every schema not dangling.
    await waitFor('global-default marked not dangling', async () => {
      const fs = await server.request('GET', `${fc}/flowschemas/global-default`);
      const conds = fs.json<{ status?: { conditions?: { type: string; status: string }[] } }>().status
        ?.conditions;
      return conds?.some((c) => c.type === 'Dangling' && c.status === 'False') === true;
    });
  });
  after(() => server.stop());

  it('answers with the UIDs of the matched schema and level', async () => {
    const exemptFS = await uidOf(server, `${fc}/flowschemas/exempt`);
    const exemptPL = await uidOf(server, `${fc}/prioritylevelconfigurations/exempt`);
    const admin = await server.request('GET', '/api/v1/namespaces/default');
    assert.equal(admin.headers['x-kubernetes-pf-flowschema-uid'], exemptFS);
    assert.equal(admin.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPL);
    const globalFS = await uidOf(server, `${fc}/flowschemas/global-default`);
    const globalPL = await uidOf(server, `${fc}/prioritylevelconfigurations/global-default`);
    const alice = await server.request('GET', '/api/v1/namespaces/default', { headers: as('alice') });
    assert.equal(alice.status, 200, alice.text);
    assert.equal(alice.headers['x-kubernetes-pf-flowschema-uid'], globalFS);
    assert.equal(alice.headers['x-kubernetes-pf-prioritylevel-uid'], globalPL);
    // Probes match the `probes` schema (exempt level) for everyone.
    const probesFS = await uidOf(server, `${fc}/flowschemas/probes`);
    const readyz = await server.request('GET', '/readyz', { headers: as('alice') });
    assert.equal(readyz.headers['x-kubernetes-pf-flowschema-uid'], probesFS);
    assert.equal(readyz.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPL);
  });

  it('marks a schema naming a missing level Dangling and skips it', async () => {
    const res = await server.request('POST', `${fc}/flowschemas`, {
      body: {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
        kind: 'FlowSchema',
        metadata: { name: 'to-nowhere' },
        spec: {
          priorityLevelConfiguration: { name: 'no-such-level' },
          matchingPrecedence: 50,
          rules: [
            {
              subjects: [{ kind: 'User', user: { name: 'alice' } }],
              nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
              resourceRules: [
                { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] },
              ],
            },
          ],
        },
      },
    });
    assert.equal(res.status, 201, res.text);
    await waitFor('to-nowhere marked dangling', async () => {
      const fs = await server.request('GET', `${fc}/flowschemas/to-nowhere`);
      const c = fs.json<{ status?: { conditions?: Record<string, string>[] } }>().status?.conditions?.[0];
      return c?.['type'] === 'Dangling' && c['status'] === 'True' && c['reason'] === 'NotFound';
    });
    const fs = await server.request('GET', `${fc}/flowschemas/to-nowhere`);
    assert.equal(
      fs.json<{ status: { conditions: Record<string, string>[] } }>().status.conditions[0]!['message'],
      'This FlowSchema references the PriorityLevelConfiguration object named "no-such-level" but there is no such object',
    );
    const globalFS = await uidOf(server, `${fc}/flowschemas/global-default`);
    const alice = await server.request('GET', '/api/v1/namespaces/default', { headers: as('alice') });
    assert.equal(alice.headers['x-kubernetes-pf-flowschema-uid'], globalFS);
  });

  it('rejects with 429 and Retry-After beyond a one-seat Reject level', async () => {
    const pl = await server.request('POST', `${fc}/prioritylevelconfigurations`, {
      body: {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
        kind: 'PriorityLevelConfiguration',
        metadata: { name: 'one-seat' },
        spec: {
          type: 'Limited',
          limited: {
            nominalConcurrencyShares: 1,
            lendablePercent: 0,
            borrowingLimitPercent: 0,
            limitResponse: { type: 'Reject' },
          },
        },
      },
    });
    assert.equal(pl.status, 201, pl.text);
    const fs = await server.request('POST', `${fc}/flowschemas`, {
      body: {
        apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
        kind: 'FlowSchema',
        metadata: { name: 'limited-user' },
        spec: {
          priorityLevelConfiguration: { name: 'one-seat' },
          matchingPrecedence: 60,
          distinguisherMethod: { type: 'ByUser' },
          rules: [
            {
              subjects: [{ kind: 'User', user: { name: 'limited' } }],
              resourceRules: [
                { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] },
              ],
            },
          ],
        },
      },
    });
    assert.equal(fs.status, 201, fs.text);
    const fsUID = fs.json<{ metadata: { uid: string } }>().metadata.uid;
    const plUID = pl.json<{ metadata: { uid: string } }>().metadata.uid;
    await waitFor('the limited-user schema in use', async () => {
      const r = await server.request('GET', '/api/v1/namespaces/default', { headers: as('limited') });
      return r.headers['x-kubernetes-pf-flowschema-uid'] === fsUID;
    });
    // A list the client does not read holds the level's one seat: the streamed list waits for
    // the client (HTTP/2 flow control) while executing. Its own connection, so others go on.
    const holder = connect(server.url, {
      ca: server.pki.caCert,
      cert: server.pki.adminCert,
      key: server.pki.adminKey,
    });
    const held = holder.request({
      ':method': 'GET',
      ':path': '/api/v1/namespaces/apf/configmaps',
      'impersonate-user': 'limited',
    });
    held.pause();
    const executing = (): Promise<string | undefined> =>
      server
        .request('GET', '/debug/api_priority_and_fairness/dump_priority_levels')
        .then((r) => r.text.split('\n').find((l) => l.startsWith('one-seat,')));
    await waitFor('the held list executing', async () => (await executing())?.split(/, +/)[5] === '1');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        server.request('GET', '/api/v1/namespaces/apf/configmaps', { headers: as('limited') }),
      ),
    );
    const rejected = answers.filter((a) => a.status === 429);
    assert.equal(rejected.length, 5, `statuses: ${answers.map((a) => a.status).join(',')}`);
    // dump_priority_levels counts them (RejectedRequests), the held one executing.
    const cells = (await executing())!.split(/, +/);
    assert.equal(cells[5], '1');
    assert.equal(cells[7], '5');
    holder.destroy();
    // The seat is free again once the held list ends.
    await waitFor('the seat released', async () => {
      const r = await server.request('GET', '/api/v1/namespaces/default', { headers: as('limited') });
      return r.status === 200;
    });
    // A watch holds the seat only until it is initialized: with it open, the seat is free.
    const watcher = connect(server.url, {
      ca: server.pki.caCert,
      cert: server.pki.adminCert,
      key: server.pki.adminKey,
    });
    const watch = watcher.request({
      ':method': 'GET',
      ':path': '/api/v1/namespaces/apf/configmaps?watch=1',
      'impersonate-user': 'limited',
    });
    const watchHeaders = await new Promise<Record<string, unknown>>((resolve) =>
      watch.once('response', (h) => resolve(h)),
    );
    assert.equal(watchHeaders[':status'], 200);
    // Classified (and so held a seat while it was set up).
    assert.equal(watchHeaders['x-kubernetes-pf-flowschema-uid'], fsUID);
    const whileWatching = await server.request('GET', '/api/v1/namespaces/default', {
      headers: as('limited'),
    });
    assert.equal(whileWatching.status, 200, whileWatching.text);
    assert.equal((await executing())!.split(/, +/)[5], '0');
    watcher.destroy();
    for (const r of rejected) {
      assert.equal(r.headers['retry-after'], '1');
      assert.equal(r.text, 'Too many requests, please try again later.\n');
      assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], fsUID);
      assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], plUID);
    }
    const metrics = (await server.request('GET', '/metrics')).text;
    assert.match(
      metrics,
      /apiserver_flowcontrol_rejected_requests_total\{flow_schema="limited-user",priority_level="one-seat",reason="concurrency-limit"\} [1-9]/,
    );
    assert.match(metrics, /apiserver_flowcontrol_nominal_limit_seats\{priority_level="one-seat"\} 1\n/);
    assert.match(metrics, /apiserver_flowcontrol_current_limit_seats\{priority_level="one-seat"\} 1\n/);
    assert.match(metrics, /apiserver_request_total\{[^}]*code="429"[^}]*resource="configmaps"[^}]*\} [1-9]/);
  });

  it('dumps the priority levels sorted by name in upstream columns', async () => {
    const res = await server.request('GET', '/debug/api_priority_and_fairness/dump_priority_levels');
    assert.equal(res.status, 200);
    const lines = res.text.split('\n');
    assert.equal(lines.at(-1), '');
    assert.equal(
      lines[0],
      'PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests',
    );
    const names = lines.slice(1, -1).map((l) => l.split(',')[0]!);
    assert.deepEqual(names, [...names].sort());
    assert.ok(names.includes('catch-all') && names.includes('exempt') && names.includes('global-default'));
    const exempt = lines.find((l) => l.startsWith('exempt,'))!;
    assert.match(exempt, /^exempt, +<none>, +<none>,/);
    const global = lines.find((l) => l.startsWith('global-default,'))!;
    // Columns are padded to the widest cell plus one (Go's tabwriter, minwidth 8).
    assert.match(
      global,
      /^global-default, +0, +(true|false), +false, +\d+, +\d+, +[1-9]\d*, +\d+, +\d+, +\d+$/,
    );
    const starts = (l: string): number[] => [0, ...[...l.matchAll(/, +/g)].map((m) => m.index + m[0].length)];
    for (const l of lines.slice(1, -1)) assert.deepEqual(starts(l), starts(lines[0]));
    const queues = await server.request('GET', '/debug/api_priority_and_fairness/dump_queues');
    assert.match(
      queues.text.split('\n')[0]!,
      /^PriorityLevelName, +Index, +PendingRequests, +ExecutingRequests, +SeatsInUse, +NextDispatchR, +InitialSeatsSum, +MaxSeatsSum, +TotalWorkSum$/,
    );
    const requests = await server.request(
      'GET',
      '/debug/api_priority_and_fairness/dump_requests?includeRequestDetails=1',
    );
    assert.match(
      requests.text.split('\n')[0]!,
      /^PriorityLevelName, +FlowSchemaName, .*AdditionalLatency, +UserName, +Verb, +APIPath, +Namespace, +Name, +APIVersion, +Resource, +SubResource$/,
    );
  });

  it('keeps serving system:masters, Lease renewals and /readyz while one user floods', async () => {
    const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/apf-test-leader';
    const lease = await server.request('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases', {
      body: {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'apf-test-leader' },
        spec: { holderIdentity: 'test', leaseDurationSeconds: 15 },
      },
    });
    assert.equal(lease.status, 201, lease.text);
    const flood = Promise.all(
      Array.from({ length: 300 }, () =>
        server
          .request('GET', '/api/v1/namespaces/apf/configmaps', { headers: as('flooder') })
          .then((r) => r.status),
      ),
    );
    const admin = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.request('GET', '/api/v1/namespaces/default').then((r) => r.status),
      ),
    );
    // A leader's renewal as the controller manager: classified leader-election, served.
    const elector = as('system:kube-controller-manager');
    const leaderElection = await uidOf(server, `${fc}/prioritylevelconfigurations/leader-election`);
    const renewals: string[] = [];
    for (let i = 0; i < 3; i++) {
      const got = await server.request('GET', leasePath, { headers: elector });
      const body = got.json<{ spec: Record<string, unknown> }>();
      body.spec['renewTime'] = new Date().toISOString().replace('Z', '000Z');
      const put = await server.request('PUT', leasePath, { headers: elector, body });
      const level =
        put.headers['x-kubernetes-pf-prioritylevel-uid'] === leaderElection ? 'leader-election' : '?';
      renewals.push(`${got.status}/${put.status}/${level}`);
    }
    const readyz = await server.request('GET', '/readyz', { headers: as('flooder') });
    const statuses = await flood;
    assert.deepEqual(admin, Array<number>(20).fill(200));
    assert.deepEqual(renewals, Array<string>(3).fill('200/200/leader-election'));
    assert.equal(readyz.status, 200);
    assert.ok(
      statuses.every((s) => s === 200 || s === 429),
      statuses.join(','),
    );
  });
});
