/**
 * The authentication and authorization abuse table: attempts to act as someone else, to use
 * credentials that no longer stand for anything (tokens of deleted service accounts, pods and
 * secrets, expired or foreign certificates, forged JWTs), to grant oneself RBAC permissions, and to
 * read Secret data out of the audit log, each with the refusal kube-apiserver v1.27 gives (status,
 * reason, message). A few allowed attempts stand beside them as controls, so a refusal is known
 * to come from the abuse and not from a broken setup. One server runs the whole table;
 * docs/reliability-auth.md shows the same rows (a test below keeps the two in step).
 */
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CompactSign, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import type { CryptoKey } from 'jose';
import { clientCert, newCa } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { waitFor } from '../support/poll.js';
import { bind, createRole, user, waitForAccess } from '../support/rbac.js';
import type { Rule } from '../support/rbac.js';
import { startTestServer } from '../support/server.js';
import type { RequestOptions, TestResponse, TestServer } from '../support/server.js';

type Json = Record<string, unknown>;
type Area = 'impersonation' | 'tokens' | 'certificates' | 'rbac' | 'authorization';

interface Expected {
  readonly status: number;
  /** The Status reason; `text/plain` for upstream's plain-text answers (InternalError). */
  readonly reason: string;
  /** The Status message or the plain-text body (a function when it names uids known only at run time). */
  readonly message?: string | (() => string);
  /** For allowed SelfSubjectReviews: who the server took the caller for. */
  readonly user?: { readonly username: string; readonly groups: readonly string[] };
  /** For refused tokens: TokenReview's status.error, which says why. */
  readonly reviewError?: string | (() => string);
}

interface Attempt {
  readonly area: Area;
  readonly name: string;
  /** Who makes the attempt (as the documentation table shows it). */
  readonly who: string;
  readonly send: () => Promise<TestResponse>;
  /** The bearer token of a token attempt (asked of TokenReview for the reason). */
  readonly token?: () => string;
  readonly expect: Expected;
}

const ns = 'abuse';
const issuer = 'https://kubernetes.default.svc.cluster.local';
const rbacApi = '/apis/rbac.authorization.k8s.io/v1';
const ssrPath = '/apis/authentication.k8s.io/v1beta1/selfsubjectreviews';
const podsPath = `/api/v1/namespaces/${ns}/pods`;
const secretValues = ['s3cr3t-create', 's3cr3t-string', 's3cr3t-patch', 's3cr3t-put', 's3cr3t-apply'];
const leakedByError = 's3cr3t-invalid';
const controlValue = 'configmap-control-value';
const unloggedToken = 'never-logged-bearer-token';

const auditPolicy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: ["system:apiserver"]
  - level: Metadata
    resources:
      - group: ""
        resources: ["secrets"]
  - level: RequestResponse
