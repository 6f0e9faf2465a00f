/**
 * Test support for RBAC: create roles and bindings as the admin, and wait until the server's
 * authorizer (fed by watches, so a moment behind the write) answers a SubjectAccessReview as
 * expected. Waiting is polling with a deadline, never a timed assertion.
 */
import { waitFor } from './poll.js';
import type { TestServer } from './server.js';

const rbacV1 = '/apis/rbac.authorization.k8s.io/v1';

export interface Subject {
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  readonly name: string;
  readonly namespace?: string;
}

export const user = (name: string): Subject => ({ kind: 'User', name });
export const group = (name: string): Subject => ({ kind: 'Group', name });
export const serviceAccount = (namespace: string, name: string): Subject => ({
  kind: 'ServiceAccount',
  name,
  namespace,
});

function subjectJson(s: Subject): Record<string, string> {
  return s.kind === 'ServiceAccount'
    ? { kind: s.kind, name: s.name, namespace: s.namespace ?? '' }
    : { kind: s.kind, apiGroup: 'rbac.authorization.k8s.io', name: s.name };
}

export interface Rule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

async function post(server: TestServer, path: string, body: unknown): Promise<void> {
  const r = await server.request('POST', path, { body });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`);
}

export async function createRole(
  server: TestServer,
  o: { readonly name: string; readonly namespace?: string; readonly rules: readonly Rule[] },
): Promise<void> {
  const cluster = o.namespace === undefined;
  await post(server, cluster ? `${rbacV1}/clusterroles` : `${rbacV1}/namespaces/${o.namespace}/roles`, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: cluster ? 'ClusterRole' : 'Role',
    metadata: { name: o.name, ...(cluster ? {} : { namespace: o.namespace }) },
    rules: o.rules,
  });
}

/** A RoleBinding (with `namespace`) or ClusterRoleBinding of a Role or ClusterRole. */
export async function bind(
  server: TestServer,
  o: {
    readonly name: string;
    readonly namespace?: string;
    readonly role: { readonly kind: 'Role' | 'ClusterRole'; readonly name: string };
    readonly subjects: readonly Subject[];
  },
): Promise<void> {
  const cluster = o.namespace === undefined;
  await post(
    server,
    cluster ? `${rbacV1}/clusterrolebindings` : `${rbacV1}/namespaces/${o.namespace}/rolebindings`,
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: cluster ? 'ClusterRoleBinding' : 'RoleBinding',
      metadata: { name: o.name, ...(cluster ? {} : { namespace: o.namespace }) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: o.role.kind, name: o.role.name },
      subjects: o.subjects.map(subjectJson),
    },
  );
}

export interface AccessQuestion {
  readonly user: string;
  readonly groups?: readonly string[];
  readonly resourceAttributes?: Record<string, string>;
  readonly nonResourceAttributes?: Record<string, string>;
}

/** What the server's authorizer answers now (a SubjectAccessReview as the admin). */
export async function allowed(server: TestServer, q: AccessQuestion): Promise<boolean> {
  const r = await server.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: q.user,
        groups: q.groups ?? ['system:authenticated'],
        ...(q.resourceAttributes !== undefined ? { resourceAttributes: q.resourceAttributes } : {}),
        ...(q.nonResourceAttributes !== undefined ? { nonResourceAttributes: q.nonResourceAttributes } : {}),
      },
    },
  });
  if (r.status !== 201) throw new Error(`SubjectAccessReview: ${r.status} ${r.text}`);
  const status = r.json()['status'] as { allowed?: boolean } | undefined;
  return status?.allowed === true;
}

/** Waits until the authorizer has caught up with a grant (or a removal, with `expected` false). */
export async function waitForAccess(server: TestServer, q: AccessQuestion, expected = true): Promise<void> {
  await waitFor(`access ${JSON.stringify(q)} to become ${String(expected)}`, async () =>
    (await allowed(server, q)) === expected ? true : undefined,
  );
}
