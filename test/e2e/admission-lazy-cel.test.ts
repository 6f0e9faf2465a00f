/**
 * The CEL engine of admission is loaded on first use (src/cel/admission/load.ts), not at start-up:
 * @bufbuild/cel, its descriptors and re2js cost a server without policies about 5 MiB and a tenth
 * of its module compile time. This checks that the built server's start does not reach it through
 * static imports (scripts/why-loaded.mjs), and drives `nanokube serve` through the paths where it is
 * not loaded yet: a restart over a data dir holding a ValidatingAdmissionPolicy with its binding
 * and a webhook configuration with match conditions must enforce both on the first requests, as
 * before the restart (AM-03, AM-08).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ApiError } from '../../src/client/api-error.js';
import { RestClient } from '../../src/client/rest-client.js';
import { credentialsFromKubeconfig } from '../../src/cmd/kubeconfig-credentials.js';
import type { JsonObject } from '../../src/util/json.js';
import { repoRoot, startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';

const base = mkdtempSync(join(tmpdir(), 'nanokube-lazy-admission-cel-'));
const dataDir = join(base, 'data');
let server: NanokubeProcess | undefined;
let client: RestClient | undefined;

after(async () => {
  client?.close();
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
});

async function start(): Promise<RestClient> {
  client?.close();
  await server?.stop();
  server = await startNanokube({
    args: [
      '--controllers=',
      '--nodes',
      '0',
      '--feature-gates=ValidatingAdmissionPolicy=true,AdmissionWebhookMatchConditions=true',
      '--runtime-config=admissionregistration.k8s.io/v1alpha1=true',
    ],
    dataDir,
  });
  client = new RestClient(credentialsFromKubeconfig(server.kubeconfigPath));
  return client;
}

const configMaps = '/api/v1/namespaces/default/configmaps';
const configMap = (name: string, data: Record<string, string> = { a: 'b' }): JsonObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});

/** The Status of a refused create. */
async function refused(c: RestClient, body: JsonObject): Promise<ApiError> {
  const err = await c.request('POST', configMaps, { body }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, `expected a refusal, got ${String(err)}`);
  return err;
}

test('start-up reaches neither @bufbuild/cel nor re2js through static imports', async () => {
  const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ['scripts/why-loaded.mjs', '@bufbuild/cel/', 're2js', 'src/cel/compile', 'src/cel/admission/index'],
      { cwd: repoRoot },
      (err, stdout) => resolve({ code: err === null ? 0 : (err.code as number | null), stdout }),
    );
  });
  assert.equal(out.code, 0, out.stdout);
  assert.match(out.stdout, /@bufbuild\/cel\/: not loaded at start/);
  assert.match(out.stdout, /re2js: not loaded at start/);
});

test('a restart over a stored policy and a webhook with match conditions enforces both at once (AM-03, AM-08)', async () => {
  let c = await start();
  await c.request('POST', '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies', {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1alpha1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'no-forbidden' },
      spec: {
        matchConstraints: {
          resourceRules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
        },
        validations: [
          { expression: "!has(object.data) || !('forbidden' in object.data)", message: 'no forbidden key' },
        ],
      },
    },
  });
  await c.request('POST', '/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicybindings', {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1alpha1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'no-forbidden' },
      spec: { policyName: 'no-forbidden', validationActions: ['Deny'] },
    },
  });
  // A webhook nobody serves, called only for the ConfigMap named "hit" (its match condition).
  await c.request('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
    body: {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'only-hit' },
      webhooks: [
        {
          name: 'only-hit.example.com',
          clientConfig: { url: 'https://127.0.0.1:1/validate' },
          rules: [
            { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
          ],
          matchConditions: [{ name: 'only-hit', expression: "object.metadata.name == 'hit'" }],
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 2,
        },
      ],
    },
  });

  // The new process has not loaded the engine when its first requests meet the stored objects.
  c = await start();
  const denied = await refused(c, configMap('bad', { forbidden: 'x' }));
  // A validation without a reason answers Invalid (422), as upstream.
  assert.equal(denied.code, 422);
  assert.equal(denied.reason, 'Invalid');
  assert.equal(
    denied.status?.['message'],
    'configmaps "bad" is forbidden: ' +
      "ValidatingAdmissionPolicy 'no-forbidden' with binding 'no-forbidden' denied request: no forbidden key",
  );
  const created = await c.request('POST', configMaps, { body: configMap('fine') });
  assert.equal((created['metadata'] as JsonObject)['name'], 'fine');
  // Its match condition holds for "hit": the webhook is called, and cannot be reached.
  const hit = await refused(c, configMap('hit'));
  assert.equal(hit.code, 500);
  assert.match(hit.message, /failed calling webhook "only-hit\.example\.com"/);
});
