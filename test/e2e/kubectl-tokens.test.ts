/**
 * With kubectl 1.27: `kubectl create token` (plain, `--audience`,
 * `--duration`, `--bound-object-kind Pod --bound-object-name`) against `nanokube serve`, then a
 * kubeconfig holding that token: `kubectl auth whoami` (SelfSubjectReview, AM-10; kubectl 1.27
 * has it under `auth` — `alpha auth whoami` was kubectl 1.26's and 1.27 answers "No alpha commands
 * are available") prints the service-account user and groups, and so does kubectl 1.28's when it
 * is installed. A token for another audience is refused (401). whoami is allowed to every
 * authenticated user by upstream's system:basic-user, so this stays valid once RBAC enforces.
 */
import assert from 'node:assert/strict';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { findKubectl } from '../support/kubectl.js';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';
import { kubectlFor } from './support/kubectl-runner.js';

const issuer = 'https://kubernetes.default.svc.cluster.local';

/** kubectl 1.28 (the first with `kubectl auth whoami`) beside kubectl 1.27, when installed. */
function kubectl128(): string | undefined {
  const bin = findKubectl();
  if (bin === undefined) return undefined;
  const p = join(dirname(realpathSync(bin)), 'kubectl.1.28');
  return existsSync(p) ? p : undefined;
}

describe('kubectl 1.27: create token and whoami with a service-account token', { skip: kubectlSkip }, () => {
  const s = kubectlSession({ args: ['--nodes', '0'] });
  const ns = ['-n', 'tok'];
  let robotUID = '';

  /** A kubeconfig whose user is `token`, written in the server's work dir. */
  const tokenKubeconfig = (name: string, token: string): string =>
    s.kubectl.file(
      `${name}.kubeconfig`,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: nanokube',
        '  cluster:',
        `    server: ${s.server.url}`,
        `    certificate-authority: ${join(s.server.dataDir, 'pki', 'ca.crt')}`,
        'users:',
        `- name: ${name}`,
        '  user:',
        `    token: ${token}`,
        'contexts:',
        `- name: ${name}`,
        '  context:',
        '    cluster: nanokube',
        `    user: ${name}`,
        `current-context: ${name}`,
        '',
      ].join('\n'),
    );

  it('kubectl create token issues a bound token for the service account', async () => {
    await s.ok(['create', 'namespace', 'tok']);
    await s.ok([...ns, 'create', 'serviceaccount', 'robot']);
    robotUID = (
      await s.ok([...ns, 'get', 'serviceaccount', 'robot', '-o', 'jsonpath={.metadata.uid}'])
    ).trim();
    const token = (await s.ok([...ns, 'create', 'token', 'robot'])).trim();
    const claims = decodeJwt(token);
    assert.equal(claims.iss, issuer);
    assert.equal(claims.sub, 'system:serviceaccount:tok:robot');
    assert.deepEqual(claims.aud, [issuer]);
    assert.equal(claims.exp! - claims.iat!, 3600);
    assert.deepEqual(claims['kubernetes.io'], {
      namespace: 'tok',
      serviceaccount: { name: 'robot', uid: robotUID },
    });
  });

  it('kubectl auth whoami with the token prints the service-account user and groups (AM-10)', async () => {
    const token = (await s.ok([...ns, 'create', 'token', 'robot'])).trim();
    const out = await s.ok(['auth', 'whoami'], {
      env: { KUBECONFIG: tokenKubeconfig('robot', token) },
    });
    assert.match(out, /^ATTRIBUTE\s+VALUE$/m);
    assert.match(out, /^Username\s+system:serviceaccount:tok:robot$/m);
    assert.match(out, new RegExp(`^UID\\s+${robotUID}$`, 'm'));
    assert.match(
      out,
      /^Groups\s+\[system:serviceaccounts system:serviceaccounts:tok system:authenticated\]$/m,
    );
    const json = JSON.parse(
      await s.ok(['auth', 'whoami', '-o', 'json'], {
        env: { KUBECONFIG: tokenKubeconfig('robot', token) },
      }),
    ) as { kind: string; apiVersion: string; status: { userInfo: { username: string } } };
    assert.equal(json.kind, 'SelfSubjectReview');
    assert.equal(json.apiVersion, 'authentication.k8s.io/v1beta1');
    assert.equal(json.status.userInfo.username, 'system:serviceaccount:tok:robot');
  });

  it('--audience and --duration shape the token; a token for another audience is refused', async () => {
    const token = (
      await s.ok([...ns, 'create', 'token', 'robot', '--audience', 'vault', '--duration', '20m'])
    ).trim();
    const claims = decodeJwt(token);
    assert.deepEqual(claims.aud, ['vault']);
    assert.equal(claims.exp! - claims.iat!, 1200);
    const r = await s.run(['auth', 'whoami'], {
      env: { KUBECONFIG: tokenKubeconfig('vault', token) },
    });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /error: You must be logged in to the server \(Unauthorized\)/);
    const tooShort = await s.run([...ns, 'create', 'token', 'robot', '--duration', '5m']);
    assert.notEqual(tooShort.code, 0);
    assert.match(tooShort.stderr, /may not specify a duration less than 10 minutes/);
  });

  it('--bound-object-kind Pod binds the token to the pod; whoami shows it; deleting the pod ends it', async () => {
    const manifest = s.kubectl.file(
      'pod.yaml',
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  name: worker',
        '  namespace: tok',
        'spec:',
        '  serviceAccountName: robot',
        '  containers:',
        '  - name: c',
        '    image: busybox',
        '',
      ].join('\n'),
    );
    await s.ok(['apply', '-f', manifest]);
    const podUID = (await s.ok([...ns, 'get', 'pod', 'worker', '-o', 'jsonpath={.metadata.uid}'])).trim();
    const token = (
      await s.ok([
        ...ns,
        'create',
        'token',
        'robot',
        '--bound-object-kind',
        'Pod',
        '--bound-object-name',
        'worker',
      ])
    ).trim();
    assert.deepEqual((decodeJwt(token)['kubernetes.io'] as Record<string, unknown>)['pod'], {
      name: 'worker',
      uid: podUID,
    });
    const kubeconfig = tokenKubeconfig('bound', token);
    const out = await s.ok(['auth', 'whoami'], { env: { KUBECONFIG: kubeconfig } });
    assert.match(out, /^Extra: authentication\.kubernetes\.io\/pod-name\s+\[worker\]$/m);
    assert.match(
      out,
      new RegExp(`^Extra: authentication\\.kubernetes\\.io/pod-uid\\s+\\[${podUID}\\]$`, 'm'),
    );
    await s.ok([...ns, 'delete', 'pod', 'worker', '--grace-period=0', '--force']);
    const gone = await s.run(['auth', 'whoami'], { env: { KUBECONFIG: kubeconfig } });
    assert.notEqual(gone.code, 0);
    assert.match(gone.stderr, /Unauthorized/);
  });

  const newer = kubectl128();
  it(
    'kubectl 1.28 auth whoami prints the same user',
    { skip: newer === undefined ? 'kubectl.1.28 not installed' : false },
    async () => {
      const token = (await s.ok([...ns, 'create', 'token', 'robot'])).trim();
      const k = kubectlFor(s.server, newer);
      const r = await k.run(['auth', 'whoami'], {
        env: { KUBECONFIG: tokenKubeconfig('robot128', token) },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^Username\s+system:serviceaccount:tok:robot$/m);
    },
  );

  itStopsCleanly(s);
});
