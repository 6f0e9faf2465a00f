/**
 * The CEL engine and RE2 are loaded on first use (src/cel/validation/load.ts, src/util/re2.ts), not
 * at start-up. This drives the built `nanokube serve` through the paths where they are not loaded
 * yet: a restart over a data dir that already holds a CRD with x-kubernetes-validations and a
 * `pattern` must publish the CRD (its schema check compiles the pattern) and validate the first
 * custom resources with both, exactly as before the restart (AM-05).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ApiError } from '../../src/client/api-error.js';
import { RestClient } from '../../src/client/rest-client.js';
import { credentialsFromKubeconfig } from '../../src/cmd/kubeconfig-credentials.js';
import type { JsonObject } from '../../src/util/json.js';
import { waitFor } from '../support/poll.js';
import { startNanokube } from './support/nanokube-process.js';
import type { NanokubeProcess } from './support/nanokube-process.js';

const base = mkdtempSync(join(tmpdir(), 'nanokube-lazy-cel-'));
const dataDir = join(base, 'data');
let server: NanokubeProcess | undefined;
let client: RestClient | undefined;

after(async () => {
  client?.close();
  await server?.stop();
  rmSync(base, { recursive: true, force: true });
});

const crdsPath = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const gadgets = '/apis/lazy.example.com/v1/namespaces/default/gadgets';

const crd: JsonObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.lazy.example.com' },
  spec: {
    group: 'lazy.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [
                  { rule: 'self.min <= self.max', message: 'min must not exceed max' },
                ],
                properties: {
                  min: { type: 'integer' },
                  max: { type: 'integer' },
                  code: { type: 'string', pattern: '^[a-z]{3}-\\d+$' },
                  host: { type: 'string', format: 'hostname' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const gadget = (name: string, spec: JsonObject): JsonObject => ({
  apiVersion: 'lazy.example.com/v1',
  kind: 'Gadget',
  metadata: { name },
  spec,
});

async function start(): Promise<RestClient> {
  client?.close();
  await server?.stop();
  server = await startNanokube({ args: ['--controllers=', '--nodes', '0'], dataDir });
  client = new RestClient(credentialsFromKubeconfig(server.kubeconfigPath));
  return client;
}

/** The Status of a refused create. */
async function refused(c: RestClient, body: JsonObject): Promise<ApiError> {
  const err = await c.request('POST', gadgets, { body }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError, `expected a refusal, got ${String(err)}`);
  return err;
}

/** Custom resources are served a moment after the CRD is (the CRD informer publishes them). */
function untilServed(c: RestClient): Promise<JsonObject> {
  return waitFor('the gadgets to be served', () => c.request('GET', gadgets));
}

test('a restart over a stored CRD with rules and a pattern validates as before (AM-05)', async () => {
  let c = await start();
  await c.request('POST', crdsPath, { body: crd });
  await untilServed(c);
  await c.request('POST', gadgets, { body: gadget('before', { min: 1, max: 2, code: 'abc-1' }) });

  // The new process has loaded neither CEL nor RE2 when it serves the stored CRD.
  c = await start();
  await untilServed(c);
  const rule = await refused(c, gadget('rule', { min: 3, max: 2 }));
  assert.equal(rule.code, 422);
  assert.equal(rule.reason, 'Invalid');
  assert.match(rule.message, /spec: Invalid value: "object": min must not exceed max/);

  const pattern = await refused(c, gadget('pattern', { min: 1, max: 2, code: 'ABC-1' }));
  assert.equal(pattern.code, 422);
  assert.match(
    pattern.message,
    /spec\.code: Invalid value: "ABC-1": spec\.code in body should match '\^\[a-z\]\{3\}-\\d\+\$'/,
  );

  const host = await refused(c, gadget('host', { min: 1, max: 2, host: '-bad-' }));
  assert.equal(host.code, 422);
  assert.match(host.message, /spec\.host in body must be of type hostname: "-bad-"/);

  const ok = await c.request('POST', gadgets, {
    body: gadget('after', { min: 1, max: 1, code: 'xyz-42', host: 'a.example.com' }),
  });
  assert.equal((ok['metadata'] as JsonObject)['name'], 'after');
  const list = await c.request('GET', gadgets);
  assert.deepEqual((list['items'] as JsonObject[]).map((i) => (i['metadata'] as JsonObject)['name']).sort(), [
    'after',
    'before',
  ]);

  // The published OpenAPI holds the kind (publishing checks the schema's pattern with RE2).
  const v3 = await c.request('GET', '/openapi/v3/apis/lazy.example.com/v1');
  const schemas = (v3['components'] as JsonObject)['schemas'] as JsonObject;
  assert.ok(schemas['com.example.lazy.v1.Gadget'] !== undefined, Object.keys(schemas).join(', '));
});

test('a CRD with an invalid pattern is refused on a fresh process (RE2 loaded by the CRD write)', async () => {
  const c = await start();
  const bad = structuredClone(crd);
  bad['metadata'] = { name: 'widgets.lazy.example.com' };
  const spec = bad['spec'] as JsonObject;
  spec['names'] = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' };
  const schema = ((spec['versions'] as JsonObject[])[0]!['schema'] as JsonObject)[
    'openAPIV3Schema'
  ] as JsonObject;
  (((schema['properties'] as JsonObject)['spec'] as JsonObject)['properties'] as JsonObject)['code'] = {
    type: 'string',
    pattern: '[a-',
  };
  const err = await c.request('POST', crdsPath, { body: bad }).then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, 422);
  assert.match(
    err.message,
    /spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[code\]\.pattern: Invalid value: "\[a-": must be a valid regular expression, but isn't: error parsing regexp: missing closing \]: `\[a-`/,
  );
});
