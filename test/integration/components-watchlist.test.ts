/**
 * Integration (AM-02): with the WatchList gate on, `nanokube serve`'s own components
 * (controller manager, scheduler, simulated nodes) sync their informers through WatchList streams
 * instead of LIST requests; with it off they LIST and WATCH as before. Seen through the audit
 * sink: the requests the loopback user makes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AuditEvent } from '../../src/apiserver/filters/audit.js';
import { parseAuditPolicy } from '../../src/apiserver/audit/policy.js';
import { waitFor } from '../support/poll.js';
import { adminClient, startTestServer } from '../support/server.js';

async function componentLists(watchList: boolean): Promise<{ lists: string[]; ready: boolean }> {
  const events: AuditEvent[] = [];
  const server = await startTestServer({
    nodes: 1,
    featureGates: { WatchList: watchList },
    audit: {
      policy: parseAuditPolicy(
        '{"apiVersion":"audit.k8s.io/v1","kind":"Policy","rules":[{"level":"Metadata"}]}',
      ),
      sink: {
        process: (e) => {
          if (e.stage === 'ResponseComplete') events.push(e);
        },
      },
    },
  });
  try {
    const client = adminClient(server);
    await client.request('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'c', image: 'nginx' }] },
          },
        },
      },
    });
    let ready = false;
    await waitFor(
      'the Deployment available',
      async () => {
        const d = await client.request('GET', '/apis/apps/v1/namespaces/default/deployments/web');
        ready = (d['status'] as { availableReplicas?: number } | undefined)?.availableReplicas === 2;
        return ready;
      },
      30_000,
      100,
    );
    // The garbage collector's metadata-only monitors synced too: deleting the Deployment
    // collects its ReplicaSet and pods.
    await client.request('DELETE', '/apis/apps/v1/namespaces/default/deployments/web');
    await waitFor(
      'the ReplicaSets and pods collected',
      async () => {
        const rs = await client.request('GET', '/apis/apps/v1/namespaces/default/replicasets');
        const pods = await client.request('GET', '/api/v1/namespaces/default/pods');
        return (rs['items'] as unknown[]).length === 0 && (pods['items'] as unknown[]).length === 0;
      },
      30_000,
      100,
    );
    const lists = events
      .filter((e) => e.user.username === 'system:apiserver' && e.verb === 'list')
      .map((e) => e.requestURI);
    return { lists, ready };
  } finally {
    await server.close();
  }
}

describe('components and the WatchList gate (AM-02)', () => {
  test('gate on: the controllers, scheduler and nodes sync without a single LIST of pods or workloads', async () => {
    const { lists, ready } = await componentLists(true);
    assert.ok(ready);
    const workloadLists = lists.filter((u) => /\/(pods|deployments|replicasets|nodes)\b/.test(u));
    assert.deepEqual(workloadLists, []);
  });

  test('gate off: they LIST and WATCH', async () => {
    const { lists, ready } = await componentLists(false);
    assert.ok(ready);
    assert.ok(
      lists.some((u) => u.startsWith('/api/v1/pods')),
      `expected a LIST of pods among ${lists.join(', ')}`,
    );
  });
});
