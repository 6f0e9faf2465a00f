/**
 * Kubectl 1.27 server-side apply against `nanokube serve`: apply --server-side, the conflict
 * error that names the other manager, --force-conflicts, and client-side apply followed by
 * apply --server-side (kubectl's migration of its client-side managedFields, with the server's
 * last-applied handling).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-ssa';

interface Entry {
  manager: string;
  operation: string;
  fieldsV1: Record<string, unknown>;
}
interface Obj {
  metadata: { managedFields?: Entry[]; annotations?: Record<string, string> };
  data?: Record<string, string>;
  spec?: { replicas?: number };
}

// Keys such as y or n would be YAML 1.1 booleans to kubectl (go-yaml v2), as upstream.
const cm = (name: string, data: Record<string, string>): string =>
  [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${ns}`,
    'data:',
    ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`),
    '',
  ].join('\n');

describe('#9 kubectl server-side apply against nanokube serve', { skip: kubectlSkip }, () => {
  const s = kubectlSession();
  const get = async (name: string): Promise<Obj> =>
    parseYaml(await s.ok(['get', 'cm', name, '-n', ns, '-o', 'yaml', '--show-managed-fields'])) as Obj;
  const managers = (o: Obj): string[] =>
    (o.metadata.managedFields ?? []).map((e) => `${e.manager}/${e.operation}`).sort();

  it('create namespace', async () => {
    await s.ok(['create', 'namespace', ns]);
    await s.namespaceReady(ns);
  });

  it('apply --server-side creates, records an Apply manager "kubectl", and re-applies unchanged', async () => {
    const file = s.kubectl.file('a.yaml', cm('a', { x: '1' }));
    assert.equal(await s.ok(['apply', '--server-side', '-f', file]), 'configmap/a serverside-applied\n');
    const o = await get('a');
    assert.deepEqual(managers(o), ['kubectl/Apply']);
    assert.deepEqual(o.metadata.managedFields?.[0]?.fieldsV1, { 'f:data': { 'f:x': {} } });
    assert.equal(await s.ok(['apply', '--server-side', '-f', file]), 'configmap/a serverside-applied\n');
  });

  it('a conflicting apply by another manager fails naming it; --force-conflicts takes the field', async () => {
    const file = s.kubectl.file('a2.yaml', cm('a', { x: '2' }));
    const r = await s.run(['apply', '--server-side', '--field-manager=other', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Apply failed with 1 conflict: conflict with "kubectl": \.data\.x/);
    assert.match(r.stderr, /--force-conflicts/);
    await s.ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', file]);
    const o = await get('a');
    assert.equal(o.data?.['x'], '2');
    assert.deepEqual(managers(o), ['other/Apply']);
  });

  it('an edit by another tool, then kubectl apply --server-side conflicts with it by name and version', async () => {
    const file = s.kubectl.file('b.yaml', cm('b', { x: '1' }));
    await s.ok(['apply', '--server-side', '-f', file]);
    await s.ok(['patch', 'cm', 'b', '-n', ns, '--type=merge', '-p', '{"data":{"x":"edited"}}']);
    const r = await s.run(['apply', '--server-side', '-f', file]);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /conflict with "kubectl-patch" using v1: \.data\.x/);
  });

  it('client-side apply, then apply --server-side: migrated to one "kubectl" Apply manager', async () => {
    const file = s.kubectl.file('c.yaml', cm('c', { x: '1', z: '1' }));
    assert.equal(await s.ok(['apply', '-f', file]), 'configmap/c created\n');
    const before = await get('c');
    assert.deepEqual(managers(before), ['kubectl-client-side-apply/Update']);
    assert.ok(before.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration']);
    // Changing a field the client-side apply set: no conflict, its live value is the last applied.
    s.kubectl.file('c.yaml', cm('c', { x: '2', z: '1' }));
    assert.equal(await s.ok(['apply', '--server-side', '-f', file]), 'configmap/c serverside-applied\n');
    const after = await get('c');
    assert.deepEqual(after.data, { x: '2', z: '1' });
    assert.ok(
      !managers(after).includes('kubectl-client-side-apply/Update'),
      `client-side manager migrated: ${managers(after).join(', ')}`,
    );
    assert.ok(managers(after).includes('kubectl/Apply'));
    // The annotation follows what kubectl applies server-side.
    const last = JSON.parse(
      after.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}',
    ) as Obj;
    assert.deepEqual(last.data, { x: '2', z: '1' });
    // A field dropped from the manifest is now pruned by the server-side apply.
    s.kubectl.file('c.yaml', cm('c', { x: '2' }));
    await s.ok(['apply', '--server-side', '-f', file]);
    assert.deepEqual((await get('c')).data, { x: '2' });
  });

  it('kubectl diff --server-side shows the change an apply would make', async () => {
    const file = s.kubectl.file('a3.yaml', cm('a', { x: '3' }));
    const r = await s.run([
      'diff',
      '--server-side',
      '--force-conflicts',
      '--field-manager=other',
      '-f',
      file,
    ]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /- {2}x: "2"\n\+ {2}x: "3"/);
  });

  itStopsCleanly(s);
});
