import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../machinery/errors.js';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import { attrsOf } from '../testing/fake-admission-deps.js';
import { admissionResponse } from '../testing/webhook-server.js';
import { applyWebhookPatch } from './patch.js';
import {
  WebhookCallError,
  createAdmissionReview,
  decodeAdmissionReview,
  dryRunUnsupportedError,
  goBase64Decode,
  readAdmissionResponse,
  verifyAdmissionResponse,
  webhookCallError,
  webhookDenial,
} from './review.js';
import type { AdmissionReviewInput, AdmissionReviewVersion, AdmissionTarget } from './review.js';

const pod = (name = 'p'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', labels: { a: '1' } },
  spec: { containers: [{ name: 'c', image: 'i' }] },
});

const podTarget: AdmissionTarget = {
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  subResource: '',
};

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    ...attrsOf({ resource: 'pods', kind: 'Pod', namespace: 'ns', name: 'p', object: pod() }),
    user: {
      name: 'alice',
      uid: 'u-1',
      groups: ['g1', 'system:authenticated'],
      extra: { scopes: ['a', 'b'] },
    },
    ...over,
  };
}

function input(over: Partial<AdmissionReviewInput> = {}): AdmissionReviewInput {
  return {
    admissionReviewVersions: ['v1'],
    attributes: attrs(),
    matched: podTarget,
    request: podTarget,
    uid: 'uid-1',
    ...over,
  };
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');

/** A decoded answer for `uid` with a response built from `response`. */
function answer(version: AdmissionReviewVersion, response: JsonObject, top: JsonObject = {}): unknown {
  return { apiVersion: `admission.k8s.io/${version}`, kind: 'AdmissionReview', response, ...top };
}

function verify(
  version: AdmissionReviewVersion,
  body: unknown,
  mutating = false,
  uid = 'uid-1',
): ReturnType<typeof verifyAdmissionResponse> {
  return verifyAdmissionResponse(uid, mutating, decodeAdmissionReview(version, body));
}

describe('createAdmissionReview', () => {
  it('builds a v1 review in Go field order with userInfo, objects, dryRun and default options', () => {
    const call = createAdmissionReview(input());
    assert.equal(call.uid, 'uid-1');
    assert.equal(call.version, 'v1');
    assert.deepEqual(call.review, {
      kind: 'AdmissionReview',
      apiVersion: 'admission.k8s.io/v1',
      request: {
        uid: 'uid-1',
        kind: { group: '', version: 'v1', kind: 'Pod' },
        resource: { group: '', version: 'v1', resource: 'pods' },
        requestKind: { group: '', version: 'v1', kind: 'Pod' },
        requestResource: { group: '', version: 'v1', resource: 'pods' },
        name: 'p',
        namespace: 'ns',
        operation: 'CREATE',
        userInfo: {
          username: 'alice',
          uid: 'u-1',
          groups: ['g1', 'system:authenticated'],
          extra: { scopes: ['a', 'b'] },
        },
        object: pod(),
        oldObject: null,
        dryRun: false,
        options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      },
    });
    const request = call.review['request'] as JsonObject;
    assert.deepEqual(Object.keys(request), [
      'uid',
      'kind',
      'resource',
      'requestKind',
      'requestResource',
      'name',
      'namespace',
      'operation',
      'userInfo',
      'object',
      'oldObject',
      'dryRun',
      'options',
    ]);
  });

  it('picks the first known version of the webhook, v1beta1 included', () => {
    const call = createAdmissionReview(input({ admissionReviewVersions: ['v2', 'v1beta1', 'v1'] }));
    assert.equal(call.version, 'v1beta1');
    assert.equal(call.review['apiVersion'], 'admission.k8s.io/v1beta1');
    assert.equal(call.review['kind'], 'AdmissionReview');
  });

  it('refuses a webhook that accepts no known version with upstream text', () => {
    assert.throws(() => createAdmissionReview(input({ admissionReviewVersions: ['v2'] })), {
      message: 'webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    });
    assert.throws(() => createAdmissionReview(input({ admissionReviewVersions: [] })), {
      message: 'webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    });
  });

  it('makes a fresh uid per call when none is given', () => {
    const rest: AdmissionReviewInput = { ...input() };
    delete (rest as { uid?: string }).uid;
    const a = createAdmissionReview(rest);
    const b = createAdmissionReview(rest);
    assert.match(a.uid, /^[0-9a-f-]{36}$/);
    assert.notEqual(a.uid, b.uid);
    assert.equal((a.review['request'] as JsonObject)['uid'], a.uid);
  });

  it('sends the matched and the request kinds separately, with subresources', () => {
    const matched: AdmissionTarget = {
      kind: { group: 'apps', version: 'v1beta1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1beta1', resource: 'deployments' },
      subResource: 'scale',
    };
    const request: AdmissionTarget = {
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale',
    };
    const call = createAdmissionReview(
      input({ matched, request, object: { apiVersion: 'x', kind: 'Scale' } }),
    );
    const r = call.review['request'] as JsonObject;
    assert.deepEqual(r['kind'], { group: 'apps', version: 'v1beta1', kind: 'Scale' });
    assert.deepEqual(r['resource'], { group: 'apps', version: 'v1beta1', resource: 'deployments' });
    assert.equal(r['subResource'], 'scale');
    assert.deepEqual(r['requestKind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.deepEqual(r['requestResource'], { group: 'apps', version: 'v1', resource: 'deployments' });
    assert.equal(r['requestSubResource'], 'scale');
    assert.deepEqual(r['object'], { apiVersion: 'x', kind: 'Scale' });
  });

  it('fills options per operation, with dryRun ["All"] on a dry run', () => {
    const opts = (a: Partial<AdmissionAttributes>, o: Partial<AdmissionReviewInput> = {}) =>
      (createAdmissionReview(input({ attributes: attrs(a), ...o })).review['request'] as JsonObject)[
        'options'
      ];
    assert.deepEqual(opts({ operation: 'UPDATE', oldObject: pod() }), {
      kind: 'UpdateOptions',
      apiVersion: 'meta.k8s.io/v1',
    });
    assert.deepEqual(opts({ operation: 'DELETE', dryRun: true }), {
      kind: 'DeleteOptions',
      apiVersion: 'meta.k8s.io/v1',
      dryRun: ['All'],
    });
    assert.deepEqual(opts({ dryRun: true }), {
      kind: 'CreateOptions',
      apiVersion: 'meta.k8s.io/v1',
      dryRun: ['All'],
    });
    assert.equal(opts({ operation: 'CONNECT' }), null);
    const given = { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl' };
    assert.deepEqual(opts({}, { options: given }), given);
    assert.deepEqual(opts({ dryRun: true }, { options: given }), { ...given, dryRun: ['All'] });
    assert.equal(opts({}, { options: null }), null);
    const exec = { kind: 'PodExecOptions', apiVersion: 'v1', command: ['ls'] };
    assert.deepEqual(opts({ operation: 'CONNECT' }, { options: exec }), exec);
  });

  it('sends the old object, the dry run flag, and null objects when asked', () => {
    const old = pod('old');
    const call = createAdmissionReview(
      input({ attributes: attrs({ operation: 'DELETE', oldObject: old, dryRun: true }), object: null }),
    );
    const r = call.review['request'] as JsonObject;
    assert.equal(r['object'], null);
    assert.deepEqual(r['oldObject'], old);
    assert.equal(r['dryRun'], true);
    assert.equal(r['operation'], 'DELETE');
  });

  it('omits empty user fields, names and namespaces as Go does', () => {
    const call = createAdmissionReview(
      input({
        attributes: {
          ...attrs({ name: '', namespace: '' }),
          user: { name: 'bob', uid: '', groups: [], extra: {} },
        },
      }),
    );
    const r = call.review['request'] as JsonObject;
    assert.deepEqual(r['userInfo'], { username: 'bob' });
    assert.equal('name' in r, false);
    assert.equal('namespace' in r, false);
    assert.equal('subResource' in r, false);
    assert.equal('requestSubResource' in r, false);
  });
});

describe('verifyAdmissionResponse (v1)', () => {
  it('takes an allowed answer with warnings and audit annotations', () => {
    const r = verify(
      'v1',
      answer('v1', { uid: 'uid-1', allowed: true, warnings: ['w1'], auditAnnotations: { k: 'v' } }),
    );
    assert.deepEqual(r, {
      allowed: true,
      patch: undefined,
      patchType: '',
      result: undefined,
      warnings: ['w1'],
      auditAnnotations: { k: 'v' },
    });
  });

  it('takes a denial with its status', () => {
    const status = { status: 'Failure', message: 'Foo', code: 401 };
    const r = verify('v1', answer('v1', { uid: 'uid-1', allowed: false, status }));
    assert.equal(r.allowed, false);
    assert.deepEqual(r.result, status);
  });

  it('takes a mutating patch with its type', () => {
    const patch = '[{"op":"add","path":"/foo","value":"bar"}]';
    const r = verify(
      'v1',
      answer('v1', { uid: 'uid-1', allowed: true, patch: b64(patch), patchType: 'JSONPatch' }),
      true,
    );
    assert.equal(r.patch?.toString(), patch);
    assert.equal(r.patchType, 'JSONPatch');
    // Another type passes here; the mutating dispatcher refuses it when applying.
    const foo = verify(
      'v1',
      answer('v1', { uid: 'uid-1', allowed: true, patch: b64(patch), patchType: 'Foo' }),
      true,
    );
    assert.equal(foo.patchType, 'Foo');
  });

  const cases: [string, JsonObject, boolean, string][] = [
    [
      'no response',
      { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' },
      false,
      'webhook response was absent',
    ],
    [
      'null response',
      { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: null },
      false,
      'webhook response was absent',
    ],
    [
      'wrong uid',
      answer('v1', { uid: '1234', allowed: true }) as JsonObject,
      false,
      'expected response.uid="uid-1", got "1234"',
    ],
    [
      'missing uid',
      answer('v1', { allowed: true }) as JsonObject,
      false,
      'expected response.uid="uid-1", got ""',
    ],
    [
      'no apiVersion and kind',
      { response: { uid: 'uid-1', allowed: true } },
      false,
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=',
    ],
    [
      'no kind',
      { apiVersion: 'admission.k8s.io/v1', response: { uid: 'uid-1', allowed: true } },
      false,
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=',
    ],
    [
      'no apiVersion',
      { kind: 'AdmissionReview', response: { uid: 'uid-1', allowed: true } },
      false,
      'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=AdmissionReview',
    ],
    [
      'patch without type',
      answer('v1', { uid: 'uid-1', allowed: true, patch: b64('[]') }) as JsonObject,
      true,
      'webhook returned response.patch but not response.patchType',
    ],
    [
      'type without patch',
      answer('v1', { uid: 'uid-1', allowed: true, patchType: 'JSONPatch' }) as JsonObject,
      true,
      'webhook returned response.patchType but not response.patch',
    ],
    [
      'empty patch type',
      answer('v1', { uid: 'uid-1', allowed: true, patch: b64('[]'), patchType: '' }) as JsonObject,
      true,
      'webhook returned invalid response.patchType of ""',
    ],
    [
      'patch from a validating webhook',
      answer('v1', { uid: 'uid-1', allowed: true, patch: b64('[]') }) as JsonObject,
      false,
      'validating webhook may not return response.patch',
    ],
    [
      'patch type from a validating webhook',
      answer('v1', { uid: 'uid-1', allowed: true, patchType: 'Foo' }) as JsonObject,
      false,
      'validating webhook may not return response.patchType',
    ],
  ];
  for (const [name, body, mutating, message] of cases) {
    it(`refuses ${name}`, () => {
      assert.throws(() => verify('v1', body, mutating), { message });
    });
  }

  it('checks the uid before apiVersion and kind, as upstream', () => {
    assert.throws(() => verify('v1', { response: { uid: 'x', allowed: true } }), {
      message: 'expected response.uid="uid-1", got "x"',
    });
  });
});

describe('verifyAdmissionResponse (v1beta1)', () => {
  it('takes any uid, and a patch as a JSONPatch whatever its type', () => {
    const patch = '[{"op":"add","path":"/foo","value":"bar"}]';
    const r = verify('v1beta1', answer('v1beta1', { uid: 'other', allowed: true, patch: b64(patch) }), true);
    assert.equal(r.patch?.toString(), patch);
    assert.equal(r.patchType, 'JSONPatch');
  });

  it('ignores a validating webhook patch and an empty patch', () => {
    const r = verify(
      'v1beta1',
      answer('v1beta1', { allowed: true, patch: b64('[]'), patchType: 'Foo' }),
      false,
    );
    assert.equal(r.patch, undefined);
    assert.equal(r.patchType, '');
    const empty = verify('v1beta1', answer('v1beta1', { allowed: true, patch: '' }), true);
    assert.equal(empty.patch, undefined);
    assert.equal(empty.patchType, '');
  });

  it('takes a denial and refuses an absent response', () => {
    assert.equal(verify('v1beta1', answer('v1beta1', { allowed: false })).allowed, false);
    assert.throws(
      () => verify('v1beta1', { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview' }),
      {
        message: 'webhook response was absent',
      },
    );
  });

  it('takes an answer without apiVersion or kind', () => {
    assert.equal(verify('v1beta1', { response: { allowed: true } }).allowed, true);
  });
});

describe('decodeAdmissionReview', () => {
  const decodeError = (version: AdmissionReviewVersion, body: unknown): string => {
    try {
      decodeAdmissionReview(version, body);
    } catch (err) {
      return (err as Error).message;
    }
    return 'no error';
  };

  it('refuses an answer of another kind or version as the webhook client does', () => {
    assert.equal(
      decodeError('v1', { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: {} }),
      'converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion',
    );
    assert.equal(
      decodeError('v1beta1', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }),
      'converting (v1.AdmissionReview) to (v1beta1.AdmissionReview): unknown conversion',
    );
    assert.equal(
      decodeError('v1', { apiVersion: 'v1', kind: 'Status', status: 'Failure' }),
      'converting (v1.Status) to (v1.AdmissionReview): unknown conversion',
    );
    assert.equal(
      decodeError('v1', { apiVersion: 'admission.k8s.io/v2', kind: 'AdmissionReview' }),
      'no kind "AdmissionReview" is registered for version "admission.k8s.io/v2" in scheme "pkg/util/webhook/client.go:69"',
    );
    assert.equal(
      decodeError('v1', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview2' }),
      'no kind "AdmissionReview2" is registered for version "admission.k8s.io/v1" in scheme "pkg/util/webhook/client.go:69"',
    );
    assert.equal(
      decodeError('v1', { kind: 'Status' }),
      'no kind "Status" is registered for version "admission.k8s.io/v1" in scheme "pkg/util/webhook/client.go:69"',
    );
    assert.equal(decodeError('v1', { apiVersion: 'a/b/c' }), 'unexpected GroupVersion string: a/b/c');
    assert.equal(
      decodeError('v1', { apiVersion: 'foo/', kind: 'X' }),
      `Object 'apiVersion' is missing in '{"apiVersion":"foo/","kind":"X"}'`,
    );
  });

  it('refuses what is not an object, and a non-string apiVersion', () => {
    assert.equal(
      decodeError('v1', []),
      `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
    assert.match(decodeError('v1', 'x'), /cannot unmarshal string into Go value of type struct/);
    assert.equal(
      decodeError('v1', { apiVersion: 1 }),
      "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string",
    );
  });

  it('reports Go type errors with their field paths', () => {
    const v1 = (response: JsonObject): string => decodeError('v1', answer('v1', response));
    assert.equal(
      decodeError('v1', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: 'x' }),
      'json: cannot unmarshal string into Go struct field AdmissionReview.response of type v1.AdmissionResponse',
    );
    assert.equal(
      v1({ uid: 'uid-1', allowed: 'yes' }),
      'json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool',
    );
    assert.equal(
      v1({ uid: 5 }),
      'json: cannot unmarshal number into Go struct field AdmissionResponse.response.uid of type types.UID',
    );
    assert.equal(
      v1({ status: { code: 'x' } }),
      'json: cannot unmarshal string into Go struct field Status.response.status.code of type int32',
    );
    assert.equal(
      v1({ status: { code: 1.5 } }),
      'json: cannot unmarshal number 1.5 into Go struct field Status.response.status.code of type int32',
    );
    assert.equal(
      v1({ status: { details: { causes: [{ field: 1 }] } } }),
      'json: cannot unmarshal number into Go struct field StatusCause.response.status.details.causes.field of type string',
    );
    assert.equal(
      v1({ warnings: 'w' }),
      'json: cannot unmarshal string into Go struct field AdmissionResponse.response.warnings of type []string',
    );
    assert.equal(
      v1({ auditAnnotations: { a: 1 } }),
      'json: cannot unmarshal number into Go struct field AdmissionResponse.response.auditAnnotations of type string',
    );
    assert.equal(
      v1({ patchType: 1 }),
      'json: cannot unmarshal number into Go struct field AdmissionResponse.response.patchType of type v1.PatchType',
    );
    assert.equal(
      decodeError('v1beta1', answer('v1beta1', { patchType: true })),
      'json: cannot unmarshal bool into Go struct field AdmissionResponse.response.patchType of type v1beta1.PatchType',
    );
    assert.equal(
      v1({ patch: {} }),
      'json: cannot unmarshal object into Go struct field AdmissionResponse.response.patch of type []uint8',
    );
    assert.equal(v1({ patch: 'a!==' }), 'illegal base64 data at input byte 1');
    // Field names are case-sensitive and unknown ones ignored; null leaves the zero value.
    assert.equal(v1({ Allowed: 'x', allowed: null, uid: null, extra: 1 }), 'no error');
  });

  it('decodes a patch given as an array of bytes, as Go does for []byte', () => {
    const r = verify(
      'v1',
      answer('v1', { uid: 'uid-1', allowed: true, patch: [91, 93], patchType: 'JSONPatch' }),
      true,
    );
    assert.equal(r.patch?.toString(), '[]');
  });
});

describe('goBase64Decode', () => {
  it('decodes standard padded base64, skipping newlines', () => {
    assert.equal(goBase64Decode('aGVsbG8=').toString(), 'hello');
    assert.equal(goBase64Decode('aGVs\r\nbG8h').toString(), 'hell' + 'o!');
    assert.equal(goBase64Decode('').length, 0);
  });

  it('reports the byte Go reports', () => {
    const at = (s: string): string => {
      try {
        goBase64Decode(s);
        return 'ok';
      } catch (err) {
        return (err as Error).message;
      }
    };
    assert.equal(at('aGVsbG8'), 'illegal base64 data at input byte 4');
    assert.equal(at('a'), 'illegal base64 data at input byte 0');
    assert.equal(at('aGVsbG8=x'), 'illegal base64 data at input byte 8');
    assert.equal(at('aG=='), 'ok');
    assert.equal(at('a==='), 'illegal base64 data at input byte 1');
    assert.equal(at('aG='), 'illegal base64 data at input byte 3');
    assert.equal(at('aG=x'), 'illegal base64 data at input byte 2');
    assert.equal(at('aGVsbG8-'), 'illegal base64 data at input byte 7');
  });
});

describe('readAdmissionResponse and the call errors', () => {
  const call = createAdmissionReview(input());

  it('passes a good answer through', () => {
    const review = call.review;
    const r = readAdmissionResponse(
      'hook.example.com',
      call,
      false,
      admissionResponse(review, { warnings: ['w'] }),
    );
    assert.equal(r.allowed, true);
    assert.deepEqual(r.warnings, ['w']);
  });

  it('wraps verification failures as 503 invalid responses', () => {
    const err = (() => {
      try {
        readAdmissionResponse(
          'hook.example.com',
          call,
          false,
          admissionResponse(call.review, { response: { uid: 'x' } }),
        );
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(err instanceof WebhookCallError);
    assert.equal(
      err.message,
      'failed calling webhook "hook.example.com": received invalid webhook response: expected response.uid="uid-1", got "x"',
    );
    assert.equal(err.status.code, 503);
    assert.equal(err.status.message, 'error validating webhook response');
  });

  it('wraps decoding failures as failures to call the webhook', () => {
    assert.throws(
      () =>
        readAdmissionResponse('h', call, false, {
          apiVersion: 'admission.k8s.io/v1beta1',
          kind: 'AdmissionReview',
        }),
      (e: unknown) =>
        e instanceof WebhookCallError &&
        e.message ===
          'failed calling webhook "h": failed to call webhook: converting (v1beta1.AdmissionReview) to (v1.AdmissionReview): unknown conversion' &&
        e.status.code === 400 &&
        e.status.message === 'error calling webhook',
    );
  });

  it('words each stage as the dispatchers do', () => {
    const create = webhookCallError(
      'h',
      'create',
      new Error('webhook does not accept known AdmissionReview versions (v1, v1beta1)'),
    );
    assert.equal(
      create.message,
      'failed calling webhook "h": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
    assert.equal(create.status.code, 400);
    assert.equal(create.status.message, 'error creating admission objects');
    const timeout = webhookCallError(
      'h',
      'call',
      new Error('Post "https://x/?timeout=10s": context deadline exceeded'),
    );
    assert.equal(
      timeout.message,
      'failed calling webhook "h": failed to call webhook: Post "https://x/?timeout=10s": context deadline exceeded',
    );
    assert.equal(timeout.status.code, 400);
    const status = new StatusError(
      500,
      'InternalError',
      'an error on the server ("boom") has prevented the request from succeeding',
    );
    const fromStatus = webhookCallError('h', 'call', status);
    assert.equal(fromStatus.status, status);
    assert.equal(
      fromStatus.message,
      'failed calling webhook "h": failed to call webhook: an error on the server ("boom") has prevented the request from succeeding',
    );
    const client = webhookCallError(
      'h',
      'call',
      Object.assign(new Error('unable to load root certificates: unable to parse bytes as PEM block'), {
        phase: 'client',
      }),
    );
    assert.equal(
      client.message,
      'failed calling webhook "h": could not get REST client: unable to load root certificates: unable to parse bytes as PEM block',
    );
    assert.equal(client.status.message, 'error getting REST client');
    assert.equal(
      new WebhookCallError('h', undefined, status).message,
      'failed calling webhook "h"; no further details available',
    );
  });

  it('turns denials into the webhook status (ToStatusErr)', () => {
    const denied = webhookDenial('deny.example.com', undefined);
    assert.equal(denied.code, 400);
    assert.equal(
      denied.message,
      'admission webhook "deny.example.com" denied the request without explanation',
    );
    assert.equal(denied.status.status, 'Failure');
    const withMessage = webhookDenial('d', {
      status: 'Success',
      code: 403,
      message: 'you shall not pass',
      reason: 'Forbidden',
    });
    assert.equal(withMessage.code, 403);
    assert.equal(withMessage.reason, 'Forbidden');
    assert.equal(withMessage.message, 'admission webhook "d" denied the request: you shall not pass');
    assert.equal(withMessage.status.status, 'Failure');
    const withReason = webhookDenial('d', {
      code: 200,
      reason: 'NoWay',
      details: { name: 'p', causes: [{ message: 'm' }] },
    });
    assert.equal(withReason.code, 400);
    assert.equal(withReason.message, 'admission webhook "d" denied the request: NoWay');
    assert.deepEqual(withReason.status.details, { name: 'p', causes: [{ message: 'm' }] });
  });

  it('refuses dry runs with upstream text', () => {
    const err = dryRunUnsupportedError('side.example.com');
    assert.equal(err.code, 400);
    assert.equal(err.message, 'admission webhook "side.example.com" does not support dry run');
  });
});

describe('applyWebhookPatch', () => {
  const response = (patch: string, patchType = 'JSONPatch') =>
    verify('v1', answer('v1', { uid: 'uid-1', allowed: true, patch: b64(patch), patchType }), true);

  it('patches a copy and says whether anything changed', () => {
    const obj = pod();
    const r = applyWebhookPatch('h', obj, response('[{"op":"add","path":"/metadata/labels/b","value":"2"}]'));
    assert.deepEqual(r?.object['metadata'], { name: 'p', namespace: 'ns', labels: { a: '1', b: '2' } });
    assert.equal(r?.changed, true);
    assert.deepEqual(obj.metadata.labels, { a: '1' });
    const same = applyWebhookPatch(
      'h',
      obj,
      response('[{"op":"replace","path":"/metadata/labels/a","value":"1"}]'),
    );
    assert.equal(same?.changed, false);
  });

  it('does nothing without a patch or with an empty one', () => {
    const none = verify('v1', answer('v1', { uid: 'uid-1', allowed: true }), true);
    assert.equal(applyWebhookPatch('h', pod(), none), undefined);
    assert.equal(applyWebhookPatch('h', pod(), response('[]')), undefined);
    assert.equal(applyWebhookPatch('h', undefined, response('null')), undefined);
  });

  it('fails as upstream for bad patches, missing objects and other patch types', () => {
    const status = (f: () => unknown): { code: number; message: string } => {
      try {
        f();
      } catch (err) {
        if (err instanceof StatusError) return { code: err.code, message: err.message };
        if (err instanceof WebhookCallError) return { code: err.status.code, message: err.message };
        throw err;
      }
      return { code: 0, message: 'no error' };
    };
    assert.deepEqual(
      status(() => applyWebhookPatch('h', pod(), response('[{"op":'))),
      { code: 500, message: 'Internal error occurred: unexpected end of JSON input' },
    );
    assert.deepEqual(
      status(() => applyWebhookPatch('h', pod(), response('x'))),
      { code: 500, message: "Internal error occurred: invalid character 'x' looking for beginning of value" },
    );
    assert.deepEqual(
      status(() => applyWebhookPatch('h', pod(), response('{}'))),
      {
        code: 500,
        message:
          'Internal error occurred: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      },
    );
    assert.deepEqual(
      status(() => applyWebhookPatch('h', undefined, response('[{"op":"remove","path":"/a"}]'))),
      {
        code: 500,
        message:
          'Internal error occurred: admission webhook "h" attempted to modify the object, which is not supported for this operation',
      },
    );
    assert.deepEqual(
      status(() => applyWebhookPatch('h', pod(), response('[{"op":"remove","path":"/nope"}]'))),
      {
        code: 500,
        message:
          "Internal error occurred: error in remove for path: '/nope': Unable to remove nonexistent key: nope: missing value",
      },
    );
    const other = status(() =>
      applyWebhookPatch('h', pod(), response('[{"op":"remove","path":"/spec"}]', 'Foo')),
    );
    assert.deepEqual(other, {
      code: 400,
      message: 'failed calling webhook "h": unsupported patch type "Foo"',
    });
  });

  it('applies patches longer than the PATCH verb allows', () => {
    const ops = Array.from({ length: 10_001 }, (_, i) => ({
      op: 'add',
      path: `/metadata/labels/l${i}`,
      value: 'x',
    }));
    const r = applyWebhookPatch('h', pod(), response(JSON.stringify(ops)));
    assert.equal(Object.keys((r?.object['metadata'] as JsonObject)['labels'] as JsonObject).length, 10_002);
  });
});
