/**
 * NW-02, the seed's own transcript with kubectl 1.27 against `nanokube serve`: a Service with
 * `clusterIP: 010.096.000.011` is created with the leading-zero warning, `get svc` shows the
 * stored text, and re-applying it without the zeros fails with `may not change once set`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { itStopsCleanly, kubectlSession, kubectlSkip } from './support/session.js';

const ns = 'e2e-service-ips';

const service = (clusterIP: string): string => `apiVersion: v1
kind: Service
metadata:
  name: leading-zero
  namespace: ${ns}
spec:
  clusterIP: ${clusterIP}
  selector:
    app: nginx
  ports:
  - port: 80
    targetPort: 80
`;

describe('#11 NW-02 the seed transcript: a leading-zero clusterIP', { skip: kubectlSkip }, () => {
  const s = kubectlSession();

  it('create namespace', async () => {
    await s.ok(['create', 'namespace', ns]);
    await s.namespaceReady(ns);
  });

  it('kubectl apply warns about the leading zero and creates the Service', async () => {
    const r = await s.run([
      'apply',
      '-f',
      s.kubectl.file('leading-zero-svc.yaml', service('010.096.000.011')),
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stderr,
      'Warning: spec.clusterIPs[0]: IP address was accepted, but will be invalid in a future Kubernetes release: ParseAddr("010.096.000.011"): IPv4 field has octet with leading zero\n',
    );
    assert.equal(r.stdout, 'service/leading-zero created\n');
  });

  it('kubectl get svc shows the address as it was written', async () => {
    const out = await s.ok(['get', 'svc', 'leading-zero', '-n', ns]);
    const [head, row] = out.trim().split('\n');
    assert.match(head!, /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
    assert.match(row!, /^leading-zero\s+ClusterIP\s+010\.096\.000\.011\s+<none>\s+80\/TCP\s+\d+s$/);
  });

  it('re-applying it without the zeros fails: clusterIPs may not change once set', async () => {
    const r = await s.run(['apply', '-f', s.kubectl.file('no-zero-svc.yaml', service('10.96.0.11'))]);
    assert.notEqual(r.code, 0);
    assert.equal(
      r.stderr,
      'The Service "leading-zero" is invalid: spec.clusterIPs[0]: Invalid value: []string{"10.96.0.11"}: may not change once set\n',
    );
  });

  itStopsCleanly(s);
});
