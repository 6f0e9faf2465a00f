/** Test support: client certificates signed by a server's CA, by a foreign CA, expired ones. */
import 'reflect-metadata';
import { createPublicKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as Parameters<typeof x509.cryptoProvider.set>[1]);
const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const subtle = webcrypto.subtle;

export interface CertAndKey {
  readonly cert: string;
  readonly key: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN ${label}-----\n${b64.endsWith('\n') ? b64 : `${b64}\n`}-----END ${label}-----\n`;
}

function unpem(text: string): ArrayBuffer {
  const buf = Buffer.from(text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

async function keyPairOf(keyPem: string): Promise<webcrypto.CryptoKeyPair> {
  const privateKey = await subtle.importKey('pkcs8', unpem(keyPem), algorithm, true, ['sign']);
  const spki = createPublicKey(keyPem).export({ type: 'spki', format: 'der' });
  const publicKey = await subtle.importKey('spki', spki, algorithm, true, ['verify']);
  return { privateKey, publicKey };
}

/** A new self-signed CA. */
export async function newCa(name = 'CN=someone-else-ca'): Promise<CertAndKey> {
  const keys = await subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const now = new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name,
    notBefore: now,
    notAfter: new Date(now.getTime() + 86_400_000),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
    ],
  });
  return {
    cert: cert.toString('pem'),
    key: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', keys.privateKey)),
  };
}

export interface LeafOptions {
  readonly notBefore?: Date;
  readonly notAfter?: Date;
  /** The extended key usages (clientAuth by default; serverAuth alone makes a serving certificate). */
  readonly extendedKeyUsages?: readonly ('clientAuth' | 'serverAuth')[];
}

/** A client certificate for `subject` (e.g. `CN=alice, O=dev`) signed by `ca`. */
export async function clientCert(
  ca: CertAndKey,
  subject: string | x509.JsonName,
  validity: LeafOptions = {},
): Promise<CertAndKey> {
  const caKeys = await keyPairOf(ca.key);
  const caCert = new x509.X509Certificate(ca.cert);
  const keys = await subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const notBefore = validity.notBefore ?? new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(webcrypto.getRandomValues(new Uint8Array(8)))
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    subject,
    issuer: caCert.subject,
    notBefore,
    notAfter: validity.notAfter ?? new Date(notBefore.getTime() + 86_400_000),
    signingAlgorithm: algorithm,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(
        (validity.extendedKeyUsages ?? ['clientAuth']).map((u) => x509.ExtendedKeyUsage[u]),
      ),
    ],
  });
  return {
    cert: cert.toString('pem'),
    key: pem('PRIVATE KEY', await subtle.exportKey('pkcs8', keys.privateKey)),
  };
}
