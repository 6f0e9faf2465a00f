/**
 * With kubectl 1.27 and a non-admin kubeconfig: user `jane` (group `devs`)
 * with an x509 client certificate signed by the data dir's CA, bound to `view` in one namespace.
 * `kubectl auth can-i` answers yes/no as bound, `auth can-i --list` lists the rules,
 * `kubectl get pods` elsewhere is upstream's Forbidden text, `auth whoami` (beta in 1.27; the
 * alpha command of 1.26) names her, and
 * `--as=bob` is refused until RBAC lets her impersonate bob, then acts as bob.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { clientCert } from '../support/certs.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

describe('kubectl 1.27 as a non-admin user under RBAC', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '0'] });
  let jane: Record<string, string>;

  /** kubectl as jane (her own kubeconfig). */
  const asJane = (args: readonly string[]) => s.run(args, { env: jane });

  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 400; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.fail(`timed out waiting for ${what}`);
  }

  it('jane gets a kubeconfig with a certificate from the data dir CA; the admin binds view in "team"', async () => {
    const pki = join(s.server.dataDir, 'pki');
    const caCert = readFileSync(join(pki, 'ca.crt'), 'utf8');
    const cert = await clientCert(
      { cert: caCert, key: readFileSync(join(pki, 'ca.key'), 'utf8') },
      'CN=jane, O=devs',
    );
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: nanokube',
      '  cluster:',
      `    server: ${s.server.url}`,
      `    certificate-authority-data: ${b64(caCert)}`,
      'users:',
      '- name: jane',
      '  user:',
      `    client-certificate-data: ${b64(cert.cert)}`,
      `    client-key-data: ${b64(cert.key)}`,
      'contexts:',
      '- name: jane',
      '  context: {cluster: nanokube, user: jane}',
      'current-context: jane',
      '',
    ].join('\n');
    const path = join(s.server.workDir, 'jane.kubeconfig');
    writeFileSync(path, kubeconfig, { mode: 0o600 });
    jane = { KUBECONFIG: path };
    await s.ok(['create', 'namespace', 'team']);
    await s.ok(['create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane', '-n', 'team']);
    // The aggregation controller fills view and the authorizer follows the binding.
    await until(
      async () =>
        (await s.run(['auth', 'can-i', 'list', 'pods', '-n', 'team', '--as=jane'])).stdout.trim() === 'yes',
      'jane to be allowed to list pods in team',
    );
  });

  it('auth can-i: yes where bound, no elsewhere and for writes', async () => {
    const yes = await asJane(['auth', 'can-i', 'list', 'pods', '-n', 'team']);
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(yes.stdout, 'yes\n');
    for (const args of [
      ['auth', 'can-i', 'delete', 'pods', '-n', 'team'],
      ['auth', 'can-i', 'list', 'pods', '-n', 'default'],
      ['auth', 'can-i', 'get', 'secrets', '-n', 'team'],
      ['auth', 'can-i', 'list', 'nodes'],
    ]) {
      const no = await asJane(args);
      assert.equal(no.code, 1, args.join(' '));
      assert.equal(no.stdout, 'no\n', args.join(' '));
    }
    const scale = await asJane([
      'auth',
      'can-i',
      'get',
      'deployments.apps',
      '--subresource=scale',
      '-n',
      'team',
    ]);
    assert.equal(scale.stdout, 'yes\n');
  });

  it('auth can-i --list shows the rules RBAC gives her in the namespace', async () => {
    const out = await asJane(['auth', 'can-i', '--list', '-n', 'team']);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split('\n');
    assert.match(lines[0]!, /^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    const row = (re: RegExp) =>
      assert.ok(
        lines.some((l) => re.test(l)),
        `${String(re)} in\n${out.stdout}`,
      );
    row(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/);
    row(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/);
    row(/^deployments\.apps\s+\[\]\s+\[\]\s+\[get list watch\]$/);
    row(/^\s+\[\/api\/\*\]\s+\[\]\s+\[get\]$/);
    assert.ok(!lines.some((l) => /^secrets\s/.test(l)), 'view does not list secrets');
    const elsewhere = await asJane(['auth', 'can-i', '--list', '-n', 'default']);
    assert.ok(!elsewhere.stdout.split('\n').some((l) => /^pods\s/.test(l)));
  });

  it('kubectl get pods where she is not bound: upstream Forbidden text', async () => {
    const r = await asJane(['get', 'pods', '-n', 'default']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Error from server (Forbidden): pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"\n',
    );
    const ok = await asJane(['get', 'pods', '-n', 'team']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stderr, 'No resources found in team namespace.\n');
  });

  it('auth whoami (beta in kubectl 1.27) names her and her groups', async () => {
    const r = await asJane(['auth', 'whoami']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ATTRIBUTE\s+VALUE\nUsername\s+jane\nGroups\s+\[devs system:authenticated\]\n$/);
  });

  it('--as=bob is refused until RBAC lets her impersonate bob; then she acts as bob', async () => {
    const refused = await asJane(['get', 'pods', '-n', 'team', '--as=bob']);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      'Error from server (Forbidden): users "bob" is forbidden: User "jane" cannot impersonate resource "users" in API group "" at the cluster scope\n',
    );
    await s.ok([
      'create',
      'clusterrole',
      'impersonate-bob',
      '--verb=impersonate',
      '--resource=users',
      '--resource-name=bob',
    ]);
    await s.ok([
      'create',
      'clusterrolebinding',
      'jane-as-bob',
      '--clusterrole=impersonate-bob',
      '--user=jane',
    ]);
    await until(
      async () =>
        (await s.run(['auth', 'can-i', 'impersonate', 'users/bob', '--as=jane'])).stdout.trim() === 'yes',
      'jane to be allowed to impersonate bob',
    );
    // Now the request is bob's, and bob may not list pods.
    const asBob = await asJane(['get', 'pods', '-n', 'team', '--as=bob']);
    assert.equal(asBob.code, 1);
    assert.equal(
      asBob.stderr,
      'Error from server (Forbidden): pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "team"\n',
    );
    // Only bob: alice stays refused.
    const asAlice = await asJane(['auth', 'can-i', 'list', 'pods', '-n', 'team', '--as=alice']);
    assert.notEqual(asAlice.code, 0);
    assert.match(
      asAlice.stderr,
      /users "alice" is forbidden: User "jane" cannot impersonate resource "users"/,
    );
    await s.ok(['create', 'rolebinding', 'bob-view', '--clusterrole=view', '--user=bob', '-n', 'team']);
    await until(
      async () =>
        (await asJane(['auth', 'can-i', 'list', 'pods', '-n', 'team', '--as=bob'])).stdout.trim() === 'yes',
      'bob to be allowed to list pods in team',
    );
    const listed = await asJane(['get', 'pods', '-n', 'team', '--as=bob']);
    assert.equal(listed.code, 0, listed.stderr);
  });

  itStopsCleanly(s);
});