`;

const unauthorized = { status: 401, reason: 'Unauthorized', message: 'Unauthorized' } as const;

function escalationText(who: string, missing: string): string {
  return `user "${who}" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n${missing}`;
}

const b64 = (s: string): string => Buffer.from(s).toString('base64');
const b64url = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('authentication and authorization abuse table', () => {
  let server: TestServer;
  let dir: string;
  let auditLog: string;
  const certs = new Map<string, CertAndKey>();
  const tokens = new Map<string, string>();
  const uids = new Map<string, string>();

  const cert = (name: string): CertAndKey => {
    const c = certs.get(name);
    if (c === undefined) throw new Error(`no certificate ${name}`);
    return c;
  };
  const token = (name: string): string => {
    const t = tokens.get(name);
    if (t === undefined) throw new Error(`no token ${name}`);
    return t;
  };
  const uid = (name: string): string => {
    const u = uids.get(name);
    if (u === undefined) throw new Error(`no uid ${name}`);
    return u;
  };

  const send = (method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> =>
    server.request(method, path, o);
  const as = (name: string, headers: Record<string, string | readonly string[]> = {}): RequestOptions => ({
    credentials: cert(name),
    headers,
  });
  const whoami = (o: RequestOptions): Promise<TestResponse> =>
    send('POST', ssrPath, {
      ...o,
      body: { apiVersion: 'authentication.k8s.io/v1beta1', kind: 'SelfSubjectReview' },
    });
  const bearer = (t: string, o: RequestOptions = { credentials: 'none' }): RequestOptions => ({
    ...o,
    headers: { ...(o.headers ?? {}), authorization: `Bearer ${t}` },
  });

  async function admin(method: string, path: string, body?: unknown, contentType?: string): Promise<Json> {
    const r = await send(method, path, {
      ...(body !== undefined ? { body } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
    });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.json();
  }
  const metaOf = (o: Json): Json => o['metadata'] as Json;

  async function requestToken(sa: string, spec: Json = {}): Promise<string> {
    const r = await admin('POST', `/api/v1/namespaces/${ns}/serviceaccounts/${sa}/token`, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec,
    });
    return String((r['status'] as Json)['token']);
  }
  async function serviceAccount(name: string): Promise<string> {
    const r = await admin('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name },
    });
    return String(metaOf(r)['uid']);
  }
  async function pod(name: string, sa: string): Promise<string> {
    const r = await admin('POST', podsPath, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name },
      spec: { serviceAccountName: sa, containers: [{ name: 'c', image: 'busybox' }] },
    });
    return String(metaOf(r)['uid']);
  }
  async function deleted(path: string): Promise<void> {
    await admin('DELETE', `${path}?gracePeriodSeconds=0`);
    await waitFor(`${path} gone`, async () => (await send('GET', path)).status === 404);
  }

  async function grant(
    who: string,
    role: string,
    rules: readonly Rule[],
    scope: { readonly namespace?: string; readonly clusterRole?: boolean } = {},
  ): Promise<void> {
    const namespaced = scope.namespace !== undefined && scope.clusterRole !== true;
    await createRole(server, { name: role, ...(namespaced ? { namespace: scope.namespace } : {}), rules });
    await bind(server, {
      name: `${role}:${who}`,
      ...(scope.namespace !== undefined ? { namespace: scope.namespace } : {}),
      role: { kind: namespaced ? 'Role' : 'ClusterRole', name: role },
      subjects: [user(who)],
    });
  }

  const rbacGroup = 'rbac.authorization.k8s.io';
  const podsRead: Rule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] };
  const secretsPath = `/api/v1/namespaces/${ns}/secrets`;

  const roleBody = (name: string, rules: readonly Rule[]): Json => ({
    apiVersion: `${rbacGroup}/v1`,
    kind: 'Role',
    metadata: { name },
    rules,
  });
  const bindingBody = (name: string, kind: 'RoleBinding' | 'ClusterRoleBinding', role: string): Json => ({
    apiVersion: `${rbacGroup}/v1`,
    kind,
    metadata: { name },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects: [{ kind: 'User', apiGroup: rbacGroup, name: 'someone' }],
  });
  const clusterRoleBody = (name: string, rules: readonly Rule[], aggregate?: string): Json => ({
    apiVersion: `${rbacGroup}/v1`,
    kind: 'ClusterRole',
    metadata: { name },
    ...(aggregate !== undefined
      ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [aggregate]: 'true' } }] } }
      : {}),
    rules,
  });

  async function setUpIdentities(): Promise<void> {
    const pki = join(server.dataDir, 'pki');
    const ours = {
      cert: readFileSync(join(pki, 'ca.crt'), 'utf8'),
      key: readFileSync(join(pki, 'ca.key'), 'utf8'),
    };
    const people = ['mallory', 'imp', 'imp-bob', 'imp-sa', 'rbac-editor', 'escalator', 'binder'];
    people.push('crole-maker', 'crole-escalator', 'ns-reader', 'dangling');
    for (const name of people) certs.set(name, await clientCert(ours, `CN=${name}`));
    const day = 86_400_000;
    const now = Date.now();
    const masters = (cn: string): string => `CN=${cn}, O=system:masters`;
    certs.set(
      'expired',
      await clientCert(ours, masters('old-admin'), {
        notBefore: new Date(now - 10 * day),
        notAfter: new Date(now - 9 * day),
      }),
    );
    certs.set(
      'not-yet-valid',
      await clientCert(ours, masters('future-admin'), {
        notBefore: new Date(now + day),
        notAfter: new Date(now + 2 * day),
      }),
    );
    certs.set('foreign', await clientCert(await newCa(), masters('kubernetes-admin')));
    certs.set(
      'server-only',
      await clientCert(ours, masters('serving-admin'), { extendedKeyUsages: ['serverAuth'] }),
    );
    certs.set('self-signed', await newCa(masters('kubernetes-admin')));
    certs.set('no-cn', await clientCert(ours, 'O=system:masters'));
    certs.set('injected-o', await clientCert(ours, [{ CN: ['alice'] }, { O: ['dev, O=system:masters'] }]));
    certs.set('two-cns', await clientCert(ours, [{ CN: ['alice'] }, { CN: ['admin'] }]));
    // mallory's own certificate used as a CA, the chain presented whole.
    const underMallory = await clientCert(cert('mallory'), masters('kubernetes-admin'));
    certs.set('signed-by-leaf', {
      cert: `${underMallory.cert.trimEnd()}\n${cert('mallory').cert}`,
      key: underMallory.key,
    });
  }

  async function setUpRbac(): Promise<void> {
    for (const name of [ns, 'other']) {
      await admin('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    }
    const impersonate = (resources: string[], resourceNames?: string[]): Rule => ({
      verbs: ['impersonate'],
      apiGroups: [''],
      resources,
      ...(resourceNames !== undefined ? { resourceNames } : {}),
    });
    await grant('imp', 'abuse:impersonate-users', [impersonate(['users'])]);
    await grant('imp-bob', 'abuse:impersonate-bob', [
      impersonate(['users'], ['bob']),
      impersonate(['groups'], ['dev']),
    ]);
    await grant('imp-sa', 'abuse:impersonate-sa', [impersonate(['serviceaccounts'])], {
      namespace: ns,
      clusterRole: true,
    });

    const rbacWriter: Rule = {
      verbs: ['get', 'create', 'update', 'patch'],
      apiGroups: [rbacGroup],
      resources: ['roles', 'rolebindings'],
    };
    await createRole(server, { name: 'abuse:rbac-writer', rules: [rbacWriter, podsRead] });
    for (const who of ['rbac-editor', 'escalator', 'binder']) {
      await bind(server, {
        name: `abuse:rbac-writer:${who}`,
        namespace: ns,
        role: { kind: 'ClusterRole', name: 'abuse:rbac-writer' },
        subjects: [user(who)],
      });
    }
    const escalate = (resources: string[], resourceNames?: string[]): Rule => ({
      verbs: ['escalate'],
      apiGroups: [rbacGroup],
      resources,
      ...(resourceNames !== undefined ? { resourceNames } : {}),
    });
    await grant('escalator', 'abuse:escalate-roles', [escalate(['roles'])], {
      namespace: ns,
      clusterRole: true,
    });
    await grant('rbac-editor', 'abuse:escalate-special', [escalate(['roles'], ['special', 'special-new'])], {
      namespace: ns,
      clusterRole: true,
    });
    await createRole(server, {
      name: 'abuse:secret-reader',
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] }],
    });
    await createRole(server, {
      name: 'abuse:secret-writer',
      rules: [{ verbs: ['create', 'delete'], apiGroups: [''], resources: ['secrets'] }],
    });
    await createRole(server, { name: 'abuse:pod-reader', rules: [podsRead] });
    await grant(
      'binder',
      'abuse:bind-secret-reader',
      [
        {
          verbs: ['bind'],
          apiGroups: [rbacGroup],
          resources: ['clusterroles'],
          resourceNames: ['abuse:secret-reader'],
        },
      ],
      { namespace: ns, clusterRole: true },
    );
    await grant('crole-maker', 'abuse:clusterrole-writer', [
      { verbs: ['get', 'create', 'update', 'patch'], apiGroups: [rbacGroup], resources: ['clusterroles'] },
      podsRead,
    ]);
    await grant('crole-escalator', 'abuse:clusterrole-escalator', [
      { verbs: ['create', 'escalate'], apiGroups: [rbacGroup], resources: ['clusterroles'] },
    ]);
    await grant('ns-reader', 'abuse:binding-creator', [
      { verbs: ['create'], apiGroups: [rbacGroup], resources: ['rolebindings', 'clusterrolebindings'] },
    ]);
    await bind(server, {
      name: 'abuse:secret-reader:ns-reader',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'abuse:secret-reader' },
      subjects: [user('ns-reader')],
    });
    await bind(server, {
      name: 'abuse:dangling',
      role: { kind: 'ClusterRole', name: 'abuse:does-not-exist' },
      subjects: [user('dangling')],
    });
    // What the attempts change.
    await createRole(server, { name: 'pods-only', namespace: ns, rules: [podsRead] });
    await createRole(server, { name: 'special', namespace: ns, rules: [podsRead] });
    await createRole(server, {
      name: 'holds-secrets',
      namespace: ns,
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
    });
    await admin('POST', `/apis/${rbacGroup}/v1/namespaces/${ns}/rolebindings`, {
      ...bindingBody('view-binding', 'RoleBinding', 'view'),
    });
    await admin(
      'POST',
      `${rbacApi}/clusterroles`,
      clusterRoleBody('abuse:aggregated', [], 'abuse.example.com/aggregate'),
    );
    const resource = (who: string, attrs: Record<string, string>): Promise<void> =>
      waitForAccess(server, { user: who, resourceAttributes: attrs });
    await resource('imp', { verb: 'impersonate', resource: 'users', name: 'x' });
    await resource('imp-bob', { verb: 'impersonate', resource: 'groups', name: 'dev' });
    await resource('imp-sa', { verb: 'impersonate', resource: 'serviceaccounts', namespace: ns, name: 'x' });
    for (const who of ['rbac-editor', 'escalator', 'binder']) {
      await resource(who, { verb: 'create', group: rbacGroup, resource: 'roles', namespace: ns });
    }
    await resource('escalator', { verb: 'escalate', group: rbacGroup, resource: 'roles', namespace: ns });
    await resource('rbac-editor', {
      verb: 'escalate',
      group: rbacGroup,
      resource: 'roles',
      namespace: ns,
      name: 'special',
    });
    await resource('binder', {
      verb: 'bind',
      group: rbacGroup,
      resource: 'clusterroles',
      namespace: ns,
      name: 'abuse:secret-reader',
    });
    await resource('crole-maker', { verb: 'get', resource: 'pods', namespace: 'other' });
    await resource('crole-escalator', { verb: 'escalate', group: rbacGroup, resource: 'clusterroles' });
    await resource('ns-reader', { verb: 'create', group: rbacGroup, resource: 'clusterrolebindings' });
    await resource('ns-reader', { verb: 'list', resource: 'secrets', namespace: ns });
  }

  async function setUpTokens(): Promise<void> {
    uids.set('robot', await serviceAccount('robot'));
    tokens.set('robot', await requestToken('robot'));
    await serviceAccount('gone');
    tokens.set('sa-deleted', await requestToken('gone'));
    await deleted(`/api/v1/namespaces/${ns}/serviceaccounts/gone`);

    uids.set('reborn-old', await serviceAccount('reborn'));
    tokens.set('sa-recreated', await requestToken('reborn'));
    await deleted(`/api/v1/namespaces/${ns}/serviceaccounts/reborn`);
    uids.set('reborn-new', await serviceAccount('reborn'));

    await serviceAccount('podder');
    const podRef = (name: string, podUID: string): Json => ({
      boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name, uid: podUID },
    });
    tokens.set(
      'pod-deleted',
      await requestToken('podder', podRef('p-deleted', await pod('p-deleted', 'podder'))),
    );
    await deleted(`${podsPath}/p-deleted`);
    uids.set('pod-old', await pod('p-again', 'podder'));
    tokens.set('pod-recreated', await requestToken('podder', podRef('p-again', uid('pod-old'))));
    await deleted(`${podsPath}/p-again`);
    uids.set('pod-new', await pod('p-again', 'podder'));

    const secret = await admin('POST', secretsPath, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'token-binder' },
    });
    tokens.set(
      'secret-deleted',
      await requestToken('robot', {
        boundObjectRef: {
          kind: 'Secret',
          apiVersion: 'v1',
          name: 'token-binder',
          uid: metaOf(secret)['uid'],
        },
      }),
    );
    await deleted(`${secretsPath}/token-binder`);
    tokens.set('other-audience', await requestToken('robot', { audiences: ['vault'] }));

    await serviceAccount('legacy');
    await admin('POST', secretsPath, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'legacy-token', annotations: { 'kubernetes.io/service-account.name': 'legacy' } },
      type: 'kubernetes.io/service-account-token',
    });
    const legacy = await waitFor('the legacy token', async () => {
      const data = (await admin('GET', `${secretsPath}/legacy-token`))['data'] as Json | undefined;
      const t = data?.['token'];
      return typeof t === 'string' ? Buffer.from(t, 'base64').toString('utf8') : undefined;
    });
    const works = await whoami(bearer(legacy));
    assert.equal(works.status, 201, works.text);
    await deleted(`${secretsPath}/legacy-token`);
    tokens.set('legacy-deleted', legacy);

    const good = token('robot');
    const [header, payload, signature] = good.split('.');
    const kid = String(decodeProtectedHeader(good).kid);
    const claims = decodeJwt(good);
    const sign = (body: Json, key: CryptoKey | KeyObject): Promise<string> =>
      new CompactSign(new TextEncoder().encode(JSON.stringify(body)))
        .setProtectedHeader({ alg: 'ES256', kid })
        .sign(key);
    const saKey = createPrivateKey(readFileSync(join(server.dataDir, 'pki', 'sa.key'), 'utf8'));
    const now = Math.floor(Date.now() / 1000);
    // Past go-jose's one-minute leeway.
    tokens.set('expired', await sign({ ...claims, iat: now - 7200, nbf: now - 7200, exp: now - 120 }, saKey));
    tokens.set('not-yet-valid', await sign({ ...claims, nbf: now + 600, exp: now + 3600 }, saKey));
    tokens.set('other-key', await sign(claims, (await generateKeyPair('ES256')).privateKey));
    tokens.set('alg-none', `${b64url({ alg: 'none', kid })}.${payload}.`);
    tokens.set(
      'tampered',
      `${header}.${b64url({ ...claims, sub: 'system:serviceaccount:kube-system:namespace-controller' })}.${signature}`,
    );
    // A bootstrap token whose Secret exists but expired (bootstrap token authentication is off,
    // as kube-apiserver's --enable-bootstrap-token-auth defaults to false).
    await admin('POST', '/api/v1/namespaces/kube-system/secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'bootstrap-token-abcdef' },
      type: 'bootstrap.kubernetes.io/token',
      stringData: {
        'token-id': 'abcdef',
        'token-secret': '0123456789abcdef',
        'usage-bootstrap-authentication': 'true',
        expiration: '2020-01-01T00:00:00Z',
      },
    });
    tokens.set('bootstrap', 'abcdef.0123456789abcdef');
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nanokube-abuse-'));
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, auditPolicy);
    auditLog = join(dir, 'audit.log');
    server = await startTestServer({
      controllerSelection: 'serviceaccount-token',
      nodes: 0,
      auditFlags: {
        policyFile,
        log: { path: auditLog, maxAge: 0, maxBackups: 0, maxSize: 0, mode: 'blocking', bufferSize: 10_000 },
      },
    });
    await setUpIdentities();
    await setUpRbac();
    await setUpTokens();
  });
  after(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const listPods = (o: RequestOptions): Promise<TestResponse> => send('GET', podsPath, o);
  const forbiddenImpersonation = (resource: string, name: string, by: string, scope: string): string => {
    const group = resource === 'uids' || resource.startsWith('userextras') ? 'authentication.k8s.io' : '';
    const qualified = group === '' ? resource.split('/')[0]! : `${resource.split('/')[0]!}.${group}`;
    return `${qualified} "${name}" is forbidden: User "${by}" cannot impersonate resource "${resource}" in API group "${group}" ${scope}`;
  };
  const clusterScope = 'at the cluster scope';
  const internalError = (path: string, refs: string): string =>
    `Internal Server Error: "${path}": requested ${refs} without impersonating a user\n`;
  const saGroups = (namespace: string): string[] => [
    'system:serviceaccounts',
    `system:serviceaccounts:${namespace}`,
    'system:authenticated',
  ];

  const impersonation: Attempt[] = [
    {
      area: 'impersonation',
      name: 'Impersonate-User without the impersonate verb',
      who: 'mallory (no grants)',
      send: () => listPods(as('mallory', { 'impersonate-user': 'bob' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('users', 'bob', 'mallory', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'Impersonate-Group without Impersonate-User',
      who: 'kubernetes-admin (system:masters)',
      send: () => listPods({ headers: { 'impersonate-group': 'system:masters' } }),
      expect: {
        status: 500,
        reason: 'text/plain',
        message: internalError(podsPath, '[{Group  system:masters    }]'),
      },
    },
    {
      area: 'impersonation',
      name: 'Impersonate-Uid without Impersonate-User',
      who: 'kubernetes-admin (system:masters)',
      send: () => listPods({ headers: { 'impersonate-uid': '1234' } }),
      expect: {
        status: 500,
        reason: 'text/plain',
        message: internalError(podsPath, '[{UID  1234  authentication.k8s.io/v1  }]'),
      },
    },
    {
      area: 'impersonation',
      name: 'Impersonate-Extra-* alone',
      who: 'kubernetes-admin (system:masters)',
      send: () => listPods({ headers: { 'impersonate-extra-scopes': 'view' } }),
      expect: {
        status: 500,
        reason: 'text/plain',
        message: internalError(podsPath, '[{UserExtra  view  authentication.k8s.io/v1  scopes}]'),
      },
    },
    {
      area: 'impersonation',
      name: 'an empty Impersonate-User with a group',
      who: 'kubernetes-admin (system:masters)',
      send: () => listPods({ headers: { 'impersonate-user': '', 'impersonate-group': 'dev' } }),
      expect: { status: 500, reason: 'text/plain', message: internalError(podsPath, '[{Group  dev    }]') },
    },
    {
      area: 'impersonation',
      name: 'impersonation headers without credentials',
      who: 'nobody (no certificate, no token)',
      send: () => listPods({ credentials: 'none', headers: { 'impersonate-user': 'kubernetes-admin' } }),
      expect: unauthorized,
    },
    {
      area: 'impersonation',
      name: 'Impersonate-Group system:masters',
      who: 'imp (impersonate users only)',
      send: () => listPods(as('imp', { 'impersonate-user': 'bob', 'impersonate-group': 'system:masters' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('groups', 'system:masters', 'imp', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'Impersonate-Uid',
      who: 'imp (impersonate users only)',
      send: () => listPods(as('imp', { 'impersonate-user': 'bob', 'impersonate-uid': '1234' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('uids', '1234', 'imp', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'Impersonate-Extra-Scopes',
      who: 'imp (impersonate users only)',
      send: () => listPods(as('imp', { 'impersonate-user': 'bob', 'impersonate-extra-scopes': 'view' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('userextras/scopes', 'view', 'imp', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'impersonating a service account',
      who: 'imp (impersonate users only)',
      send: () => listPods(as('imp', { 'impersonate-user': `system:serviceaccount:${ns}:robot` })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('serviceaccounts', 'robot', 'imp', `in the namespace "${ns}"`),
      },
    },
    {
      area: 'impersonation',
      name: "impersonating the admin's user name does not bring its certificate's groups",
      who: 'imp (impersonate users only)',
      send: () => listPods(as('imp', { 'impersonate-user': 'kubernetes-admin' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: `pods is forbidden: User "kubernetes-admin" cannot list resource "pods" in API group "" in the namespace "${ns}"`,
      },
    },
    {
      area: 'impersonation',
      name: 'a malformed service-account name is impersonated as a plain user',
      who: 'imp (impersonate users only)',
      send: () => whoami(as('imp', { 'impersonate-user': `system:serviceaccount:${ns}` })),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: `system:serviceaccount:${ns}`, groups: ['system:authenticated'] },
      },
    },
    {
      area: 'impersonation',
      name: 'impersonating system:anonymous gets system:unauthenticated, not system:authenticated',
      who: 'imp (impersonate users only)',
      send: () => whoami(as('imp', { 'impersonate-user': 'system:anonymous' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message:
          'selfsubjectreviews.authentication.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectreviews" in API group "authentication.k8s.io" at the cluster scope',
      },
    },
    {
      area: 'impersonation',
      name: 'the user its resourceNames allow (control)',
      who: 'imp-bob (impersonate users [bob], groups [dev])',
      send: () => whoami(as('imp-bob', { 'impersonate-user': 'bob', 'impersonate-group': 'dev' })),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: 'bob', groups: ['dev', 'system:authenticated'] },
      },
    },
    {
      area: 'impersonation',
      name: 'a user outside its resourceNames',
      who: 'imp-bob (impersonate users [bob], groups [dev])',
      send: () => whoami(as('imp-bob', { 'impersonate-user': 'carol' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('users', 'carol', 'imp-bob', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'a group outside its resourceNames next to an allowed one',
      who: 'imp-bob (impersonate users [bob], groups [dev])',
      send: () =>
        whoami(as('imp-bob', { 'impersonate-user': 'bob', 'impersonate-group': ['dev', 'system:masters'] })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('groups', 'system:masters', 'imp-bob', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'two Impersonate-User headers: the first counts (allowed first)',
      who: 'imp-bob (impersonate users [bob], groups [dev])',
      send: () => whoami(as('imp-bob', { 'impersonate-user': ['bob', 'carol'] })),
      expect: { status: 201, reason: 'allowed', user: { username: 'bob', groups: ['system:authenticated'] } },
    },
    {
      area: 'impersonation',
      name: 'two Impersonate-User headers: the first counts (refused first)',
      who: 'imp-bob (impersonate users [bob], groups [dev])',
      send: () => whoami(as('imp-bob', { 'impersonate-user': ['carol', 'bob'] })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('users', 'carol', 'imp-bob', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'a service-account name with an invalid namespace is a plain user',
      who: 'imp (impersonate users only)',
      send: () => whoami(as('imp', { 'impersonate-user': 'system:serviceaccount:Bad_NS:robot' })),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: 'system:serviceaccount:Bad_NS:robot', groups: ['system:authenticated'] },
      },
    },
    {
      area: 'impersonation',
      name: 'a service-account name with an invalid name needs impersonate on users',
      who: `imp-sa (impersonate serviceaccounts in ${ns})`,
      send: () => whoami(as('imp-sa', { 'impersonate-user': `system:serviceaccount:${ns}:Robot_X` })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation(
          'users',
          `system:serviceaccount:${ns}:Robot_X`,
          'imp-sa',
          clusterScope,
        ),
      },
    },
    {
      area: 'impersonation',
      name: 'an extra key percent-encoded in the header name',
      who: 'imp (impersonate users only)',
      send: () =>
        listPods(as('imp', { 'impersonate-user': 'bob', 'impersonate-extra-example.com%2fscopes': 'view' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('userextras/example.com/scopes', 'view', 'imp', clusterScope),
      },
    },
    {
      area: 'impersonation',
      name: 'a service account of its namespace (control)',
      who: `imp-sa (impersonate serviceaccounts in ${ns})`,
      send: () => whoami(as('imp-sa', { 'impersonate-user': `system:serviceaccount:${ns}:robot` })),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: `system:serviceaccount:${ns}:robot`, groups: saGroups(ns) },
      },
    },
    {
      area: 'impersonation',
      name: 'a service account of another namespace',
      who: `imp-sa (impersonate serviceaccounts in ${ns})`,
      send: () => whoami(as('imp-sa', { 'impersonate-user': 'system:serviceaccount:kube-system:default' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation(
          'serviceaccounts',
          'default',
          'imp-sa',
          'in the namespace "kube-system"',
        ),
      },
    },
    {
      area: 'impersonation',
      name: 'a service account with an added group',
      who: `imp-sa (impersonate serviceaccounts in ${ns})`,
      send: () =>
        whoami(
          as('imp-sa', {
            'impersonate-user': `system:serviceaccount:${ns}:robot`,
            'impersonate-group': 'system:masters',
          }),
        ),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: forbiddenImpersonation('groups', 'system:masters', 'imp-sa', clusterScope),
      },
    },
  ];

  const tokenAttempt = (
    name: string,
    key: string,
    reviewError: string | (() => string),
    who = `a bearer token of system:serviceaccount:${ns}:…`,
  ): Attempt => ({
    area: 'tokens',
    name,
    who,
    send: () => whoami(bearer(token(key))),
    token: () => token(key),
    expect: { ...unauthorized, reviewError },
  });
  const invalid = (why: string): string => `[invalid bearer token, ${why}]`;

  const tokenAttempts: Attempt[] = [
    {
      area: 'tokens',
      name: 'a bound token of a live service account (control)',
      who: `system:serviceaccount:${ns}:robot`,
      send: () => whoami(bearer(token('robot'))),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: `system:serviceaccount:${ns}:robot`, groups: saGroups(ns) },
      },
    },
    tokenAttempt(
      'a bound token after its service account was deleted',
      'sa-deleted',
      invalid('serviceaccounts "gone" not found'),
    ),
    tokenAttempt(
      'a bound token after its service account was deleted and created again',
      'sa-recreated',
      () => invalid(`service account UID (${uid('reborn-new')}) does not match claim (${uid('reborn-old')})`),
    ),
    tokenAttempt(
      'a pod-bound token after the pod was deleted',
      'pod-deleted',
      invalid('service account token has been invalidated'),
    ),
    tokenAttempt(
      'a pod-bound token after the pod was deleted and created again (new uid)',
      'pod-recreated',
      () =>
        invalid(
          `pod UID (${uid('pod-new')}) does not match service account pod ref claim (${uid('pod-old')})`,
        ),
    ),
    tokenAttempt(
      'a secret-bound token after the secret was deleted',
      'secret-deleted',
      invalid('service account token has been invalidated'),
    ),
    tokenAttempt(
      'an expired bound token (past the minute of leeway)',
      'expired',
      invalid('service account token has expired'),
    ),
    tokenAttempt(
      'a bound token not valid yet',
      'not-yet-valid',
      invalid('service account token is not valid yet'),
    ),
    tokenAttempt(
      'a bound token for another audience',
      'other-audience',
      invalid(`token audiences ["vault"] is invalid for the target audiences ["${issuer}"]`),
    ),
    tokenAttempt(
      'a legacy Secret-based token after the Secret was deleted',
      'legacy-deleted',
      invalid('Token has been invalidated'),
    ),
    tokenAttempt(
      'a token with the right claims signed by another key',
      'other-key',
      invalid('square/go-jose: error in cryptographic primitive'),
      'a forger',
    ),
    tokenAttempt(
      'a token with alg none and no signature',
      'alg-none',
      invalid('square/go-jose: error in cryptographic primitive'),
      'a forger',
    ),
    tokenAttempt(
      'a real token whose payload was changed to another service account',
      'tampered',
      invalid('square/go-jose: error in cryptographic primitive'),
      'a forger',
    ),
    {
      area: 'tokens',
      name: 'a bearer token no authenticator knows',
      who: 'a guesser',
      send: () => whoami(bearer('garbage')),
      token: () => 'garbage',
      expect: { ...unauthorized, reviewError: 'invalid bearer token' },
    },
    tokenAttempt(
      'an expired bootstrap token (bootstrap token authentication is off)',
      'bootstrap',
      'invalid bearer token',
      'a joining node',
    ),
    {
      area: 'tokens',
      name: 'TokenRequest binding a token to a pod of another service account',
      who: 'kubernetes-admin (system:masters)',
      send: () =>
        send('POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
          body: {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenRequest',
            spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p-again' } },
          },
        }),
      expect: {
        status: 400,
        reason: 'BadRequest',
        message:
          'cannot bind token for serviceaccount "robot" to pod running with different serviceaccount name.',
      },
    },
    {
      area: 'tokens',
      name: 'TokenRequest binding a token to a ConfigMap',
      who: 'kubernetes-admin (system:masters)',
      send: () =>
        send('POST', `/api/v1/namespaces/${ns}/serviceaccounts/robot/token`, {
          body: {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenRequest',
            spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } },
          },
        }),
      expect: {
        status: 400,
        reason: 'BadRequest',
        message: 'cannot bind token to object of type /v1, Kind=ConfigMap',
      },
    },
    {
      area: 'tokens',
      name: 'Basic credentials',
      who: 'a guesser',
      send: () =>
        whoami({ credentials: 'none', headers: { authorization: `Basic ${b64('kubernetes-admin:admin')}` } }),
      expect: unauthorized,
    },
    {
      area: 'tokens',
      name: 'an expired client certificate beside a valid token: the token authenticates',
      who: 'old-admin certificate (expired) + robot token',
      send: () => whoami(bearer(token('robot'), { credentials: cert('expired') })),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: `system:serviceaccount:${ns}:robot`, groups: saGroups(ns) },
      },
    },
    {
      area: 'tokens',
      name: 'a valid client certificate beside a garbage token: the certificate authenticates',
      who: 'mallory certificate + garbage token',
      send: () => whoami(bearer('garbage', { credentials: cert('mallory') })),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: 'mallory', groups: ['system:authenticated'] },
      },
    },
  ];

  const certificateAttempt = (name: string, key: string, who: string): Attempt => ({
    area: 'certificates',
    name,
    who,
    send: () => listPods({ credentials: cert(key) }),
    expect: unauthorized,
  });
  const certificates: Attempt[] = [
    certificateAttempt(
      'an expired client certificate from the cluster CA',
      'expired',
      'CN=old-admin, O=system:masters',
    ),
    certificateAttempt(
      'a client certificate from the cluster CA not valid yet',
      'not-yet-valid',
      'CN=future-admin, O=system:masters',
    ),
    certificateAttempt(
      'a client certificate signed by another CA',
      'foreign',
      'CN=kubernetes-admin, O=system:masters',
    ),
    certificateAttempt(
      'a serving certificate (serverAuth only) from the cluster CA',
      'server-only',
      'CN=serving-admin, O=system:masters',
    ),
    certificateAttempt('a self-signed certificate', 'self-signed', 'CN=kubernetes-admin, O=system:masters'),
    certificateAttempt(
      'a certificate signed by a client certificate of the cluster CA (chain sent)',
      'signed-by-leaf',
      'CN=kubernetes-admin, O=system:masters, issued by mallory',
    ),

    certificateAttempt('a certificate from the cluster CA without a CN', 'no-cn', 'O=system:masters'),
    {
      area: 'certificates',
      name: "an organization that spells another one (', O=system:masters') is one group",
      who: 'CN=alice, O="dev, O=system:masters" from the cluster CA',
      send: () => whoami({ credentials: cert('injected-o') }),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: 'alice', groups: ['dev, O=system:masters', 'system:authenticated'] },
      },
    },
    {
      area: 'certificates',
      name: 'two CNs: the last names the user (as Go reads a subject)',
      who: 'CN=alice, CN=admin from the cluster CA',
      send: () => whoami({ credentials: cert('two-cns') }),
      expect: {
        status: 201,
        reason: 'allowed',
        user: { username: 'admin', groups: ['system:authenticated'] },
      },
    },
  ];

  const post = (who: string, path: string, body: Json): Promise<TestResponse> =>
    send('POST', path, { ...as(who), body });
  const roles = `${rbacApi}/namespaces/${ns}/roles`;
  const roleBindings = (namespace: string): string => `${rbacApi}/namespaces/${namespace}/rolebindings`;
  const secretsGet = { verbs: ['get'], apiGroups: [''], resources: ['secrets'] } as const;
  const forbidden = (resource: string, name: string, why: string): Expected => ({
    status: 403,
    reason: 'Forbidden',
    message: `${resource}.${rbacGroup} "${name}" is forbidden: ${why}`,
  });
  const secretsGetText = '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}';
  const secretsReadText = '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}';
  const mustBeAdmin = 'must have cluster-admin privileges to use the aggregationRule';
  const roleRefChange = (name: string): string =>
    `RoleBinding.${rbacGroup} "view-binding" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"${rbacGroup}", Kind:"ClusterRole", Name:"${name}"}: cannot change roleRef`;
  const changeRoleRef = (o: RequestOptions, role: string): Promise<TestResponse> =>
    send('PATCH', `${roleBindings(ns)}/view-binding`, {
      ...o,
      contentType: 'application/merge-patch+json',
      body: { roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role } },
    });

  const rbac: Attempt[] = [
    {
      area: 'rbac',
      name: 'create a Role granting what the creator lacks',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () => post('rbac-editor', roles, roleBody('steal-secrets', [secretsGet])),
      expect: forbidden('roles', 'steal-secrets', escalationText('rbac-editor', secretsGetText)),
    },
    {
      area: 'rbac',
      name: 'the same as a dry run',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () => post('rbac-editor', `${roles}?dryRun=All`, roleBody('steal-secrets', [secretsGet])),
      expect: forbidden('roles', 'steal-secrets', escalationText('rbac-editor', secretsGetText)),
    },
    {
      area: 'rbac',
      name: 'an invalid Role granting what the creator lacks: escalation is checked before validation',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () =>
        post(
          'rbac-editor',
          roles,
          roleBody('invalid-and-escalating', [
            secretsGet,
            { verbs: [], apiGroups: [''], resources: ['pods'] },
          ]),
        ),
      expect: forbidden('roles', 'invalid-and-escalating', escalationText('rbac-editor', secretsGetText)),
    },
    {
      area: 'rbac',
      name: 'create a Role granting only what the creator holds (control)',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () => post('rbac-editor', roles, roleBody('pod-reader', [podsRead])),
      expect: { status: 201, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'add a rule the updater lacks to a Role (PATCH)',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () =>
        send('PATCH', `${roles}/pods-only`, {
          ...as('rbac-editor'),
          contentType: 'application/json-patch+json',
          body: [{ op: 'add', path: '/rules/-', value: secretsGet }],
        }),
      expect: forbidden('roles', 'pods-only', escalationText('rbac-editor', secretsGetText)),
    },
    {
      area: 'rbac',
      name: 'add a rule the updater lacks, holding escalate on roles',
      who: 'escalator (writes roles; escalate on roles)',
      send: () =>
        send('PATCH', `${roles}/pods-only`, {
          ...as('escalator'),
          contentType: 'application/json-patch+json',
          body: [{ op: 'add', path: '/rules/-', value: secretsGet }],
        }),
      expect: { status: 200, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'escalate limited by resourceNames does not cover a create (the request has no name)',
      who: 'rbac-editor (escalate on roles [special, special-new])',
      send: () => post('rbac-editor', roles, roleBody('special-new', [secretsGet])),
      expect: forbidden('roles', 'special-new', escalationText('rbac-editor', secretsGetText)),
    },
    {
      area: 'rbac',
      name: 'escalate limited by resourceNames covers a create by PUT (the URL names the role)',
      who: 'rbac-editor (escalate on roles [special, special-new])',
      send: () =>
        send('PUT', `${roles}/special-new`, {
          ...as('rbac-editor'),
          body: roleBody('special-new', [secretsGet]),
        }),
      expect: { status: 201, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'escalate limited by resourceNames covers an update of that role',
      who: 'rbac-editor (escalate on roles [special, special-new])',
      send: () =>
        send('PATCH', `${roles}/special`, {
          ...as('rbac-editor'),
          contentType: 'application/json-patch+json',
          body: [{ op: 'add', path: '/rules/-', value: secretsGet }],
        }),
      expect: { status: 200, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'a label on a Role holding rules the updater lacks',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () =>
        send('PATCH', `${roles}/holds-secrets`, {
          ...as('rbac-editor'),
          contentType: 'application/merge-patch+json',
          body: { metadata: { labels: { touched: 'yes' } } },
        }),
      expect: forbidden('roles', 'holds-secrets', escalationText('rbac-editor', secretsGetText)),
    },
    {
      area: 'rbac',
      name: 'only a finalizer on that Role (the garbage collector’s fields are not checked)',
      who: 'rbac-editor (writes roles; reads pods)',
      send: () =>
        send('PATCH', `${roles}/holds-secrets`, {
          ...as('rbac-editor'),
          contentType: 'application/merge-patch+json',
          body: { metadata: { finalizers: ['example.com/keep'] } },
        }),
      expect: { status: 200, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'bind a ClusterRole the creator lacks without bind',
      who: 'rbac-editor (writes rolebindings; reads pods)',
      send: () =>
        post(
          'rbac-editor',
          roleBindings(ns),
          bindingBody('read-secrets', 'RoleBinding', 'abuse:secret-reader'),
        ),
      expect: forbidden('rolebindings', 'read-secrets', escalationText('rbac-editor', secretsReadText)),
    },
    {
      area: 'rbac',
      name: 'bind that ClusterRole holding bind on it',
      who: 'binder (bind on clusterroles [abuse:secret-reader])',
      send: () =>
        post('binder', roleBindings(ns), bindingBody('read-secrets', 'RoleBinding', 'abuse:secret-reader')),
      expect: { status: 201, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'bind another ClusterRole than bind names',
      who: 'binder (bind on clusterroles [abuse:secret-reader])',
      send: () =>
        post('binder', roleBindings(ns), bindingBody('write-secrets', 'RoleBinding', 'abuse:secret-writer')),
      expect: forbidden(
        'rolebindings',
        'write-secrets',
        escalationText('binder', '{APIGroups:[""], Resources:["secrets"], Verbs:["create" "delete"]}'),
      ),
    },
    {
      area: 'rbac',
      name: 'bind a ClusterRole that does not exist',
      who: 'rbac-editor (writes rolebindings; reads pods)',
      send: () =>
        post('rbac-editor', roleBindings(ns), bindingBody('dangling', 'RoleBinding', 'abuse:no-such-role')),
      expect: forbidden(
        'rolebindings',
        'dangling',
        `clusterroles.${rbacGroup} "abuse:no-such-role" not found`,
      ),
    },
    {
      area: 'rbac',
      name: 'bind a ClusterRole held in its namespace, in that namespace (control)',
      who: `ns-reader (creates bindings; reads secrets in ${ns})`,
      send: () =>
        post('ns-reader', roleBindings(ns), bindingBody('reader-here', 'RoleBinding', 'abuse:secret-reader')),
      expect: { status: 201, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'the same RoleBinding in another namespace',
      who: `ns-reader (creates bindings; reads secrets in ${ns})`,
      send: () =>
        post(
          'ns-reader',
          roleBindings('other'),
          bindingBody('reader-there', 'RoleBinding', 'abuse:secret-reader'),
        ),
      expect: forbidden('rolebindings', 'reader-there', escalationText('ns-reader', secretsReadText)),
    },
    {
      area: 'rbac',
      name: 'the same ClusterRole in a ClusterRoleBinding',
      who: `ns-reader (creates bindings; reads secrets in ${ns})`,
      send: () =>
        post(
          'ns-reader',
          `${rbacApi}/clusterrolebindings`,
          bindingBody('reader-everywhere', 'ClusterRoleBinding', 'abuse:secret-reader'),
        ),
      expect: forbidden(
        'clusterrolebindings',
        'reader-everywhere',
        escalationText('ns-reader', secretsReadText),
      ),
    },
    {
      area: 'rbac',
      name: 'bind cluster-admin',
      who: `ns-reader (creates bindings; reads secrets in ${ns})`,
      send: () =>
        post(
          'ns-reader',
          `${rbacApi}/clusterrolebindings`,
          bindingBody('me-admin', 'ClusterRoleBinding', 'cluster-admin'),
        ),
      expect: forbidden(
        'clusterrolebindings',
        'me-admin',
        escalationText(
          'ns-reader',
          '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
        ),
      ),
    },
    {
      area: 'rbac',
      name: "change a RoleBinding's roleRef",
      who: 'kubernetes-admin (system:masters)',
      send: () => changeRoleRef({}, 'edit'),
      expect: { status: 422, reason: 'Invalid', message: roleRefChange('edit') },
    },
    {
      area: 'rbac',
      name: "change a RoleBinding's roleRef to a role the updater holds",
      who: 'rbac-editor (writes rolebindings; reads pods)',
      send: () => changeRoleRef(as('rbac-editor'), 'abuse:pod-reader'),
      expect: { status: 422, reason: 'Invalid', message: roleRefChange('abuse:pod-reader') },
    },
    {
      area: 'rbac',
      name: "change a RoleBinding's roleRef to a role the updater lacks: escalation first",
      who: 'rbac-editor (writes rolebindings; reads pods)',
      send: () => changeRoleRef(as('rbac-editor'), 'abuse:secret-reader'),
      expect: forbidden('rolebindings', 'view-binding', escalationText('rbac-editor', secretsReadText)),
    },
    {
      area: 'rbac',
      name: 'create a ClusterRole with an aggregationRule',
      who: 'crole-maker (writes clusterroles; reads pods)',
      send: () =>
        post(
          'crole-maker',
          `${rbacApi}/clusterroles`,
          clusterRoleBody('abuse:sneaky', [], 'rbac.authorization.k8s.io/aggregate-to-admin'),
        ),
      expect: forbidden('clusterroles', 'abuse:sneaky', mustBeAdmin),
    },
    {
      area: 'rbac',
      name: 'remove the aggregationRule of an aggregated ClusterRole',
      who: 'crole-maker (writes clusterroles; reads pods)',
      send: () =>
        send('PATCH', `${rbacApi}/clusterroles/abuse:aggregated`, {
          ...as('crole-maker'),
          contentType: 'application/merge-patch+json',
          body: { aggregationRule: null },
        }),
      expect: forbidden('clusterroles', 'abuse:aggregated', mustBeAdmin),
    },
    {
      area: 'rbac',
      name: 'create a ClusterRole with rules the creator holds (control)',
      who: 'crole-maker (writes clusterroles; reads pods)',
      send: () => post('crole-maker', `${rbacApi}/clusterroles`, clusterRoleBody('abuse:pods', [podsRead])),
      expect: { status: 201, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'create a ClusterRole with an aggregationRule holding escalate',
      who: 'crole-escalator (creates and escalates clusterroles)',
      send: () =>
        post(
          'crole-escalator',
          `${rbacApi}/clusterroles`,
          clusterRoleBody('abuse:escalated', [], 'rbac.authorization.k8s.io/aggregate-to-admin'),
        ),
      expect: { status: 201, reason: 'allowed' },
    },
    {
      area: 'rbac',
      name: 'a request of a user bound to a missing ClusterRole',
      who: 'dangling (bound to abuse:does-not-exist)',
      send: () => listPods(as('dangling')),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: `pods is forbidden: User "dangling" cannot list resource "pods" in API group "" in the namespace "${ns}": RBAC: clusterrole.${rbacGroup} "abuse:does-not-exist" not found`,
      },
    },
  ];

  const authorization: Attempt[] = [
    {
      area: 'authorization',
      name: 'a path with a percent sign (upstream formats the refusal with it: %!s(MISSING))',
      who: 'mallory (no grants)',
      send: () => send('GET', '/healthz%25s', as('mallory')),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: 'forbidden: User "mallory" cannot get path "/healthz%!s(MISSING)"',
      },
    },
    {
      area: 'authorization',
      name: 'a user name with a percent sign',
      who: 'imp (impersonate users only) as 50%off',
      send: () => listPods(as('imp', { 'impersonate-user': '50%off' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: `pods is forbidden: User "50%!o(MISSING)ff" cannot list resource "pods" in API group "" in the namespace "${ns}"`,
      },
    },
    {
      area: 'authorization',
      name: 'an impersonated name with a double quote is quoted as Go quotes it',
      who: 'mallory (no grants)',
      send: () => listPods(as('mallory', { 'impersonate-user': 'a"b' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message:
          'users "a\\"b" is forbidden: User "mallory" cannot impersonate resource "users" in API group "" at the cluster scope',
      },
    },
    {
      area: 'authorization',
      name: 'a user name with markup is escaped',
      who: 'imp (impersonate users only) as `<b>&`',
      send: () => listPods(as('imp', { 'impersonate-user': '<b>&' })),
      expect: {
        status: 403,
        reason: 'Forbidden',
        message: `pods is forbidden: User "&lt;b&gt;&amp;" cannot list resource "pods" in API group "" in the namespace "${ns}"`,
      },
    },
  ];

  const attempts: readonly Attempt[] = [
    ...impersonation,
    ...tokenAttempts,
    ...certificates,
    ...rbac,
    ...authorization,
  ];

  async function tokenReviewError(t: string): Promise<unknown> {
    const r = await admin('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: t },
    });
    const status = r['status'] as Json;
    assert.notEqual(status['authenticated'], true);
    return status['error'];
  }

  const resolve = (v: string | (() => string)): string => (typeof v === 'string' ? v : v());

  for (const a of attempts) {
    test(`${a.area}: ${a.name} — ${a.who}`, async () => {
      const r = await a.send();
      const e = a.expect;
      assert.equal(r.status, e.status, r.text);
      if (e.reason === 'text/plain') {
        assert.match(String(r.headers['content-type']), /^text\/plain/);
        if (e.message !== undefined) assert.equal(r.text, resolve(e.message));
      } else if (e.status >= 400) {
        const body = r.json();
        assert.equal(body['kind'], 'Status');
        assert.equal(body['status'], 'Failure');
        assert.equal(body['code'], e.status);
        assert.equal(body['reason'], e.reason);
        if (e.message !== undefined) assert.equal(body['message'], resolve(e.message));
      }
      if (e.user !== undefined) {
        const info = (r.json()['status'] as Json)['userInfo'] as Json;
        assert.equal(info['username'], e.user.username);
        assert.deepEqual(info['groups'], e.user.groups);
      }
      if (e.reviewError !== undefined && a.token !== undefined) {
        assert.equal(await tokenReviewError(a.token()), resolve(e.reviewError));
      }
    });
  }

  interface AuditStep {
    readonly name: string;
    readonly send: (headers: Record<string, string>) => Promise<TestResponse>;
    readonly status: number;
    readonly level: 'Metadata' | 'RequestResponse';
    /** Who sends it, when not the admin. */
    readonly who?: string;
    /** What the documentation says is checked, when not the Secret default. */
    readonly checked?: string;
  }
  const secretPath = `${secretsPath}/audited`;
  const dockerValue = '{not json s3cr3t-docker}';
  const secretBody = (data: Record<string, string>, extra: Json = {}): Json => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'audited' },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
    ...extra,
  });
  const auditSteps: readonly AuditStep[] = [
    {
      name: 'Secret create with data and stringData',
      send: (headers) =>
        send('POST', secretsPath, {
          headers,
          body: secretBody({ password: secretValues[0]! }, { stringData: { token: secretValues[1]! } }),
        }),
      status: 201,
      level: 'Metadata',
    },
    {
      name: 'Secret get',
      send: (headers) => send('GET', secretPath, { headers }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret get as a Table',
      send: (headers) =>
        send('GET', secretPath, { headers, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret list',
      send: (headers) => send('GET', secretsPath, { headers }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret list in all namespaces',
      send: (headers) => send('GET', '/api/v1/secrets', { headers }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret watch',
      send: (headers) => send('GET', `${secretsPath}?watch=1&timeoutSeconds=1`, { headers }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret merge patch',
      send: (headers) =>
        send('PATCH', secretPath, {
          headers,
          contentType: 'application/merge-patch+json',
          body: { data: { password: b64(secretValues[2]!) } },
        }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret update (PUT)',
      send: async (headers) => {
        const current = await admin('GET', secretPath);
        return send('PUT', secretPath, {
          headers,
          body: { ...current, data: { password: b64(secretValues[3]!) } },
        });
      },
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'Secret server-side apply',
      send: (headers) =>
        send('PATCH', `${secretPath}?fieldManager=abuse&force=true`, {
          headers,
          contentType: 'application/apply-patch+yaml',
          raw: JSON.stringify(secretBody({ password: secretValues[4]! })),
        }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'an invalid Secret (bad key) refused',
      send: (headers) =>
        send('POST', secretsPath, {
          headers,
          body: { ...secretBody({ 'bad key!': leakedByError }), metadata: { name: 'invalid' } },
        }),
      status: 422,
      level: 'Metadata',
    },
    {
      name: 'an invalid dockerconfigjson Secret refused',
      send: (headers) =>
        send('POST', secretsPath, {
          headers,
          body: {
            ...secretBody({ '.dockerconfigjson': dockerValue }),
            metadata: { name: 'docker' },
            type: 'kubernetes.io/dockerconfigjson',
          },
        }),
      status: 422,
      level: 'Metadata',
    },
    {
      name: 'Secret delete',
      send: (headers) => send('DELETE', secretPath, { headers }),
      status: 200,
      level: 'Metadata',
    },
    {
      name: 'a bearer token that fails authentication',
      send: (headers) =>
        send('GET', secretsPath, {
          credentials: 'none',
          headers: { ...headers, authorization: `Bearer ${unloggedToken}` },
        }),
      status: 401,
      level: 'Metadata',
      who: 'a guesser',
      checked: 'one Metadata event, at ResponseStarted; the token is not in the log',
    },
    {
      name: 'ConfigMap create (control: RequestResponse keeps the data)',
      send: (headers) =>
        send('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          headers,
          body: {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name: 'audited' },
            data: { k: controlValue },
          },
        }),
      status: 201,
      level: 'RequestResponse',
    },
  ];

  test('audit: no Secret data in the log at Metadata, whatever the verb; a ConfigMap at RequestResponse keeps its data', async () => {
    const idOf = (i: number): string => `auth-abuse-audit-${i}`;
    // A request that fails authentication is audited once, at ResponseStarted (as upstream).
    const lastStage = (step: AuditStep): string =>
      step.status === 401 ? 'ResponseStarted' : 'ResponseComplete';
    for (const [i, step] of auditSteps.entries()) {
      const r = await step.send({ 'audit-id': idOf(i) });
      assert.equal(r.status, step.status, `${step.name}: ${r.text}`);
    }
    const events = (): Json[] =>
      readFileSync(auditLog, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Json);
    await waitFor('every step audited', () =>
      auditSteps.every((step, i) =>
        events().some((e) => e['auditID'] === idOf(i) && e['stage'] === lastStage(step)),
      ),
    );
    for (const [i, step] of auditSteps.entries()) {
      const mine = events().filter((e) => e['auditID'] === idOf(i));
      assert.ok(mine.length > 0, step.name);
      for (const e of mine) {
        assert.equal(e['level'], step.level, step.name);
        if (step.level === 'Metadata') {
          assert.equal(e['requestObject'], undefined, step.name);
          assert.equal(e['responseObject'], undefined, step.name);
        }
      }
    }
    const text = readFileSync(auditLog, 'utf8');
    for (const value of [...secretValues, leakedByError, dockerValue, 's3cr3t', unloggedToken]) {
      assert.ok(!text.includes(value), `${value} is in the audit log`);
      assert.ok(!text.includes(b64(value)), `base64 of ${value} is in the audit log`);
    }
    const completed = (name: string): Json | undefined => {
      const i = auditSteps.findIndex((step) => step.name === name);
      return events().find((e) => e['auditID'] === idOf(i) && e['stage'] === lastStage(auditSteps[i]!));
    };
    const docker = completed('an invalid dockerconfigjson Secret refused');
    assert.equal(
      (docker?.['responseStatus'] as Json | undefined)?.['message'],
      'Secret "docker" is invalid: data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character \'n\' looking for beginning of object key string',
    );
    const refused = completed('a bearer token that fails authentication');
    assert.ok(refused !== undefined);
    assert.equal((refused['responseStatus'] as Json | undefined)?.['code'], 401);
    const control = completed('ConfigMap create (control: RequestResponse keeps the data)');
    assert.deepEqual((control?.['requestObject'] as Json | undefined)?.['data'], { k: controlValue });
    assert.deepEqual((control?.['responseObject'] as Json | undefined)?.['data'], { k: controlValue });
  });

  /** The table as docs/reliability-auth.md shows it. */
  function documentedRows(): string[] {
    const refusal = (e: Expected): string =>
      e.reason === 'allowed' ? `${e.status} (allowed: control)` : `${e.status} ${e.reason}`;
    const rows = attempts.map((a) => `| ${a.area} | ${a.name} | ${a.who} | ${refusal(a.expect)} |`);
    for (const s of auditSteps) {
      const what =
        s.checked ??
        (s.level === 'Metadata'
          ? 'Metadata event, no request/response object, no value (nor its base64) in the log'
          : 'RequestResponse event with the data (control)');
      rows.push(`| audit | ${s.name} | ${s.who ?? 'kubernetes-admin'} | ${s.status}; ${what} |`);
    }
    return rows;
  }

  test('docs/reliability-auth.md shows this table', () => {
    const doc = readFileSync(new URL('../../docs/reliability-auth.md', import.meta.url), 'utf8');
    const documented = doc
      .split('\n')
      .filter((l) => /^\| (impersonation|tokens|certificates|rbac|authorization|audit) \|/.test(l));
    const rows = documentedRows();
    assert.deepEqual(
      documented,
      rows,
      `docs/reliability-auth.md is out of step with this table; its rows should be:\n${rows.join('\n')}\n`,
    );
  });
});
