/**
 * Integration: the old restrictive plugins of the admission chain on an in-process
 * server over SQLite — SecurityContextDeny and LimitPodHardAntiAffinityTopology (pods refused in
 * upstream's words, others admitted), and AlwaysDeny (every write refused, creates, updates and
 * deletes alike, reads still answered) — and the deprecation warnings the first and last log.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import type { Logger } from '../../src/util/log.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const pod = (name: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

const configMap = (metadata: JsonObject): JsonObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata });

/** A logger that keeps the info lines. */
function recordingLog(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, v: () => undefined, info: (m) => lines.push(m), error: () => undefined };
}

describe('SecurityContextDeny and LimitPodHardAntiAffinityTopology', () => {
  let s: TestServer;
  const log = recordingLog();
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      log,
      featureGates: { SecurityContextDeny: true },
      admission: {
        enable: ['SecurityContextDeny', 'LimitPodHardAntiAffinityTopology'],
        disable: ['ServiceAccount'],
      },
    });
  });
  after(async () => {
    await s.stop();
  });

  const create = (body: JsonObject) => s.request('POST', '/api/v1/namespaces/default/pods', { body });
  const refused = async (body: JsonObject, message: string): Promise<void> => {
    const r = await create(body);
    assert.equal(r.status, 403, r.text);
    assert.deepEqual(r.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Forbidden',
      details: { name: (body['metadata'] as JsonObject)['name'] as string, kind: 'pods' },
      code: 403,
    });
  };

  it('SecurityContextDeny logs its deprecation when the server starts', () => {
    assert.ok(
      log.lines.includes(
        'admission: SecurityContextDeny admission controller is deprecated. Please remove this controller from your configuration files and scripts. See https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny for more information.',
      ),
      log.lines.join('\n'),
    );
  });

  it('SecurityContextDeny refuses the pod-level fields in upstream order', async () => {
    await refused(
      pod('groups', { securityContext: { supplementalGroups: [1000], fsGroup: 2000 } }),
      'pods "groups" is forbidden: pod.Spec.SecurityContext.SupplementalGroups is forbidden',
    );
    await refused(
      pod('selinux', { securityContext: { seLinuxOptions: { level: 's0:c123,c456' }, runAsUser: 1000 } }),
      'pods "selinux" is forbidden: pod.Spec.SecurityContext.SELinuxOptions is forbidden',
    );
    await refused(
      pod('user', { securityContext: { runAsUser: 1000 } }),
      'pods "user" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden',
    );
    await refused(
      pod('fsgroup', { securityContext: { fsGroup: 2000 } }),
      'pods "fsgroup" is forbidden: pod.Spec.SecurityContext.FSGroup is forbidden',
    );
  });

  it('SecurityContextDeny refuses seLinuxOptions and runAsUser of init and regular containers', async () => {
    await refused(
      pod('init-selinux', {
        initContainers: [{ name: 'i', image: 'busybox', securityContext: { seLinuxOptions: { user: 'u' } } }],
      }),
      'pods "init-selinux" is forbidden: SecurityContext.SELinuxOptions is forbidden',
    );
    await refused(
      pod('c-user', {
        containers: [{ name: 'c', image: 'nginx', securityContext: { runAsUser: 0 } }],
      }),
      'pods "c-user" is forbidden: SecurityContext.RunAsUser is forbidden',
    );
  });

  it('SecurityContextDeny admits the fields it does not know', async () => {
    const r = await create(
      pod('allowed', {
        securityContext: { runAsNonRoot: true, runAsGroup: 3000 },
        containers: [
          {
            name: 'c',
            image: 'nginx',
            securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
          },
        ],
      }),
    );
    assert.equal(r.status, 201, r.text);
    const stored = (await s.request('GET', '/api/v1/namespaces/default/pods/allowed')).json<{
      spec: { securityContext: JsonObject };
    }>();
    assert.deepEqual(stored.spec.securityContext, { runAsNonRoot: true, runAsGroup: 3000 });
  });

  it('LimitPodHardAntiAffinityTopology allows only kubernetes.io/hostname in required anti-affinity', async () => {
    const term = (topologyKey: string): JsonObject => ({
      labelSelector: { matchLabels: { app: 'web' } },
      topologyKey,
    });
    await refused(
      pod('zonal', {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              term('kubernetes.io/hostname'),
              term('topology.kubernetes.io/zone'),
            ],
          },
        },
      }),
      'pods "zonal" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
    );
    const perHost = await create(
      pod('per-host', {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [term('kubernetes.io/hostname')],
          },
        },
      }),
    );
    assert.equal(perHost.status, 201, perHost.text);
    // Preferred terms and pod affinity are not limited.
    const preferred = await create(
      pod('preferred', {
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [term('topology.kubernetes.io/zone')],
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 10, podAffinityTerm: term('topology.kubernetes.io/zone') },
            ],
          },
        },
      }),
    );
    assert.equal(preferred.status, 201, preferred.text);
  });
});

