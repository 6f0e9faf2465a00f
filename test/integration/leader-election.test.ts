/**
 * Integration (AM-13): leader election on a coordination.k8s.io/v1 Lease against an
 * in-process server — one leader at a time, a clean release hands over at once, a leader that
 * vanishes without releasing is replaced once its Lease expires as the others observed it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LeaderElector } from '../../src/client/leader-election.js';
import type { RestClient } from '../../src/client/rest-client.js';
import type { JsonObject } from '../../src/util/json.js';
import { adminClient, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { waitFor } from '../support/poll.js';

/** Polls a synchronous condition (every 20 ms). */
const until = (cond: () => boolean, what: string, ms = 15_000): Promise<boolean> =>
  waitFor(what, cond, ms, 20);

describe('leader election on Leases', () => {
  let s: TestServer;
  let client: RestClient;
  before(async () => {
    s = await startTestServer();
    client = adminClient(s);
  });
  const running: { abort: AbortController; done: Promise<void> }[] = [];
  after(async () => {
    for (const r of running) r.abort.abort();
    await Promise.all(running.map((r) => r.done));
    client.close();
    await s.stop();
  });

  function candidate(
    identity: string,
    name: string,
    leading: Set<string>,
    c: Pick<RestClient, 'request'> = client,
  ) {
    const abort = new AbortController();
    const elector = new LeaderElector({
      client: c,
      namespace: 'kube-system',
      name,
      identity,
      leaseDurationMs: 1000,
      renewDeadlineMs: 600,
      retryPeriodMs: 100,
      onStartedLeading: (signal) => {
        leading.add(identity);
        signal.addEventListener('abort', () => leading.delete(identity), { once: true });
      },
    });
    const entry = { elector, abort, done: elector.run(abort.signal) };
    running.push(entry);
    return entry;
  }

  it('one leader; the Lease records it; a clean stop hands over at once', async () => {
    const leading = new Set<string>();
    const a = candidate('a', 'handover', leading);
    await until(() => leading.has('a'), 'a to lead');
    const b = candidate('b', 'handover', leading);
    // b keeps trying but never leads while a renews (checked over several of its retries).
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual([...leading], ['a']);
    }
    const lease = (await client.request(
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/handover',
    )) as {
      spec: JsonObject;
    };
    assert.equal(lease.spec['holderIdentity'], 'a');
    assert.equal(lease.spec['leaseDurationSeconds'], 1);
    assert.match(lease.spec['renewTime'] as string, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    a.abort.abort();
    await a.done;
    await until(() => leading.has('b'), 'b to lead after a released');
    assert.equal(b.elector.isLeader(), true);
    const after = (await client.request(
      'GET',
      '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/handover',
    )) as {
      spec: JsonObject;
    };
    assert.equal(after.spec['holderIdentity'], 'b');
    // client-go counts a transition when the holder changes: '' (released) → b.
    assert.equal(after.spec['leaseTransitions'], 1);
    b.abort.abort();
    await b.done;
  });

  it('a leader that stops renewing is replaced after the lease duration', async () => {
    const leading = new Set<string>();
    // a's client starts failing (a crashed or lost the network): it stops leading after its
    // renew deadline, and b takes over once a's Lease has not changed for its duration.
    let broken = false;
    const flaky: Pick<RestClient, 'request'> = {
      request: (method, path, o) =>
        broken ? Promise.reject(new Error('network down')) : client.request(method, path, o),
    };
    const a = candidate('a', 'crash', leading, flaky);
    await until(() => leading.has('a'), 'a to lead');
    const b = candidate('b', 'crash', leading);
    broken = true;
    await until(() => !leading.has('a'), 'a to step down');
    await until(() => leading.has('b'), 'b to take the expired lease');
    a.abort.abort();
    b.abort.abort();
    await Promise.all([a.done, b.done]);
  });
});
