/**
 * Authentication: service-account tokens end to end against a booted server.
 * TokenRequest issues bound JWTs (claims as kube-apiserver v1.27) that authenticate as the
 * service account (SelfSubjectReview, AM-10); expired, other-audience, tampered and
 * deleted-pod/deleted-SA tokens get 401 with upstream's Status; TokenReview reports why. The
 * serviceaccount-token controller fills legacy token Secrets, whose use is tracked (AM-19: the
 * `kubernetes.io/legacy-token-last-used` label, and upstream's warning for auto-generated ones).
 * Issuer discovery documents, and static tokens from --token-auth-file.
 */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CompactSign, decodeJwt, decodeProtectedHeader } from 'jose';
import type { AuditEvent } from '../../src/apiserver/filters/audit.js';
import { parseAuditPolicy } from '../../src/apiserver/audit/policy.js';
import { waitFor } from '../support/poll.js';
import { startTestServer } from '../support/server.js';
import type { TestResponse, TestServer } from '../support/server.js';

type Json = Record<string, unknown>;

const issuer = 'https://kubernetes.default.svc.cluster.local';
const unauthorized = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};
const ns = '/api/v1/namespaces/default';

function whoami(server: TestServer, token: string): Promise<TestResponse> {
  return server.request('POST', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', {
    credentials: 'none',
    headers: { authorization: `Bearer ${token}` },
    body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
  });
}

async function tokenReview(server: TestServer, token: string, audiences?: string[]): Promise<Json> {
  const r = await server.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token, ...(audiences !== undefined ? { audiences } : {}) },
    },
  });
  assert.equal(r.status, 201, r.text);
  return r.json()['status'] as Json;
}

async function requestToken(server: TestServer, sa: string, spec: Json = {}): Promise<TestResponse> {
  return server.request('POST', `${ns}/serviceaccounts/${sa}/token`, {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec },
  });
}

async function createServiceAccount(server: TestServer, name: string): Promise<Json> {
  const r = await server.request('POST', `${ns}/serviceaccounts`, {
    body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
  });
  assert.equal(r.status, 201, r.text);
  return r.json()['metadata'] as Json;
}