describe('AlwaysDeny', () => {
  let s: TestServer;
  const log = recordingLog();
  before(async () => {
    // A ConfigMap written before AlwaysDeny is turned on, so that updates and deletes have a target.
    const first = await startTestServer({ controllers: false, nodes: 0 });
    const made = await first.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap({ name: 'old' }),
    });
    assert.equal(made.status, 201, made.text);
    await first.stop({ keep: true });
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      dataDir: first.dataDir,
      log,
      admission: { enable: ['AlwaysDeny'], disable: ['ServiceAccount'] },
    });
  });
  after(async () => {
    await s.stop();
  });

  const denied = (name: string): JsonObject => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `configmaps "${name}" is forbidden: admission control is denying all modifications`,
    reason: 'Forbidden',
    details: { name, kind: 'configmaps' },
    code: 403,
  });

  it('logs its deprecation when the server starts', () => {
    assert.ok(
      log.lines.includes(
        'admission: AlwaysDeny admission controller is deprecated. Please remove this controller from your configuration files and scripts.',
      ),
      log.lines.join('\n'),
    );
  });

  it('refuses creates (named or generated), updates and deletes', async () => {
    const created = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap({ name: 'new' }),
    });
    assert.equal(created.status, 403, created.text);
    assert.deepEqual(created.json(), denied('new'));
    const generated = await s.request('POST', '/api/v1/namespaces/default/configmaps', {
      body: configMap({ generateName: 'gen-' }),
    });
    assert.equal(generated.status, 403, generated.text);
    assert.deepEqual(generated.json(), denied('gen-'));
    const patched = await s.request('PATCH', '/api/v1/namespaces/default/configmaps/old', {
      raw: JSON.stringify({ data: { k: 'v' } }),
      contentType: 'application/merge-patch+json',
    });
    assert.equal(patched.status, 403, patched.text);
    assert.deepEqual(patched.json(), denied('old'));
    const deleted = await s.request('DELETE', '/api/v1/namespaces/default/configmaps/old');
    assert.equal(deleted.status, 403, deleted.text);
    assert.deepEqual(deleted.json(), denied('old'));
    const namespace = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } },
    });
    assert.equal(namespace.status, 403, namespace.text);
    assert.equal(
      namespace.json().message,
      'namespaces "n" is forbidden: admission control is denying all modifications',
    );
  });

  it('reads are not admission’s business', async () => {
    const got = await s.request('GET', '/api/v1/namespaces/default/configmaps/old');
    assert.equal(got.status, 200, got.text);
    assert.equal(got.json<{ data?: JsonObject }>().data, undefined);
    const list = await s.request('GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(list.status, 200, list.text);
    assert.ok(
      list.json<{ items: { metadata: { name: string } }[] }>().items.some((i) => i.metadata.name === 'old'),
    );
  });
});
