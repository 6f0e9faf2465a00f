/**
 * The authorization matrix: users (impersonated by the admin, and one with
 * an x509 client certificate from the data dir's CA) and a service account, bound to `view`,
 * `edit` and `admin` (aggregated by the controller), a Role with resourceNames, a ClusterRole for
 * subresources (pods/log, deployments/scale) and one for non-resource URLs, try every verb on
 * representative resources and subresources. The expected answers are written out here from
 * RBAC's rules (not asked of the server): allowed requests are never 403, denied ones are
 * upstream's 403 Status. Then the access reviews answer with RBAC's reasons, and escalation is
 * refused with upstream's text.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clientCert } from '../support/certs.js';
import type { CertAndKey } from '../support/certs.js';
import { waitFor } from '../support/poll.js';
import { bind, createRole, group, serviceAccount, user, waitForAccess } from '../support/rbac.js';
import { startTestServer } from '../support/server.js';
import type { TestResponse, TestServer } from '../support/server.js';

const ns = 'matrix';
const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'] as const;
type Verb = (typeof verbs)[number];

interface Target {
  readonly key: string;
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  /** The collection path in `ns`. */
  readonly collection: string;
  readonly name: string;
  readonly verbs: readonly Verb[];
  readonly body: (name: string) => Record<string, unknown>;
}

const meta = (name: string) => ({ name, namespace: ns });
const podBody = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: meta(name),
  spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
});
const deploymentBody = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta(name),
  spec: {
    replicas: 0,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] },
    },
  },
});

const targets: readonly Target[] = [
  {
    key: 'pods',
    group: '',
    resource: 'pods',
    subresource: '',
    collection: `/api/v1/namespaces/${ns}/pods`,
    name: 'p1',
    verbs,
    body: podBody,
  },
  {
    key: 'configmaps',
    group: '',
    resource: 'configmaps',
    subresource: '',
    collection: `/api/v1/namespaces/${ns}/configmaps`,
    name: 'allowed',
    verbs,
    body: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name), data: { a: 'b' } }),
  },
  {
    key: 'secrets',
    group: '',
    resource: 'secrets',
    subresource: '',
    collection: `/api/v1/namespaces/${ns}/secrets`,
    name: 's1',
    verbs,
    body: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: meta(name), stringData: { a: 'b' } }),
  },
  {
    key: 'deployments',
    group: 'apps',
    resource: 'deployments',
    subresource: '',
    collection: `/apis/apps/v1/namespaces/${ns}/deployments`,
    name: 'd1',
    verbs,
    body: deploymentBody,
  },
  {
    key: 'rolebindings',
    group: 'rbac.authorization.k8s.io',
    resource: 'rolebindings',
    subresource: '',
    collection: `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`,
    name: 'existing',
    verbs,
    body: (name) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta(name),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone' }],
    }),
  },
  {
    key: 'pods/log',
    group: '',
    resource: 'pods',
    subresource: 'log',
    collection: `/api/v1/namespaces/${ns}/pods`,
    name: 'p1',
    verbs: ['get'],
    body: podBody,
  },
  {
    key: 'deployments/scale',
    group: 'apps',
    resource: 'deployments',
    subresource: 'scale',
    collection: `/apis/apps/v1/namespaces/${ns}/deployments`,
    name: 'd1',
    verbs: ['get', 'update', 'patch'],
    body: deploymentBody,
  },
];

// What RBAC grants each role in `ns`, per target: written out from the v1.27 roles.
const read: Verb[] = ['get', 'list', 'watch'];
const write: Verb[] = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const view: Record<string, readonly Verb[]> = {
  pods: read,
  configmaps: read,
  deployments: read,
  'pods/log': read,
  'deployments/scale': read,
};
const edit: Record<string, readonly Verb[]> = {
  pods: [...read, ...write],
  configmaps: [...read, ...write],
  secrets: [...read, ...write],
  deployments: [...read, ...write],
  'pods/log': read,
  'deployments/scale': [...read, ...write],
};
const admin: Record<string, readonly Verb[]> = { ...edit, rolebindings: [...read, ...write] };

interface Identity {
  readonly label: string;
  /** The name in 403 texts. */
  readonly name: string;
  readonly headers?: Record<string, string>;
  readonly credentials?: CertAndKey;
  readonly grants: Record<string, readonly Verb[]>;
  /** configmaps by name only (resourceNames): these verbs on `allowed`. */
  readonly named?: readonly Verb[];
}

const impersonating = (name: string): Record<string, string> => ({ 'Impersonate-User': name });
const builder = 'system:serviceaccount:matrix:builder';