describe('service-account tokens', () => {
  let server: TestServer;
  let robotUID: string;
  const events: AuditEvent[] = [];

  before(async () => {
    server = await startTestServer({
      controllerSelection: 'serviceaccount-token',
      nodes: 0,
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
    robotUID = String((await createServiceAccount(server, 'robot'))['uid']);
  });
  after(() => server.stop());

  test('TokenRequest issues a bound token with upstream claims; it authenticates as the service account (AM-10)', async () => {
    const r = await requestToken(server, 'robot');
    assert.equal(r.status, 201, r.text);
    const body = r.json();
    assert.equal(body['kind'], 'TokenRequest');
    assert.deepEqual((body['metadata'] as Json)['name'], 'robot');
    const spec = body['spec'] as Json;
    assert.deepEqual(spec['audiences'], [issuer]);
    assert.equal(spec['expirationSeconds'], 3600);
    const status = body['status'] as { token: string; expirationTimestamp: string };
    const claims = decodeJwt(status.token);
    assert.equal(claims.iss, issuer);
    assert.equal(claims.sub, 'system:serviceaccount:default:robot');
    assert.deepEqual(claims.aud, [issuer]);
    assert.equal(claims.exp! - claims.iat!, 3600);
    assert.equal(claims.nbf, claims.iat);
    assert.deepEqual(claims['kubernetes.io'], {
      namespace: 'default',
      serviceaccount: { name: 'robot', uid: robotUID },
    });
    assert.equal(
      status.expirationTimestamp,
      new Date(claims.exp! * 1000).toISOString().replace('.000Z', 'Z'),
    );
    assert.equal(decodeProtectedHeader(status.token).alg, 'ES256');

    const me = await whoami(server, status.token);
    assert.equal(me.status, 201, me.text);
    assert.deepEqual((me.json()['status'] as Json)['userInfo'], {
      username: 'system:serviceaccount:default:robot',
      uid: robotUID,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    const review = await tokenReview(server, status.token);
    assert.equal(review['authenticated'], true);
    assert.deepEqual(review['audiences'], [issuer]);
    assert.equal((review['user'] as Json)['username'], 'system:serviceaccount:default:robot');
  });

  test('SelfSubjectReview returns the requester with impersonation applied (AM-10)', async () => {
    const r = await server.request('POST', '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews', {
      headers: { 'impersonate-user': 'system:serviceaccount:default:robot' },
      body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual((r.json()['status'] as Json)['userInfo'], {
      username: 'system:serviceaccount:default:robot',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
  });

  test('TokenRequest validation and errors as upstream', async () => {
    const short = await requestToken(server, 'robot', { expirationSeconds: 599 });
    assert.equal(short.status, 422);
    assert.equal(
      short.json()['message'],
      'TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes',
    );
    const long = await requestToken(server, 'robot', { expirationSeconds: 2 ** 32 + 1 });
    assert.equal(long.status, 422);
    assert.match(String(long.json()['message']), /may not specify a duration larger than 2\^32 seconds/);
    const missing = await requestToken(server, 'nobody');
    assert.equal(missing.status, 404);
    assert.equal(missing.json()['message'], 'serviceaccounts "nobody" not found');
    const noPod = await requestToken(server, 'robot', {
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'ghost' },
    });
    assert.equal(noPod.status, 404);
    assert.equal(noPod.json()['message'], 'pods "ghost" not found');
    const wrongKind = await requestToken(server, 'robot', {
      boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' },
    });
    assert.equal(wrongKind.status, 400);
    assert.equal(wrongKind.json()['message'], 'cannot bind token to object of type /v1, Kind=ConfigMap');
    const otherName = await server.request('POST', `${ns}/serviceaccounts/robot/token`, {
      body: {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        metadata: { name: 'other' },
        spec: {},
      },
    });
    assert.equal(otherName.status, 422);
    assert.equal(
      otherName.json()['message'],
      'TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified',
    );
  });

  test('a token for another audience gets 401; TokenReview for that audience accepts it', async () => {
    const r = await requestToken(server, 'robot', { audiences: ['vault'] });
    const token = (r.json()['status'] as Json)['token'] as string;
    const me = await whoami(server, token);
    assert.equal(me.status, 401);
    assert.deepEqual(me.json(), unauthorized);
    const forApi = await tokenReview(server, token);
    assert.deepEqual(forApi, {
      user: {},
      error: `[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["${issuer}"]]`,
    });
    const forVault = await tokenReview(server, token, ['vault', 'other']);
    assert.equal(forVault['authenticated'], true);
    assert.deepEqual(forVault['audiences'], ['vault']);
  });

  test('expired, not-yet-valid and tampered tokens get 401; TokenReview says why', async () => {
    const key = createPrivateKey(readFileSync(join(server.dataDir, 'pki', 'sa.key'), 'utf8'));
    const good = (await requestToken(server, 'robot')).json()['status'] as Json;
    const claims = decodeJwt(String(good['token']));
    const header = decodeProtectedHeader(String(good['token']));
    const sign = (changes: Json): Promise<string> =>
      new CompactSign(new TextEncoder().encode(JSON.stringify({ ...claims, ...changes })))
        .setProtectedHeader({ alg: 'ES256', kid: String(header.kid) })
        .sign(key);
    const now = Math.floor(Date.now() / 1000);
    // Past go-jose's one-minute leeway.
    const expired = await sign({ iat: now - 7200, nbf: now - 7200, exp: now - 120 });
    const early = await sign({ iat: now, nbf: now + 600, exp: now + 3600 });
    const parts = String(good['token']).split('.');
    const sig = parts[2]!;
    const tampered = `${parts[0]}.${parts[1]}.${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`;
    for (const token of [expired, early, tampered]) {
      const me = await whoami(server, token);
      assert.equal(me.status, 401);
      assert.deepEqual(me.json(), unauthorized);
    }
    assert.equal(
      (await tokenReview(server, expired))['error'],
      '[invalid bearer token, service account token has expired]',
    );
    assert.equal(
      (await tokenReview(server, early))['error'],
      '[invalid bearer token, service account token is not valid yet]',
    );
    assert.equal(
      (await tokenReview(server, tampered))['error'],
      '[invalid bearer token, square/go-jose: error in cryptographic primitive]',
    );
    // Within the leeway a just-expired token still passes, as upstream.
    const justExpired = await sign({ iat: now - 3600, nbf: now - 3600, exp: now - 5 });
    assert.equal((await whoami(server, justExpired)).status, 201);
  });

  test('a pod-bound token names the pod, and is refused once the pod is deleted', async () => {
    const pod = await server.request('POST', `${ns}/pods`, {
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'worker' },
        spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'busybox' }] },
      },
    });
    assert.equal(pod.status, 201, pod.text);
    const podUID = String((pod.json()['metadata'] as Json)['uid']);
    const wrongUID = await requestToken(server, 'robot', {
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker', uid: 'not-the-uid' },
    });
    assert.equal(wrongUID.status, 409);
    assert.equal(
      wrongUID.json()['message'],
      'Operation cannot be fulfilled on Pod "worker": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated',
    );
    const r = await requestToken(server, 'robot', {
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker', uid: podUID },
    });
    assert.equal(r.status, 201, r.text);
    const token = (r.json()['status'] as Json)['token'] as string;
    assert.deepEqual((decodeJwt(token)['kubernetes.io'] as Json)['pod'], { name: 'worker', uid: podUID });
    // The kubelet's 3607 s for the API audiences: a year's token, warned about after the hour.
    const extended = await requestToken(server, 'robot', {
      expirationSeconds: 3607,
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'worker' },
    });
    assert.equal(extended.status, 201, extended.text);
    const ext = decodeJwt(((extended.json()['status'] as Json)['token'] as string) ?? '');
    assert.equal(ext.exp! - ext.iat!, 365 * 24 * 3600);
    assert.equal((ext['kubernetes.io'] as Json)['warnafter'], ext.iat! + 3607);
    assert.equal(
      (extended.json()['status'] as Json)['expirationTimestamp'],
      new Date((ext.iat! + 3607) * 1000).toISOString().replace('.000Z', 'Z'),
    );

    const me = await whoami(server, token);
    assert.equal(me.status, 201, me.text);
    assert.deepEqual(((me.json()['status'] as Json)['userInfo'] as Json)['extra'], {
      'authentication.kubernetes.io/pod-name': ['worker'],
      'authentication.kubernetes.io/pod-uid': [podUID],
    });
    const del = await server.request('DELETE', `${ns}/pods/worker?gracePeriodSeconds=0`);
    assert.equal(del.status, 200, del.text);
    await waitFor('pod gone', async () => (await server.request('GET', `${ns}/pods/worker`)).status === 404);
    const after = await whoami(server, token);
    assert.equal(after.status, 401);
    assert.deepEqual(after.json(), unauthorized);
    assert.equal(
      (await tokenReview(server, token))['error'],
      '[invalid bearer token, service account token has been invalidated]',
    );
  });

  test('a deleted (or recreated) service account invalidates its tokens at once', async () => {
    const uid = String((await createServiceAccount(server, 'temp'))['uid']);
    const token = ((await requestToken(server, 'temp')).json()['status'] as Json)['token'] as string;
    assert.equal((await whoami(server, token)).status, 201);
    assert.equal((await server.request('DELETE', `${ns}/serviceaccounts/temp`)).status, 200);
    assert.equal((await whoami(server, token)).status, 401);
    assert.equal(
      (await tokenReview(server, token))['error'],
      '[invalid bearer token, serviceaccounts "temp" not found]',
    );
    const again = String((await createServiceAccount(server, 'temp'))['uid']);
    assert.equal((await whoami(server, token)).status, 401);
    assert.equal(
      (await tokenReview(server, token))['error'],
      `[invalid bearer token, service account UID (${again}) does not match claim (${uid})]`,
    );
  });

  test('legacy Secret-based tokens: filled by the serviceaccount-token controller, tracked and warned about (AM-19)', async () => {
    const created = await server.request('POST', `${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'robot-token', annotations: { 'kubernetes.io/service-account.name': 'robot' } },
        type: 'kubernetes.io/service-account-token',
      },
    });
    assert.equal(created.status, 201, created.text);
    const secret = await waitFor('the token controller fills the secret', async () => {
      const s = (await server.request('GET', `${ns}/secrets/robot-token`)).json();
      const data = s['data'] as Record<string, string> | undefined;
      return data?.['token'] !== undefined ? s : undefined;
    });
    const data = secret['data'] as Record<string, string>;
    assert.equal(Buffer.from(data['namespace']!, 'base64').toString(), 'default');
    assert.equal(Buffer.from(data['ca.crt']!, 'base64').toString(), server.pki.caCert);
    assert.equal(
      ((secret['metadata'] as Json)['annotations'] as Json)['kubernetes.io/service-account.uid'],
      robotUID,
    );
    const token = Buffer.from(data['token']!, 'base64').toString();
    assert.deepEqual(decodeJwt(token), {
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'default',
      'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot',
      'kubernetes.io/serviceaccount/service-account.uid': robotUID,
      sub: 'system:serviceaccount:default:robot',
    });
    // A manually created secret-based token: accepted, labelled, no warning.
    const me = await whoami(server, token);
    assert.equal(me.status, 201, me.text);
    assert.equal(
      ((me.json()['status'] as Json)['userInfo'] as Json)['username'],
      'system:serviceaccount:default:robot',
    );
    assert.deepEqual(me.warnings, []);
    // Audited as a legacy token use, as upstream.
    const auditID = String(me.headers['audit-id']);
    const event = await waitFor('the audit event', () => events.find((e) => e.auditID === auditID));
    assert.equal(
      event.annotations?.['authentication.k8s.io/legacy-token'],
      'system:serviceaccount:default:robot',
    );
    const today = new Date().toISOString().slice(0, 10);
    const labelled = (await server.request('GET', `${ns}/secrets/robot-token`)).json();
    assert.equal(
      ((labelled['metadata'] as Json)['labels'] as Json)['kubernetes.io/legacy-token-last-used'],
      today,
    );
    // Labelled at most once a day: a second use writes nothing.
    const rv = (labelled['metadata'] as Json)['resourceVersion'];
    assert.equal((await whoami(server, token)).status, 201);
    const again = (await server.request('GET', `${ns}/secrets/robot-token`)).json();
    assert.equal((again['metadata'] as Json)['resourceVersion'], rv);
    // Listed in the service account's secrets (as auto-generated ones were): upstream's warning.
    const patched = await server.request('PATCH', `${ns}/serviceaccounts/robot`, {
      contentType: 'application/merge-patch+json',
      body: { secrets: [{ name: 'robot-token' }] },
    });
    assert.equal(patched.status, 200, patched.text);
    const warned = await whoami(server, token);
    assert.equal(warned.status, 201);
    assert.deepEqual(warned.warnings, [
      'Use tokens from the TokenRequest API or manually created secret-based tokens instead of auto-generated secret-based tokens.',
    ]);
    // A token that no longer matches the Secret's is refused.
    const replaced = await server.request('PATCH', `${ns}/secrets/robot-token`, {
      contentType: 'application/merge-patch+json',
      body: { data: { token: Buffer.from('other').toString('base64') } },
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal((await whoami(server, token)).status, 401);
    assert.equal(
      (await tokenReview(server, token))['error'],
      "[invalid bearer token, Token does not match server's copy]",
    );
    // Deleting the Secret drops it from the service account's secrets (the controller's cleanup).
    assert.equal((await server.request('DELETE', `${ns}/secrets/robot-token`)).status, 200);
    await waitFor('the reference removed', async () => {
      const sa = (await server.request('GET', `${ns}/serviceaccounts/robot`)).json();
      return !JSON.stringify(sa['secrets'] ?? []).includes('robot-token');
    });
    assert.equal(
      (await tokenReview(server, token))['error'],
      '[invalid bearer token, Token has been invalidated]',
    );
  });

  test('the token Secret of a deleted service account is deleted by the controller', async () => {
    await createServiceAccount(server, 'short-lived');
    const created = await server.request('POST', `${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'short-lived-token',
          annotations: { 'kubernetes.io/service-account.name': 'short-lived' },
        },
        type: 'kubernetes.io/service-account-token',
      },
    });
    assert.equal(created.status, 201, created.text);
    await waitFor('filled', async () => {
      const s = (await server.request('GET', `${ns}/secrets/short-lived-token`)).json();
      return (s['data'] as Json | undefined)?.['token'] !== undefined;
    });
    assert.equal((await server.request('DELETE', `${ns}/serviceaccounts/short-lived`)).status, 200);
    await waitFor(
      'the token secret deleted',
      async () => (await server.request('GET', `${ns}/secrets/short-lived-token`)).status === 404,
    );
  });

  test('issuer discovery: the OpenID configuration and the JWKS, with upstream content types and caching', async () => {
    const config = await server.request('GET', '/.well-known/openid-configuration');
    assert.equal(config.status, 200, config.text);
    assert.equal(config.headers['content-type'], 'application/json');
    assert.equal(config.headers['cache-control'], 'public, max-age=3600');
    assert.equal(
      config.text,
      JSON.stringify({
        issuer,
        jwks_uri: `https://127.0.0.1:${server.port}/openid/v1/jwks`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
      }),
    );
    const jwks = await server.request('GET', '/openid/v1/jwks');
    assert.equal(jwks.status, 200);
    assert.equal(jwks.headers['content-type'], 'application/jwk-set+json');
    assert.equal(jwks.headers['cache-control'], 'public, max-age=3600');
    const keys = jwks.json()['keys'] as Json[];
    const token = ((await requestToken(server, 'robot')).json()['status'] as Json)['token'] as string;
    const kid = decodeProtectedHeader(token).kid;
    assert.deepEqual(Object.keys(keys[0]!), ['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    assert.equal(keys[0]!['kid'], kid);
    assert.equal(keys[0]!['alg'], 'ES256');
    // Through the normal chain: without credentials 401, with a service-account token allowed.
    assert.equal((await server.request('GET', '/openid/v1/jwks', { credentials: 'none' })).status, 401);
    const asSA = await server.request('GET', '/.well-known/openid-configuration', {
      credentials: 'none',
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(asSA.status, 200);
    const root = await server.request('GET', '/');
    assert.ok((root.json()['paths'] as string[]).includes('/.well-known/openid-configuration'));
  });
});

describe('issuer, audiences and maximum expiry flags; LegacyServiceAccountTokenTracking off (AM-19)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({
      controllerSelection: 'serviceaccount-token',
      nodes: 0,
      featureGates: { LegacyServiceAccountTokenTracking: false },
      serviceAccountTokens: {
        issuers: ['https://issuer.example', 'https://old-issuer.example'],
        apiAudiences: ['api'],
        maxTokenExpirationSeconds: 7200,
      },
    });
    await createServiceAccount(server, 'robot');
  });
  after(() => server.stop());

  test('tokens carry the first issuer and the API audiences; a longer expiry is shortened with upstream warning', async () => {
    const r = await requestToken(server, 'robot', { expirationSeconds: 86400 });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.warnings, ['requested expiration of 86400 seconds shortened to 7200 seconds']);
    assert.equal((r.json()['spec'] as Json)['expirationSeconds'], 7200);
    const token = (r.json()['status'] as Json)['token'] as string;
    const claims = decodeJwt(token);
    assert.equal(claims.iss, 'https://issuer.example');
    assert.deepEqual(claims.aud, ['api']);
    assert.equal(claims.exp! - claims.iat!, 7200);
    assert.equal((await whoami(server, token)).status, 201);
    const config = JSON.parse(
      (await server.request('GET', '/.well-known/openid-configuration')).text,
    ) as Json;
    assert.equal(config['issuer'], 'https://issuer.example');
    // A token of the older issuer (signed with the same key) is still accepted.
    const key = createPrivateKey(readFileSync(join(server.dataDir, 'pki', 'sa.key'), 'utf8'));
    const old = await new CompactSign(
      new TextEncoder().encode(JSON.stringify({ ...claims, iss: 'https://old-issuer.example' })),
    )
      .setProtectedHeader({ alg: 'ES256', kid: String(decodeProtectedHeader(token).kid) })
      .sign(key);
    assert.equal((await whoami(server, old)).status, 201);
    const unknown = await new CompactSign(
      new TextEncoder().encode(
        JSON.stringify({ ...claims, iss: 'https://kubernetes.default.svc.cluster.local' }),
      ),
    )
      .setProtectedHeader({ alg: 'ES256', kid: String(decodeProtectedHeader(token).kid) })
      .sign(key);
    assert.equal((await whoami(server, unknown)).status, 401);
    assert.equal((await tokenReview(server, unknown))['error'], 'invalid bearer token');
  });

  test('with LegacyServiceAccountTokenTracking off a legacy token is accepted but neither labelled nor warned about', async () => {
    const created = await server.request('POST', `${ns}/secrets`, {
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'robot-token', annotations: { 'kubernetes.io/service-account.name': 'robot' } },
        type: 'kubernetes.io/service-account-token',
      },
    });
    assert.equal(created.status, 201, created.text);
    const patched = await server.request('PATCH', `${ns}/serviceaccounts/robot`, {
      contentType: 'application/merge-patch+json',
      body: { secrets: [{ name: 'robot-token' }] },
    });
    assert.equal(patched.status, 200, patched.text);
    const token = await waitFor('filled', async () => {
      const d = (await server.request('GET', `${ns}/secrets/robot-token`)).json()['data'] as Json | undefined;
      return typeof d?.['token'] === 'string' ? Buffer.from(d['token'], 'base64').toString() : undefined;
    });
    const me = await whoami(server, token);
    assert.equal(me.status, 201, me.text);
    assert.deepEqual(me.warnings, []);
    const secret = (await server.request('GET', `${ns}/secrets/robot-token`)).json();
    assert.equal(
      ((secret['metadata'] as Json)['labels'] as Json | undefined)?.['kubernetes.io/legacy-token-last-used'],
      undefined,
    );
  });
});

