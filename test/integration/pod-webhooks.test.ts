/**
 * Webhooks served by simulated pods, as the upstream AdmissionWebhook and
 * CustomResourceConversionWebhook `[Conformance]` specs deploy them: agnhost `webhook` and
 * `crd-conversion-webhook` in a Deployment with their key pair from a Secret volume, behind a
 * Service the configurations name. The API server dials the pod in memory and verifies its
 * certificate against the caBundle over real TLS; the agnhost handlers refuse, patch, sleep and
 * convert as their sources do. A caBundle that did not sign the pod's certificate is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeTestCertificates } from '../../src/admission/testing/webhook-server.js';
import type { TestCertificates } from '../../src/admission/testing/webhook-server.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const ns = 'hooks';
const agnhost = 'registry.k8s.io/e2e-test-images/agnhost:2.43';
const admissionV1 = '/apis/admissionregistration.k8s.io/v1';

describe('webhooks served by simulated pods', () => {
  let s: TestServer;
  let certs: TestCertificates;

  /** A Deployment of agnhost `sub` serving TLS on 8444 with the Secret's key pair, and its Service on 8443. */
  async function deploy(name: string, sub: string): Promise<void> {
    const secret = await s.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${name}-certs` },
        type: 'Opaque',
        data: {
          'tls.crt': Buffer.from(certs.certPem).toString('base64'),
          'tls.key': Buffer.from(certs.keyPem).toString('base64'),
        },
      },
    });
    assert.equal(secret.status, 201, secret.text);
    const labels = { app: name };
    const d = await s.request('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      body: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name },
        spec: {
          replicas: 1,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              volumes: [{ name: 'certs', secret: { secretName: `${name}-certs` } }],
              containers: [
                {
                  name: 'c',
                  image: agnhost,
                  args: [
                    sub,
                    '--tls-cert-file=/webhook.local.config/certificates/tls.crt',
                    '--tls-private-key-file=/webhook.local.config/certificates/tls.key',
                    '-v=4',
                    '--port=8444',
                  ],
                  volumeMounts: [
                    { name: 'certs', readOnly: true, mountPath: '/webhook.local.config/certificates' },
                  ],
                  readinessProbe: {
                    httpGet: { scheme: 'HTTPS', port: 8444, path: '/readyz' },
                    periodSeconds: 1,
                  },
                  ports: [{ containerPort: 8444 }],
                },
              ],
            },
          },
        },
      },
    });
    assert.equal(d.status, 201, d.text);
    const svc = await s.request('POST', `/api/v1/namespaces/${ns}/services`, {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name },
        spec: { selector: labels, ports: [{ protocol: 'TCP', port: 8443, targetPort: 8444 }] },
      },
    });
    assert.equal(svc.status, 201, svc.text);
    await waitFor(`a ready endpoint of ${name}`, async () => {
      const r = await s.request('GET', `/api/v1/namespaces/${ns}/endpoints/${name}`);
      const subsets = r.json<{ subsets?: { addresses?: unknown[] }[] }>().subsets ?? [];
      return subsets.some((x) => (x.addresses ?? []).length > 0) ? true : undefined;
    });
  }

  const service = (name: string, path: string, caBundle = certs.caBundle): Record<string, unknown> => ({
    service: { namespace: ns, name, path, port: 8443 },
    caBundle,
  });

  const configMap = (name: string, data: Record<string, string>): Record<string, unknown> => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name },
    data,
  });

  before(async () => {
    s = await startTestServer({ nodes: 1, storage: 'memory' });
    certs = await makeTestCertificates({ hosts: ['sample-webhook.hooks.svc', 'conversion.hooks.svc'] });
    const r = await s.request('POST', '/api/v1/namespaces', {
      body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { hooks: 'on' } } },
    });
    assert.equal(r.status, 201, r.text);
    await deploy('sample-webhook', 'webhook');
  });
  after(async () => {
    await s.stop();
  });

  /** Writes a configuration with one webhook for configmaps in the namespace and waits until it answers. */
  async function install(
    kind: 'Validating' | 'Mutating',
    name: string,
    clientConfig: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<void> {
    const r = await s.request('POST', `${admissionV1}/${kind.toLowerCase()}webhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: `${kind}WebhookConfiguration`,
        metadata: { name },
        webhooks: [
          {
            name: `${name}.k8s.io`,
            clientConfig,
            rules: [
              {
                operations: ['CREATE', 'UPDATE'],
                apiGroups: [''],
                apiVersions: ['v1'],
                resources: ['configmaps'],
              },
            ],
            namespaceSelector: { matchLabels: { hooks: 'on' } },
            sideEffects: 'None',
            admissionReviewVersions: ['v1', 'v1beta1'],
            ...extra,
          },
        ],
      },
    });
    assert.equal(r.status, 201, r.text);
  }

  async function remove(kind: 'Validating' | 'Mutating', name: string): Promise<void> {
    await s.request('DELETE', `${admissionV1}/${kind.toLowerCase()}webhookconfigurations/${name}`);
  }

  it('a validating webhook in a pod refuses what agnhost refuses, over TLS verified by the caBundle', async () => {
    await install('Validating', 'deny-configmap', service('sample-webhook', '/configmaps'));
    try {
      const refused = await waitFor('the webhook refusing a disallowed ConfigMap', async () => {
        const r = await s.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: configMap(`bad-${Date.now()}`, { 'webhook-e2e-test': 'webhook-disallow' }),
        });
        return r.status === 400 ? r : undefined;
      });
      const status = refused.json<{ reason?: string; message?: string }>();
      assert.equal(
        status.message,
        'admission webhook "deny-configmap.k8s.io" denied the request: the configmap contains unwanted key and value',
      );
      const ok = await s.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
        body: configMap('fine', { k: 'v' }),
      });
      assert.equal(ok.status, 201, ok.text);
    } finally {
      await remove('Validating', 'deny-configmap');
    }
  });

  it('two mutating webhooks in a pod patch in two stages', async () => {
    for (const stage of ['1', '2']) {
      await install(
        'Mutating',
        `mutate-configmap-${stage}`,
        service('sample-webhook', '/mutating-configmaps'),
      );
    }
    try {
      const created = await waitFor('the ConfigMap mutated by both webhooks', async () => {
        const r = await s.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: configMap(`m-${Date.now()}`, { 'mutation-start': 'yes' }),
        });
        assert.equal(r.status, 201, r.text);
        const data = r.json<{ data: Record<string, string> }>().data;
        return data['mutation-stage-2'] === 'yes' ? data : undefined;
      });
      assert.deepEqual(created, {
        'mutation-start': 'yes',
        'mutation-stage-1': 'yes',
        'mutation-stage-2': 'yes',
      });
    } finally {
      for (const stage of ['1', '2']) await remove('Mutating', `mutate-configmap-${stage}`);
    }
  });

  /** Creates ConfigMaps until one fails with a 500 (the webhook call failed, fail closed): its message. */
  async function failedCallMessage(what: string): Promise<string> {
    const r = await waitFor(what, async () => {
      const x = await s.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
        body: configMap(`f-${Date.now()}`, {}),
      });
      return x.status === 500 ? x : undefined;
    });
    return r.json<{ message: string }>().message;
  }

  it('a caBundle that did not sign the pod certificate fails the call (fail closed)', async () => {
    const other = await makeTestCertificates({ hosts: ['sample-webhook.hooks.svc'] });
    await install('Validating', 'untrusted', service('sample-webhook', '/always-deny', other.caBundle));
    try {
      assert.match(
        await failedCallMessage('the call failing verification'),
        /^Internal error occurred: failed calling webhook "untrusted.k8s.io": failed to call webhook: Post "https:\/\/sample-webhook\.hooks\.svc:8443\/always-deny\?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority$/,
      );
    } finally {
      await remove('Validating', 'untrusted');
    }
  });

  it('a webhook that sleeps past its timeout fails with the deadline', async () => {
    await install('Validating', 'slow', service('sample-webhook', '/always-allow-delay-5s'), {
      timeoutSeconds: 1,
    });
    try {
      assert.match(
        await failedCallMessage('the call timing out'),
        /\/always-allow-delay-5s\?timeout=1s": context deadline exceeded/,
      );
    } finally {
      await remove('Validating', 'slow');
    }
  });

  /** A configuration of one or more webhooks for `rules`, all namespaced to the test namespace. */
  async function installFor(
    kind: 'Validating' | 'Mutating',
    name: string,
    paths: string[],
    rules: Record<string, unknown>[],
  ): Promise<void> {
    const r = await s.request('POST', `${admissionV1}/${kind.toLowerCase()}webhookconfigurations`, {
      body: {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: `${kind}WebhookConfiguration`,
        metadata: { name },
        webhooks: paths.map((path, i) => ({
          name: `${name}-${i}.k8s.io`,
          clientConfig: service('sample-webhook', path),
          rules,
          namespaceSelector: { matchLabels: { hooks: 'on' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        })),
      },
    });
    assert.equal(r.status, 201, r.text);
  }

  it('a pod patched by a webhook is defaulted after the patch', async () => {
    await installFor(
      'Mutating',
      'mutate-pods',
      ['/mutating-pods'],
      [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    );
    try {
      const pod = await waitFor('the pod mutated by the webhook', async () => {
        await s.request('DELETE', `/api/v1/namespaces/${ns}/pods/webhook-to-be-mutated?gracePeriodSeconds=0`);
        const r = await s.request('POST', `/api/v1/namespaces/${ns}/pods`, {
          body: {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: 'webhook-to-be-mutated' },
            spec: { containers: [{ name: 'example', image: agnhost }] },
          },
        });
        if (r.status !== 201) return undefined;
        const spec = r.json<{ spec: { initContainers?: Record<string, unknown>[] } }>().spec;
        return spec.initContainers !== undefined ? spec : undefined;
      });
      const init = pod.initContainers![0]!;
      assert.equal(init['name'], 'webhook-added-init-container');
      // SetDefaults_Container ran on the patched pod: without it the pod fails validation.
      assert.equal(init['imagePullPolicy'], 'Always'); // an image without a tag is :latest
      assert.equal(init['terminationMessagePolicy'], 'File');
      assert.equal(init['terminationMessagePath'], '/dev/termination-log');
    } finally {
      await remove('Mutating', 'mutate-pods');
    }
  });

  it('an attach the webhook refuses is refused from the query options (CONNECT admission)', async () => {
    const created = await s.request('POST', `/api/v1/namespaces/${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'to-be-attached-pod' },
        spec: { containers: [{ name: 'container1', image: agnhost, args: ['pause'] }] },
      },
    });
    assert.equal(created.status, 201, created.text);
    await installFor(
      'Validating',
      'deny-attach',
      ['/pods/attach'],
      [{ operations: ['CONNECT'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/attach'] }],
    );
    try {
      const r = await waitFor('the attach refused', async () => {
        const x = await s.request(
          'POST',
          `/api/v1/namespaces/${ns}/pods/to-be-attached-pod/attach?stdin=true&stdout=true&container=container1`,
        );
        return x.status === 400 ? x : undefined;
      });
      assert.equal(
        r.json<{ message: string }>().message,
        `admission webhook "deny-attach-0.k8s.io" denied the request: attaching to pod 'to-be-attached-pod' is not allowed`,
      );
      // Without stdin the webhook allows it: the request goes on to the attach itself, which
      // wants a protocol upgrade this plain POST does not ask for.
      const allowed = await s.request(
        'POST',
        `/api/v1/namespaces/${ns}/pods/to-be-attached-pod/attach?stdout=true&container=container1`,
      );
      assert.doesNotMatch(allowed.text, /denied the request/);
    } finally {
      await remove('Validating', 'deny-attach');
    }
  });

  it('what a webhook adds to a custom resource outside its schema is pruned before it is stored', async () => {
    const dataSchema = {
      type: 'object',
      properties: {
        data: {
          type: 'object',
          properties: { 'mutation-start': { type: 'string' }, 'mutation-stage-1': { type: 'string' } },
        },
      },
    };
    const crd = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'pruned.webhook.example.com' },
        spec: {
          group: 'webhook.example.com',
          scope: 'Namespaced',
          names: { plural: 'pruned', singular: 'prune', kind: 'Pruned', listKind: 'PrunedList' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: dataSchema } }],
        },
      },
    });
    assert.equal(crd.status, 201, crd.text);
    const path = `/apis/webhook.example.com/v1/namespaces/${ns}/pruned`;
    await waitFor('the custom resource served', async () =>
      (await s.request('GET', path)).status === 200 ? true : undefined,
    );
    await installFor(
      'Mutating',
      'mutate-cr',
      ['/mutating-custom-resource', '/mutating-custom-resource'],
      [
        {
          operations: ['CREATE'],
          apiGroups: ['webhook.example.com'],
          apiVersions: ['v1'],
          resources: ['pruned'],
        },
      ],
    );
    try {
      const data = await waitFor('the custom resource mutated', async () => {
        const r = await s.request('POST', path, {
          body: {
            apiVersion: 'webhook.example.com/v1',
            kind: 'Pruned',
            metadata: { name: `cr-${Date.now()}` },
            data: { 'mutation-start': 'yes' },
          },
        });
        assert.equal(r.status, 201, r.text);
        const d = r.json<{ data: Record<string, string> }>().data;
        return d['mutation-stage-1'] === 'yes' ? d : undefined;
      });
      // The second webhook added mutation-stage-2, which the schema does not know.
      assert.deepEqual(data, { 'mutation-start': 'yes', 'mutation-stage-1': 'yes' });
    } finally {
      await remove('Mutating', 'mutate-cr');
    }
  });

  it('a conversion webhook in a pod converts custom resources between versions', async () => {
    await deploy('conversion', 'crd-conversion-webhook');
    const schema = {
      openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    };
    const crd = await s.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'e2e-tests.stable.example.com' },
        spec: {
          group: 'stable.example.com',
          scope: 'Namespaced',
          names: { plural: 'e2e-tests', singular: 'e2e-test', kind: 'E2eTest', listKind: 'E2eTestList' },
          versions: [
            { name: 'v1', served: true, storage: true, schema },
            { name: 'v2', served: true, storage: false, schema },
          ],
          conversion: {
            strategy: 'Webhook',
            webhook: {
              conversionReviewVersions: ['v1', 'v1beta1'],
              clientConfig: {
                service: { namespace: ns, name: 'conversion', path: '/crdconvert', port: 8443 },
                caBundle: certs.caBundle,
              },
            },
          },
        },
      },
    });
    assert.equal(crd.status, 201, crd.text);
    const base = `/apis/stable.example.com`;
    await waitFor('the v1 version served', async () =>
      (await s.request('GET', `${base}/v1/namespaces/${ns}/e2e-tests`)).status === 200 ? true : undefined,
    );
    const created = await s.request('POST', `${base}/v1/namespaces/${ns}/e2e-tests`, {
      body: {
        apiVersion: 'stable.example.com/v1',
        kind: 'E2eTest',
        metadata: { name: 'cr' },
        hostPort: 'localhost:8080',
      },
    });
    assert.equal(created.status, 201, created.text);
    const v2 = await waitFor('the object read as v2', async () => {
      const r = await s.request('GET', `${base}/v2/namespaces/${ns}/e2e-tests/cr`);
      return r.status === 200 ? r.json() : undefined;
    });
    assert.equal(v2['apiVersion'], 'stable.example.com/v2');
    assert.equal(v2['host'], 'localhost');
    assert.equal(v2['port'], '8080');
    assert.equal(v2['hostPort'], undefined);
  });
});