describe('authorization matrix', () => {
  let server: TestServer;
  let identities: Identity[];

  before(async () => {
    server = await startTestServer({ nodes: 0, anonymousAuth: true });
    const pki = join(server.dataDir, 'pki');
    const ca = {
      cert: readFileSync(join(pki, 'ca.crt'), 'utf8'),
      key: readFileSync(join(pki, 'ca.key'), 'utf8'),
    };
    const jane = await clientCert(ca, 'CN=jane, O=devs');
    identities = [
      { label: 'vera (view)', name: 'vera', headers: impersonating('vera'), grants: view },
      { label: 'jane (x509, group devs: view)', name: 'jane', credentials: jane, grants: view },
      {
        label: 'builder service account (edit)',
        name: builder,
        headers: impersonating(builder),
        grants: edit,
      },
      { label: 'adam (admin)', name: 'adam', headers: impersonating('adam'), grants: admin },
      {
        label: 'lou (pods/log, deployments/scale)',
        name: 'lou',
        headers: impersonating('lou'),
        grants: { 'pods/log': ['get'], 'deployments/scale': ['get', 'update', 'patch'] },
      },
      {
        label: 'cathy (configmap "allowed" by name)',
        name: 'cathy',
        headers: impersonating('cathy'),
        grants: {},
        named: ['get', 'update', 'patch', 'delete'],
      },
      { label: 'nobody', name: 'nobody', headers: impersonating('nobody'), grants: {} },
    ];
    const created = async (path: string, body: unknown) => {
      const r = await server.request('POST', path, { body });
      assert.equal(r.status, 201, `${path}: ${r.text}`);
    };
    await created('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await created(`/api/v1/namespaces/${ns}/serviceaccounts`, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'builder' },
    });
    for (const t of targets.filter((x) => x.subresource === '')) await created(t.collection, t.body(t.name));
    await bind(server, {
      name: 'vera-view',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'view' },
      subjects: [user('vera')],
    });
    await bind(server, {
      name: 'devs-view',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'view' },
      subjects: [group('devs')],
    });
    await bind(server, {
      name: 'builder-edit',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'edit' },
      subjects: [serviceAccount(ns, 'builder')],
    });
    await bind(server, {
      name: 'adam-admin',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'admin' },
      subjects: [user('adam')],
    });
    await createRole(server, {
      name: 'log-and-scale',
      rules: [
        { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
        { verbs: ['get', 'update', 'patch'], apiGroups: ['apps'], resources: ['deployments/scale'] },
      ],
    });
    await bind(server, {
      name: 'lou-log-and-scale',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'log-and-scale' },
      subjects: [user('lou')],
    });
    await createRole(server, {
      name: 'one-configmap',
      namespace: ns,
      rules: [
        {
          verbs: ['get', 'update', 'patch', 'delete'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['allowed'],
        },
      ],
    });
    await bind(server, {
      name: 'cathy-one',
      namespace: ns,
      role: { kind: 'Role', name: 'one-configmap' },
      subjects: [user('cathy')],
    });
    await createRole(server, {
      name: 'metrics-reader',
      rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/logs/*'] }],
    });
    await bind(server, {
      name: 'mona-metrics',
      role: { kind: 'ClusterRole', name: 'metrics-reader' },
      subjects: [user('mona')],
    });
    // The aggregation controller has filled admin (the last in the chain view → edit → admin)
    // and the authorizer has seen every binding.
    await waitForAccess(server, {
      user: 'adam',
      resourceAttributes: { verb: 'get', resource: 'pods', subresource: 'log', namespace: ns },
    });
    for (const [who, groups, verb, resource, sub] of [
      ['vera', [], 'watch', 'deployments', 'scale'],
      ['jane', ['devs'], 'list', 'pods', ''],
      [
        builder,
        ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
        'deletecollection',
        'secrets',
        '',
      ],
      ['lou', [], 'patch', 'deployments', 'scale'],
      ['cathy', [], 'delete', 'configmaps', ''],
    ] as const) {
      await waitForAccess(server, {
        user: who,
        groups: [...groups, 'system:authenticated'],
        resourceAttributes: {
          verb,
          resource,
          subresource: sub,
          namespace: ns,
          group: resource === 'deployments' ? 'apps' : '',
          name: 'allowed',
        },
      });
    }
    await waitForAccess(server, { user: 'mona', nonResourceAttributes: { verb: 'get', path: '/metrics' } });
  });
  after(() => server.stop());

  /** The request `verb` on `t` as `who` (deletes name objects that do not exist, to keep the fixtures). */
  function attempt(who: Identity, t: Target, verb: Verb): Promise<TestResponse> {
    const o = {
      ...(who.headers !== undefined ? { headers: who.headers } : {}),
      ...(who.credentials !== undefined ? { credentials: who.credentials } : {}),
    };
    const one = `${t.collection}/${t.name}${t.subresource !== '' ? `/${t.subresource}` : ''}`;
    switch (verb) {
      case 'get':
        return server.request('GET', one, o);
      case 'list':
        return server.request('GET', t.collection, o);
      case 'watch':
        return server.request('GET', `${t.collection}?watch=1&timeoutSeconds=1`, o);
      case 'create':
        return server.request('POST', t.collection, {
          ...o,
          body: t.body(`new-${who.name.replace(/:/g, '-')}`),
        });
      case 'update':
        if (t.subresource === 'scale') {
          return server.request('PUT', one, {
            ...o,
            body: {
              apiVersion: 'autoscaling/v1',
              kind: 'Scale',
              metadata: meta(t.name),
              spec: { replicas: 0 },
            },
          });
        }
        return server.request('PUT', one, { ...o, body: t.body(t.name) });
      case 'patch':
        return server.request('PATCH', one, {
          ...o,
          contentType: 'application/merge-patch+json',
          body:
            t.subresource === 'scale'
              ? { spec: { replicas: 0 } }
              : { metadata: { labels: { touched: 'yes' } } },
        });
      case 'delete':
        // cathy may delete only the configmap named "allowed": she is asked about that name.
        return server.request('DELETE', `${t.collection}/${who.named !== undefined ? t.name : 'absent'}`, o);
      case 'deletecollection':
        return server.request('DELETE', `${t.collection}?labelSelector=nothing%3Dhere`, o);
    }
  }

  function expectedAllowed(who: Identity, t: Target, verb: Verb): boolean {
    if (who.named !== undefined && t.key === 'configmaps') return who.named.includes(verb);
    return (who.grants[t.key] ?? []).includes(verb);
  }

  /** Upstream's 403 for a denied request. */
  function denial(who: Identity, t: Target, verb: Verb): Record<string, unknown> {
    const named = ['get', 'update', 'patch', 'delete'].includes(verb);
    const name = !named ? '' : verb === 'delete' && who.named === undefined ? 'absent' : t.name;
    const resource = t.subresource === '' ? t.resource : `${t.resource}/${t.subresource}`;
    const subject = name === '' ? t.resource : `${t.resource} "${name}"`;
    const subjectGroup = t.group === '' ? subject : subject.replace(t.resource, `${t.resource}.${t.group}`);
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${subjectGroup} is forbidden: User "${who.name}" cannot ${verb} resource "${resource}" in API group "${t.group}" in the namespace "${ns}"`,
      reason: 'Forbidden',
      details: {
        ...(name !== '' ? { name } : {}),
        ...(t.group !== '' ? { group: t.group } : {}),
        kind: t.resource,
      },
      code: 403,
    };
  }

  test('every identity, every verb, every target: allowed and denied as RBAC says', async () => {
    let allowedCount = 0;
    let deniedCount = 0;
    for (const who of identities) {
      // Watches of allowed requests last their timeoutSeconds: run them together.
      await Promise.all(
        targets.flatMap((t) =>
          t.verbs.map(async (verb) => {
            const r = await attempt(who, t, verb);
            const what = `${who.label}: ${verb} ${t.key} → ${r.status} ${r.text.slice(0, 300)}`;
            if (expectedAllowed(who, t, verb)) {
              allowedCount++;
              assert.notEqual(r.status, 403, what);
              assert.ok(r.status < 500, what);
            } else {
              deniedCount++;
              assert.equal(r.status, 403, what);
              assert.deepEqual(r.json(), denial(who, t, verb), what);
            }
          }),
        ),
      );
    }
    // The table is not trivial: both answers occur many times.
    assert.ok(allowedCount > 60 && deniedCount > 100, `${allowedCount} allowed, ${deniedCount} denied`);
  });

  test('bindings act only in their namespace; cluster-scoped resources need cluster bindings', async () => {
    const other = await server.request('GET', '/api/v1/namespaces/default/pods', {
      headers: impersonating('adam'),
    });
    assert.equal(other.status, 403);
    assert.equal(
      other.json()['message'],
      'pods is forbidden: User "adam" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    const nodes = await server.request('GET', '/api/v1/nodes', { headers: impersonating(builder) });
    assert.equal(nodes.status, 403);
    assert.equal(
      nodes.json()['message'],
      'nodes is forbidden: User "system:serviceaccount:matrix:builder" cannot list resource "nodes" in API group "" at the cluster scope',
    );
    const ns2 = await server.request('GET', `/api/v1/namespaces/${ns}`, { headers: impersonating('vera') });
    assert.equal(ns2.status, 200, 'view reads its own namespace');
  });

  test('non-resource URLs: a nonResourceURLs ClusterRole, discovery for the authenticated, health for all', async () => {
    const mona = impersonating('mona');
    assert.equal((await server.request('GET', '/metrics', { headers: mona })).status, 200);
    assert.notEqual((await server.request('GET', '/logs/anything', { headers: mona })).status, 403);
    const vera = await server.request('GET', '/metrics', { headers: impersonating('vera') });
    assert.equal(vera.status, 403);
    assert.deepEqual(vera.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "vera" cannot get path "/metrics"',
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
    assert.equal((await server.request('GET', '/apis', { headers: impersonating('nobody') })).status, 200);
    assert.equal((await server.request('GET', '/version', { credentials: 'none' })).status, 200);
    const anonymous = await server.request('GET', '/apis', { credentials: 'none' });
    assert.equal(anonymous.status, 403);
    assert.equal(anonymous.json()['message'], 'forbidden: User "system:anonymous" cannot get path "/apis"');
  });

  test('access reviews answer with RBAC reasons; rules reviews list the bound rules', async () => {
    const review = async (path: string, body: Record<string, unknown>, headers?: Record<string, string>) => {
      const r = await server.request('POST', `/apis/authorization.k8s.io/v1/${path}`, {
        body: { apiVersion: 'authorization.k8s.io/v1', ...body },
        ...(headers !== undefined ? { headers } : {}),
      });
      assert.equal(r.status, 201, r.text);
      return r.json()['status'] as Record<string, unknown>;
    };
    assert.deepEqual(
      await review(
        'selfsubjectaccessreviews',
        {
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: ns } },
        },
        impersonating('vera'),
      ),
      {
        allowed: true,
        reason: 'RBAC: allowed by RoleBinding "vera-view/matrix" of ClusterRole "view" to User "vera"',
      },
    );
    assert.deepEqual(
      await review(
        'selfsubjectaccessreviews',
        {
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes: { verb: 'delete', resource: 'pods', namespace: ns } },
        },
        impersonating('vera'),
      ),
      { allowed: false },
    );
    assert.deepEqual(
      await review('subjectaccessreviews', {
        kind: 'SubjectAccessReview',
        spec: {
          user: builder,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
          resourceAttributes: { verb: 'create', resource: 'secrets', namespace: ns },
        },
      }),
      {
        allowed: true,
        reason:
          'RBAC: allowed by RoleBinding "builder-edit/matrix" of ClusterRole "edit" to ServiceAccount "builder/matrix"',
      },
    );
    const local = await server.request(
      'POST',
      `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`,
      {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'LocalSubjectAccessReview',
          metadata: { namespace: ns },
          spec: {
            user: 'cathy',
            resourceAttributes: { verb: 'update', resource: 'configmaps', name: 'allowed', namespace: ns },
          },
        },
      },
    );
    assert.equal(local.status, 201, local.text);
    assert.deepEqual(local.json()['status'], {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "cathy-one/matrix" of Role "one-configmap" to User "cathy"',
    });
    // A user without create on localsubjectaccessreviews may not ask.
    const refused = await server.request(
      'POST',
      `/apis/authorization.k8s.io/v1/namespaces/${ns}/localsubjectaccessreviews`,
      {
        headers: impersonating('cathy'),
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'LocalSubjectAccessReview',
          metadata: { namespace: ns },
          spec: {},
        },
      },
    );
    assert.equal(refused.status, 403);
    assert.equal(
      refused.json()['message'],
      'localsubjectaccessreviews.authorization.k8s.io is forbidden: User "cathy" cannot create resource "localsubjectaccessreviews" in API group "authorization.k8s.io" in the namespace "matrix"',
    );
    const rules = await review(
      'selfsubjectrulesreviews',
      { kind: 'SelfSubjectRulesReview', spec: { namespace: ns } },
      impersonating('cathy'),
    );
    assert.deepEqual(rules, {
      resourceRules: [
        {
          verbs: ['create'],
          apiGroups: ['authorization.k8s.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        },
        { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
        {
          verbs: ['get', 'update', 'patch', 'delete'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['allowed'],
        },
      ],
      nonResourceRules: [
        {
          verbs: ['get'],
          nonResourceURLs: [
            '/api',
            '/api/*',
            '/apis',
            '/apis/*',
            '/healthz',
            '/livez',
            '/openapi',
            '/openapi/*',
            '/readyz',
            '/version',
            '/version/',
          ],
        },
        { verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
      ],
      incomplete: false,
    });
  });

  test('aggregation: a custom resource ClusterRole labelled aggregate-to-view reaches view, edit and admin', async () => {
    const r = await server.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
        rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: ['example.com'], resources: ['widgets'] }],
      },
    });
    assert.equal(r.status, 201, r.text);
    const widgets = { verb: 'list', group: 'example.com', resource: 'widgets', namespace: ns };
    await waitForAccess(server, { user: 'vera', resourceAttributes: widgets });
    await waitForAccess(server, { user: 'adam', resourceAttributes: widgets });
    const view = (await server.request('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/view')).json();
    assert.ok(
      (view['rules'] as { apiGroups?: string[] }[]).some((x) => x.apiGroups?.includes('example.com')),
      JSON.stringify(view['rules']),
    );
    const managers = (view['metadata'] as { managedFields: { manager: string; operation: string }[] })
      .managedFields;
    assert.ok(
      managers.some((m) => m.manager === 'clusterrole-aggregation-controller' && m.operation === 'Apply'),
    );
    // Removing the label takes the rules away again.
    const patched = await server.request(
      'PATCH',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles/widgets-view',
      {
        contentType: 'application/merge-patch+json',
        body: { metadata: { labels: { 'rbac.authorization.k8s.io/aggregate-to-view': null } } },
      },
    );
    assert.equal(patched.status, 200, patched.text);
    await waitForAccess(server, { user: 'vera', resourceAttributes: widgets }, false);
  });

  test('escalation: roles and bindings grant only what the requester holds, or with escalate/bind', async () => {
    const adam = impersonating('adam');
    const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}`;
    const roleBody = (name: string, rules: unknown[]) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name },
      rules,
    });
    // admin holds everything edit has in the namespace: binding edit is fine.
    const ok = await server.request('POST', `${rbac}/rolebindings`, {
      headers: adam,
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'adam-grants-edit' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone' }],
      },
    });
    assert.equal(ok.status, 201, ok.text);
    const role = await server.request('POST', `${rbac}/roles`, {
      headers: adam,
      body: roleBody('too-much', [
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['list', 'watch'], apiGroups: [''], resources: ['nodes'] },
      ]),
    });
    assert.equal(role.status, 403);
    assert.deepEqual(role.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'roles.rbac.authorization.k8s.io "too-much" is forbidden: user "adam" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["list" "watch"]}',
      reason: 'Forbidden',
      details: { name: 'too-much', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      code: 403,
    });
    const binding = await server.request('POST', `${rbac}/rolebindings`, {
      headers: adam,
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'adam-grants-admin-everywhere' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'system:node-bootstrapper',
        },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone' }],
      },
    });
    assert.equal(binding.status, 403);
    assert.equal(
      binding.json()['message'],
      'rolebindings.rbac.authorization.k8s.io "adam-grants-admin-everywhere" is forbidden: user "adam" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["certificates.k8s.io"], Resources:["certificatesigningrequests"], Verbs:["create" "get" "list" "watch"]}',
    );
    // With `bind` on that ClusterRole (and `escalate` on roles), adam may.
    await createRole(server, {
      name: 'delegate',
      rules: [
        {
          verbs: ['bind'],
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          resourceNames: ['system:node-bootstrapper'],
        },
        { verbs: ['escalate'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'] },
      ],
    });
    await bind(server, {
      name: 'adam-delegate',
      namespace: ns,
      role: { kind: 'ClusterRole', name: 'delegate' },
      subjects: [user('adam')],
    });
    await waitForAccess(server, {
      user: 'adam',
      resourceAttributes: {
        verb: 'escalate',
        group: 'rbac.authorization.k8s.io',
        resource: 'roles',
        namespace: ns,
      },
    });
    await waitFor('bind and escalate to take effect', async () => {
      const again = await server.request('POST', `${rbac}/rolebindings`, {
        headers: adam,
        body: {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'RoleBinding',
          metadata: { name: 'adam-grants-bootstrapper' },
          roleRef: {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: 'ClusterRole',
            name: 'system:node-bootstrapper',
          },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'someone' }],
        },
      });
      return again.status === 201;
    });
    const escalated = await server.request('POST', `${rbac}/roles`, {
      headers: adam,
      body: roleBody('too-much', [{ verbs: ['list', 'watch'], apiGroups: [''], resources: ['nodes'] }]),
    });
    assert.equal(escalated.status, 201, escalated.text);
  });
});
