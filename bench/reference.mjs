// The reference build of ../shared/docs/reference-build.md as the benchmarks use it: where it is
// ($REF_DIR, default ~/ref: bin/ and the PKI its start.sh makes in pki/), kubeconfigs with its
// certificates, and kube-apiserver's command line as start.sh gives it.
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const refDir = process.env.REF_DIR ?? join(homedir(), 'ref');
export const refPki = join(refDir, 'pki');

/** A kubeconfig for the reference server on 127.0.0.1:`port` as `user` (a certificate in pki/). */
export function writeRefKubeconfig(file, port, user = 'admin') {
  const b64 = (f) => readFileSync(join(refPki, f)).toString('base64');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: ref\n  cluster:\n    server: https://127.0.0.1:${port}\n    certificate-authority-data: ${b64('ca.crt')}`,
      'users:',
      `- name: ${user}\n  user:\n    client-certificate-data: ${b64(`${user}.crt`)}\n    client-key-data: ${b64(`${user}.key`)}`,
      'contexts:',
      `- name: ref\n  context:\n    cluster: ref\n    user: ${user}`,
      'current-context: ref',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
}

/** kube-apiserver's flags: start.sh's, on `port` over `etcdUrl`, with extra feature gates. */
export function apiserverArgs({ port, etcdUrl, advertiseAddress = '192.0.2.2', gates = '' }) {
  return [
    `--advertise-address=${advertiseAddress}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--etcd-servers=${etcdUrl}`,
    '--service-cluster-ip-range=10.96.0.0/12',
    `--client-ca-file=${join(refPki, 'ca.crt')}`,
    `--tls-cert-file=${join(refPki, 'apiserver.crt')}`,
    `--tls-private-key-file=${join(refPki, 'apiserver.key')}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${join(refPki, 'sa.pub')}`,
    `--service-account-signing-key-file=${join(refPki, 'sa.key')}`,
    '--authorization-mode=Node,RBAC',
    '--allow-privileged=true',
    ...(gates ? [`--feature-gates=${gates}`] : []),
  ];
}
