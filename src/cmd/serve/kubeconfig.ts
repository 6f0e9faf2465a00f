/** Writes a kubeconfig that kubectl uses with no flags (admin client certificate, our CA). */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringify } from 'yaml';
import type { Pki } from './pki.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

export function kubeconfigText(server: string, pki: Pki, name = 'nanokube'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'certificate-authority-data': b64(pki.caCert) } }],
    users: [
      {
        name: `${name}-admin`,
        user: { 'client-certificate-data': b64(pki.adminCert), 'client-key-data': b64(pki.adminKey) },
      },
    ],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin`, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}

export async function writeKubeconfig(file: string, server: string, pki: Pki): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, kubeconfigText(server, pki), { mode: 0o600 });
}
