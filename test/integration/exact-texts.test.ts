/**
 * Integration: upstream's exact texts where the foundation approximated them. Each
 * expected string is kube-apiserver v1.27's, derived from its code and tests as noted per case.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

const cms = '/api/v1/namespaces/default/configmaps';
const cm = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { a: 'b' },
  ...extra,
});

describe('exact upstream texts', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ controllers: false });
    assert.equal((await s.request('POST', cms, { body: cm('existing') })).status, 201);
  });
  after(() => s.stop());

  const message = async (
    method: string,
    path: string,
    raw: string,
    contentType?: string,
  ): Promise<[number, unknown]> => {
    const r = await s.request(method, path, { raw, ...(contentType !== undefined ? { contentType } : {}) });
    return [r.status, r.json()['message']];
  };

  describe('malformed JSON bodies (handlers/rest.go transformDecodeError, json/meta.go Interpret)', () => {
    const unrecognized = (kind: string, err: string, summary: string): string =>
      `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${err} (${summary})`;

    it('create: Go syntax errors with the body summarized (objects as text, else hex)', async () => {
      const cases: [string, string, string][] = [
        ['{"a":1, n}', "invalid character 'n' looking for beginning of object key string", '{"a":1, n}'],
        ['{"metadata":', 'unexpected end of JSON input', '{"metadata":'],
        ['{"kind" }', "invalid character '}' after object key", '{"kind" }'],
        [
          '{"apiVersion":"v1","kind":"ConfigMap",}',
          "invalid character '}' looking for beginning of object key string",
          '{"apiVersion":"v1","kind":"Con ...',
        ],
        // As a real server answers a YAML body sent as JSON (kubernetes issue reports).
        [
          'apiVersion: v1\nkind: Pod',
          "invalid character 'a' looking for beginning of value",
          '61706956657273696f6e3a2076310a6b696e643a20506f64',
        ],
        ['not json', "invalid character 'o' in literal null (expecting 'u')", '6e6f74206a736f6e'],
        ['', 'unexpected end of JSON input', '<empty>'],
      ];
      for (const [raw, err, summary] of cases) {
        assert.deepEqual(
          await message('POST', cms, raw),
          [400, unrecognized('ConfigMap', err, summary)],
          raw,
        );
      }
    });

    it('create: a body that is no object, or a non-string apiVersion/kind', async () => {
      const findKind =
        'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
      assert.deepEqual(await message('POST', cms, '"a string"'), [
        400,
        unrecognized(
          'ConfigMap',
          `json: cannot unmarshal string into Go value of type ${findKind}`,
          '226120737472696e6722',
        ),
      ]);
      assert.deepEqual(await message('POST', cms, '[]'), [
        400,
        unrecognized('ConfigMap', `json: cannot unmarshal array into Go value of type ${findKind}`, '5b5d'),
      ]);
      assert.deepEqual(await message('POST', cms, '{"apiVersion":5}'), [
        400,
        unrecognized(
          'ConfigMap',
          'json: cannot unmarshal number into Go struct field .apiVersion of type string',
          '{"apiVersion":5}',
        ),
      ]);
    });

    it('update says the same; DeleteOptions keep the decoder text alone', async () => {
      assert.deepEqual(await message('PUT', `${cms}/existing`, '{"a" 1}'), [
        400,
        unrecognized('ConfigMap', "invalid character '1' after object key", '{"a" 1}'),
      ]);
      assert.deepEqual(await message('DELETE', `${cms}/existing`, '{"a":1 "b":2}'), [
        400,
        `couldn't get version/kind; json parse error: invalid character '"' after object key:value pair`,
      ]);
    });

    it('patch: per patch type and field validation (handlers/patch.go)', async () => {
      const obj = `${cms}/existing`;
      const bad = '{"data":{"a" "b"}}';
      const go = "invalid character '\"' after object key";
      assert.deepEqual(await message('PATCH', obj, bad, 'application/merge-patch+json'), [
        400,
        `error decoding patch: ${go}`,
      ]);
      assert.deepEqual(
        await message('PATCH', `${obj}?fieldValidation=Ignore`, bad, 'application/merge-patch+json'),
        [400, 'Invalid JSON Patch'],
      );
      assert.deepEqual(await message('PATCH', obj, bad, 'application/strategic-merge-patch+json'), [400, go]);
      assert.deepEqual(await message('PATCH', obj, '[{"op":"add"', 'application/json-patch+json'), [
        400,
        'error decoding patch: unexpected end of JSON input',
      ]);
      assert.deepEqual(
        await message(
          'PATCH',
          `${obj}?fieldValidation=Ignore`,
          '[{"op":"add"',
          'application/json-patch+json',
        ),
        [400, 'unexpected end of JSON input'],
      );
    });
  });

  describe("field selectors: each served kind's field label conversion (pkg/apis/*/v1/conversion.go)", () => {
    const selectMessage = async (path: string, selector: string): Promise<[number, unknown]> => {
      const r = await s.request('GET', `${path}?fieldSelector=${encodeURIComponent(selector)}`);
      return [r.status, r.status === 200 ? undefined : r.json()['message']];
    };
    const only = (l: string) =>
      `"${l}" is not a known field selector: only "metadata.name", "metadata.namespace"`;

    it('kinds without a conversion func: runtime.DefaultMetaV1FieldSelectorConversion', async () => {
      assert.deepEqual(await selectMessage(cms, 'spec.foo=x'), [400, only('spec.foo')]);
      // apps/v1 registers no conversion: ReplicaSet's status.replicas is out of reach there.
      assert.deepEqual(await selectMessage('/apis/apps/v1/replicasets', 'status.replicas=1'), [
        400,
        only('status.replicas'),
      ]);
      assert.deepEqual(await selectMessage('/api/v1/persistentvolumes', 'metadata.namespace=x'), [
        200,
        undefined,
      ]);
    });

    it('kinds with their own list and message', async () => {
      assert.deepEqual(await selectMessage('/api/v1/pods', 'spec.foo=x'), [
        400,
        'field label not supported: spec.foo',
      ]);
      assert.deepEqual(await selectMessage('/api/v1/pods', 'spec.host=n1'), [200, undefined]);
      assert.deepEqual(await selectMessage('/api/v1/namespaces', 'metadata.namespace=x'), [
        400,
        'field label not supported: metadata.namespace',
      ]);
      assert.deepEqual(await selectMessage('/api/v1/secrets', 'type=Opaque,data=x'), [
        400,
        'field label not supported: data',
      ]);
      assert.deepEqual(await selectMessage('/api/v1/events', 'regarding.name=x'), [
        400,
        'field label not supported: regarding.name',
      ]);
      assert.deepEqual(await selectMessage('/apis/events.k8s.io/v1/events', 'regarding.name=x'), [
        200,
        undefined,
      ]);
      assert.deepEqual(await selectMessage('/apis/batch/v1/jobs', 'spec.parallelism=1'), [
        400,
        'field label "spec.parallelism" not supported for Job',
      ]);
      assert.deepEqual(
        await selectMessage('/apis/certificates.k8s.io/v1/certificatesigningrequests', 'spec.foo=x'),
        [400, 'field label not supported: spec.foo'],
      );
    });
  });
  describe('a body of another kind (serializer/versioning Decode, handlers/rest.go transformDecodeError)', () => {
    const send = async (method: string, path: string, body: unknown): Promise<[number, unknown]> => {
      const r = await s.request(method, path, { body });
      return [r.status, r.json()['message']];
    };
    const legacy = 'in scheme "pkg/api/legacyscheme/scheme.go:30"';

    it('a registered kind of another type: converting … unknown conversion', async () => {
      assert.deepEqual(await send('POST', cms, { ...cm('s1'), kind: 'Secret' }), [
        400,
        'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
      ]);
      assert.deepEqual(
        await send('PUT', `${cms}/existing`, {
          ...cm('existing'),
          apiVersion: 'apps/v1',
          kind: 'Deployment',
        }),
        [
          400,
          'Deployment in version "v1" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion',
        ],
      );
      assert.deepEqual(
        await send('POST', '/apis/apps/v1/namespaces/default/deployments', {
          ...cm('d1'),
          apiVersion: 'batch/v1beta1',
          kind: 'CronJob',
        }),
        [
          400,
          'CronJob in version "v1beta1" cannot be handled as a Deployment: converting (v1beta1.CronJob) to (apps.Deployment): unknown conversion',
        ],
      );
    });

    it("the same type in another group/version: the handler's API version check", async () => {
      assert.deepEqual(
        await send('POST', '/apis/apps/v1/namespaces/default/deployments', {
          apiVersion: 'apps/v1beta1',
          kind: 'Deployment',
          metadata: { name: 'd' },
        }),
        [400, 'the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)'],
      );
      assert.deepEqual(
        await send('POST', '/api/v1/namespaces/default/events', {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: { name: 'e' },
        }),
        [400, 'the API version in the data (events.k8s.io/v1) does not match the expected API version (v1)'],
      );
    });

    it('an unregistered kind or version: no kind … is registered', async () => {
      assert.deepEqual(await send('POST', cms, { ...cm('x'), kind: 'Nothing' }), [
        400,
        `Nothing in version "v1" cannot be handled as a ConfigMap: no kind "Nothing" is registered for version "v1" ${legacy}`,
      ]);
      assert.deepEqual(await send('POST', cms, { ...cm('x'), apiVersion: 'v2' }), [
        400,
        `ConfigMap in version "v2" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "v2" ${legacy}`,
      ]);
      assert.deepEqual(
        await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', cm('x')),
        [
          400,
          'ConfigMap in version "v1" cannot be handled as a CustomResourceDefinition: no kind "ConfigMap" is registered for version "v1" in scheme "k8s.io/apiextensions-apiserver/pkg/apiserver/apiserver.go:56"',
        ],
      );
    });

    it('apiVersion and kind default from the endpoint (gvkWithDefaults)', async () => {
      assert.equal(
        (await s.request('POST', cms, { body: { metadata: { name: 'no-type-meta' } } })).status,
        201,
      );
      // schema.FromAPIVersionAndKind ignores an apiVersion that does not parse.
      assert.equal(
        (await s.request('POST', cms, { body: { ...cm('bad-gv'), apiVersion: 'a/b/c' } })).status,
        201,
      );
      assert.deepEqual(await send('POST', cms, { ...cm('x'), apiVersion: 'apps/' }), [
        400,
        `ConfigMap in version "" cannot be handled as a ConfigMap: Object 'apiVersion' is missing in '${JSON.stringify({ ...cm('x'), apiVersion: 'apps/' })}'`,
      ]);
    });
  });
  describe('UID preconditions (storage.Preconditions.Check on update, rest.BeforeDelete on delete)', () => {
    it('PUT with another metadata.uid: 409 from storage, naming the etcd key', async () => {
      const got = (await s.request('GET', `${cms}/existing`)).json<{ metadata: { uid: string } }>();
      const r = await s.request('PUT', `${cms}/existing`, {
        body: cm('existing', { metadata: { name: 'existing', uid: 'a-uid' } }),
      });
      assert.equal(r.status, 409);
      assert.equal(r.json()['reason'], 'Conflict');
      assert.equal(
        r.json()['message'],
        `Operation cannot be fulfilled on configmaps "existing": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/existing, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: a-uid, UID in object meta: ${got.metadata.uid}`,
      );
      const d = await s.request('PUT', '/apis/apps/v1/namespaces/default/deployments/none', {
        body: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'none', uid: 'u1' } },
      });
      assert.deepEqual(
        [d.status, d.json()['message']],
        [
          409,
          'Operation cannot be fulfilled on deployments.apps "none": StorageError: invalid object, Code: 4, Key: /registry/deployments/default/none, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u1, UID in object meta: ',
        ],
      );
    });

    it('DELETE with wrong preconditions: the kind, and the record', async () => {
      const got = (await s.request('GET', `${cms}/existing`)).json<{
        metadata: { uid: string; resourceVersion: string };
      }>();
      const del = async (preconditions: unknown): Promise<[number, unknown]> => {
        const r = await s.request('DELETE', `${cms}/existing`, {
          body: { kind: 'DeleteOptions', apiVersion: 'v1', preconditions },
        });
        return [r.status, r.json()['message']];
      };
      assert.deepEqual(await del({ uid: 'x' }), [
        409,
        `Operation cannot be fulfilled on ConfigMap "existing": the UID in the precondition (x) does not match the UID in record (${got.metadata.uid}). The object might have been deleted and then recreated`,
      ]);
      assert.deepEqual(await del({ resourceVersion: '1' }), [
        409,
        `Operation cannot be fulfilled on ConfigMap "existing": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${got.metadata.resourceVersion}). The object might have been modified`,
      ]);
    });
  });
  describe('pretty JSON (negotiation/negotiate.go isPrettyPrint, serializer/json doEncode)', () => {
    const body = async (
      path: string,
      headers: Record<string, string>,
      method = 'GET',
    ): Promise<[number, string]> => {
      const r = await s.request(method, path, { headers });
      return [r.status, r.text];
    };
    const obj = `${cms}/existing`;

    it('curl, Wget and browsers get json.MarshalIndent (two spaces, no newline); others json.Encoder', async () => {
      const [, compact] = await body(obj, {});
      assert.ok(compact.endsWith('}\n') && !compact.includes('\n  '), compact);
      const value: unknown = JSON.parse(compact);
      for (const ua of ['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11)']) {
        assert.deepEqual(await body(obj, { 'user-agent': ua }), [200, JSON.stringify(value, null, 2)], ua);
      }
      assert.ok((await body(obj, { 'user-agent': 'kubectl/v1.27.16' }))[1].endsWith('}\n'));
    });

    it('?pretty= decides when not empty (strconv.ParseBool), ;pretty=1 on the media type', async () => {
      const [, compact] = await body(obj, {});
      const pretty = JSON.stringify(JSON.parse(compact), null, 2);
      assert.equal((await body(`${obj}?pretty=true`, {}))[1], pretty);
      assert.equal((await body(`${obj}?pretty=1`, {}))[1], pretty);
      assert.equal((await body(`${obj}?pretty=false`, { 'user-agent': 'curl/8' }))[1], compact);
      assert.equal((await body(`${obj}?pretty=yes`, { 'user-agent': 'curl/8' }))[1], compact);
      assert.equal((await body(`${obj}?pretty=`, { 'user-agent': 'curl/8' }))[1], pretty);
      assert.equal((await body(obj, { accept: 'application/json;pretty=1' }))[1], pretty);
    });

    it('lists and Status errors too; YAML never', async () => {
      const [code, text] = await body(`${cms}/missing`, { 'user-agent': 'curl/8' });
      assert.equal(code, 404);
      assert.match(text, /^\{\n {2}"kind": "Status",\n {2}"apiVersion": "v1",\n/);
      assert.ok(text.endsWith('"code": 404\n}'));
      assert.match((await body(cms, { 'user-agent': 'curl/8' }))[1], /^\{\n {2}"kind": "ConfigMapList"/);
      assert.match(
        (await body(obj, { 'user-agent': 'curl/8', accept: 'application/yaml' }))[1],
        /^apiVersion: v1\n/,
      );
    });
  });
});