describe('--token-auth-file users', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nanokube-tokens-'));
    const file = join(dir, 'tokens.csv');
    writeFileSync(file, 'secret-token-1,alice,alice-uid,"dev,qa"\nsecret-token-2,bob,bob-uid\n');
    server = await startTestServer({ controllers: false, tokenAuthFile: file });
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a token from the file is its user with its groups; an unknown one gets 401', async () => {
    const me = await whoami(server, 'secret-token-1');
    assert.equal(me.status, 201, me.text);
    assert.deepEqual((me.json()['status'] as Json)['userInfo'], {
      username: 'alice',
      uid: 'alice-uid',
      groups: ['dev', 'qa', 'system:authenticated'],
    });
    const bob = await whoami(server, 'secret-token-2');
    assert.deepEqual(((bob.json()['status'] as Json)['userInfo'] as Json)['groups'], [
      'system:authenticated',
    ]);
    const unknown = await whoami(server, 'secret-token-3');
    assert.equal(unknown.status, 401);
    assert.deepEqual(unknown.json(), unauthorized);
    // Basic credentials are refused, never taken as anonymous.
    const basic = await server.request('GET', '/version', {
      credentials: 'none',
      headers: { authorization: `Basic ${Buffer.from('alice:pw').toString('base64')}` },
    });
    assert.equal(basic.status, 401);
    // Static tokens have no audience of their own: they count for the API audiences only.
    const review = await tokenReview(server, 'secret-token-1', ['vault', issuer]);
    assert.equal(review['authenticated'], true);
    assert.deepEqual(review['audiences'], [issuer]);
    assert.deepEqual(await tokenReview(server, 'secret-token-1', ['vault']), {
      user: {},
      error: 'invalid bearer token',
    });
  });
});
