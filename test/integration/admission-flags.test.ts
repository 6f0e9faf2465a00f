/**
 * Integration: admission plugins users enable by flag — NodeRestriction (with the
 * Node authorizer), EventRateLimit from the admission configuration file, AlwaysPullImages,
 * DenyServiceExternalIPs — and the start-up errors of the flags and the configuration file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../src/util/json.js';
import { clientCert } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const dir = mkdtempSync(join(tmpdir(), 'admission-flags-'));
// Every suite below writes here: removed once the file's tests are done.
after(() => rmSync(dir, { recursive: true, force: true }));
const configPath = join(dir, 'admission.yaml');
writeFileSync(
  join(dir, 'events.yaml'),
  [
    'apiVersion: eventratelimit.admission.k8s.io/v1alpha1',
    'kind: Configuration',
    'limits:',
    '- type: Namespace',
    '  qps: 1',
    '  burst: 2',
    '  cacheSize: 100',
    '',
  ].join('\n'),
);
writeFileSync(
  configPath,
  [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: AdmissionConfiguration',
    'plugins:',
    '- name: EventRateLimit',
    '  path: events.yaml',
    '',
  ].join('\n'),
);

const pod = (name: string, spec: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'IfNotPresent' }], ...spec },
});

describe('admission plugins enabled by flag', () => {
  let s: TestServer;
  let kubelet: CertAndKey;
  before(async () => {
    s = await startTestServer({
      controllers: false,
      nodes: 0,
      authorizationModes: ['Node', 'RBAC'],
      admission: {
        enable: ['NodeRestriction', 'EventRateLimit', 'AlwaysPullImages', 'DenyServiceExternalIPs'],
        disable: ['ServiceAccount'],
        configFile: configPath,
      },
    });
    const pki = join(s.dataDir, 'pki');
    kubelet = await clientCert(
      { cert: readFileSync(join(pki, 'ca.crt'), 'utf8'), key: readFileSync(join(pki, 'ca.key'), 'utf8') },
      'CN=system:node:n1, O=system:nodes',
    );
  });
  after(async () => {
    await s.stop();
  });

  const node = (name: string): JsonObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });

  it('NodeRestriction: a kubelet registers and changes only its own Node', async () => {
    const own = await s.request('POST', '/api/v1/nodes', { body: node('n1'), credentials: kubelet });
    assert.equal(own.status, 201, own.text);
    const other = await s.request('POST', '/api/v1/nodes', { body: node('n2'), credentials: kubelet });
    assert.equal(other.status, 403);
    assert.equal(
      other.json().message,
      'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
    );
    const labelled = await s.request('PATCH', '/api/v1/nodes/n1', {
      raw: JSON.stringify({ metadata: { labels: { 'node-restriction.kubernetes.io/pool': 'a' } } }),
      contentType: 'application/merge-patch+json',
      credentials: kubelet,
    });
    assert.equal(labelled.status, 403);
    assert.match(
      String(labelled.json().message),
      /is not allowed to modify labels: node-restriction\.kubernetes\.io\/pool/,
    );
  });

  it('AlwaysPullImages sets imagePullPolicy Always; a kubelet may not create ordinary pods', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/pods', { body: pod('pulled') });
    assert.equal(r.status, 201, r.text);
    const spec = r.json<{ spec: { containers: JsonObject[] } }>().spec;
    assert.equal(spec.containers[0]!['imagePullPolicy'], 'Always');
    const byKubelet = await s.request('POST', '/api/v1/namespaces/default/pods', {
      body: pod('mine', { nodeName: 'n1' }),
      credentials: kubelet,
    });
    assert.equal(byKubelet.status, 403);
    assert.equal(
      byKubelet.json().message,
      'pods "mine" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
    );
  });

  it('DenyServiceExternalIPs refuses new external IPs', async () => {
    const r = await s.request('POST', '/api/v1/namespaces/default/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'ext' },
        spec: { ports: [{ port: 80 }], externalIPs: ['192.0.2.10'] },
      },
    });
    assert.equal(r.status, 403);
    assert.equal(
      r.json().message,
      'services "ext" is forbidden: Use of external IPs is denied by admission control',
    );
  });

  it('EventRateLimit: a namespace gets its burst of events, then 429', async () => {
    const event = (i: number): JsonObject => ({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `e${i}` },
      involvedObject: { kind: 'Pod', name: 'pulled', namespace: 'default' },
      reason: 'Test',
      message: 'm',
    });
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await s.request('POST', '/api/v1/namespaces/default/events', { body: event(i) }));
    assert.deepEqual(
      answers.slice(0, 2).map((r) => r.status),
      [201, 201],
    );
    const refused = answers.find((r) => r.status === 429);
    assert.ok(refused !== undefined, answers.map((r) => r.status).join(','));
    assert.equal(refused.json().reason, 'TooManyRequests');
    assert.equal(
      refused.json().message,
      'Too many requests: limit reached on type Namespace for key default',
    );
  });
});

describe('admission start-up errors', () => {
  const refuses = async (admission: object, message: string | RegExp): Promise<void> => {
    await assert.rejects(
      startTestServer({ controllers: false, nodes: 0, storage: 'memory', admission }),
      (err: Error) => (typeof message === 'string' ? err.message === message : message.test(err.message)),
    );
  };
  it('unknown and overlapping plugin names', async () => {
    await refuses({ enable: ['Nope'] }, 'enable-admission-plugins plugin "Nope" is unknown');
    await refuses(
      { enable: ['Priority'], disable: ['Priority'] },
      '[Priority] in enable-admission-plugins and disable-admission-plugins overlapped',
    );
  });
  it('SecurityContextDeny needs its alpha feature gate, as in v1.27', async () => {
    await refuses(
      { enable: ['SecurityContextDeny'] },
      'failed to initialize admission: SecurityContextDeny admission controller is an alpha feature, planned to be removed, and requires the SecurityContextDeny feature gate to be enabled, see https://k8s.io/docs/reference/access-authn-authz/admission-controllers/#securitycontextdeny for more information',
    );
  });
  it('a plugin nanokube does not have refuses to start rather than run without it', async () => {
    await refuses(
      { enable: ['ImagePolicyWebhook'] },
      'admission plugin "ImagePolicyWebhook" not supported by nanokube',
    );
  });
  it('EventRateLimit without a configuration, and a configuration file of the wrong kind', async () => {
    await refuses(
      { enable: ['EventRateLimit'] },
      /^couldn't init admission plugin "EventRateLimit": limits: Invalid value/,
    );
    const wrong = join(dir, 'wrong.yaml');
    writeFileSync(wrong, 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n');
    await refuses(
      { configFile: wrong },
      'no kind "EncryptionConfiguration" is registered for version "apiserver.config.k8s.io/v1" in scheme "pkg/admission/config.go"',
    );
    const badPsa = join(dir, 'psa.yaml');
    writeFileSync(
      badPsa,
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AdmissionConfiguration',
        'plugins:',
        '- name: PodSecurity',
        '  configuration:',
        '    apiVersion: pod-security.admission.config.k8s.io/v1',
        '    kind: PodSecurityConfiguration',
        '    defaults: {enforce: strict}',
        '',
      ].join('\n'),
    );
    await refuses({ configFile: badPsa }, /^couldn't init admission plugin "PodSecurity": /);
  });
});
