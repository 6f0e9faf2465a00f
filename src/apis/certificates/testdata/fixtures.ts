/** Test material: PKCS#10 requests and certificates made with @peculiar/x509 on Node's webcrypto. */
import { webcrypto } from 'node:crypto';
import type * as X509Lib from '@peculiar/x509';
import { encodePem } from '../pem.js';

type X509 = typeof X509Lib;

let lib: Promise<X509> | undefined;

async function x509(): Promise<X509> {
  lib ??= (async () => {
    await import('reflect-metadata');
    const m = await import('@peculiar/x509');
    m.cryptoProvider.set(webcrypto as Parameters<typeof m.cryptoProvider.set>[1]);
    return m;
  })();
  return lib;
}

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const rsa = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
} as const;

export type KeyKind = 'ecdsa' | 'rsa' | 'ed25519';

function algorithm(kind: KeyKind): Parameters<typeof webcrypto.subtle.generateKey>[0] {
  if (kind === 'rsa') return rsa;
  if (kind === 'ed25519') return { name: 'Ed25519' };
  return ecdsa;
}

/** A PEM CERTIFICATE REQUEST for `cn`, signed by a fresh key of `kind`. */
export async function makeCsr(cn: string, kind: KeyKind = 'ecdsa'): Promise<string> {
  const m = await x509();
  const alg = algorithm(kind);
  const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const csr = await m.Pkcs10CertificateRequestGenerator.create({
    name: `CN=${cn}`,
    keys,
    signingAlgorithm: alg,
  });
  return encodePem('CERTIFICATE REQUEST', new Uint8Array(csr.rawData));
}

/** A self-signed PEM CERTIFICATE; `ca` adds basicConstraints (cA as given), undefined none. */
export async function makeCert(cn: string, ca: boolean | undefined): Promise<string> {
  const m = await x509();
  const keys = await webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify']);
  const now = Date.now();
  const cert = await m.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${cn}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 3600_000),
    keys,
    signingAlgorithm: ecdsa,
    extensions: ca === undefined ? [] : [new m.BasicConstraintsExtension(ca, undefined, true)],
  });
  return encodePem('CERTIFICATE', new Uint8Array(cert.rawData));
}

/** The same request with one signature byte flipped (still well-formed DER). */
export function corruptSignature(pem: string): string {
  const b64 = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const der = Buffer.from(b64, 'base64');
  der[der.length - 5] = der[der.length - 5]! ^ 0xff;
  return encodePem('CERTIFICATE REQUEST', der);
}

export const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
