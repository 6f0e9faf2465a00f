/**
 * The parts of Go's crypto/x509 that certificates.k8s.io validation relies on, synchronous and on
 * Node's crypto: parsing a PKCS#10 request and checking its self-signature
 * (`ParseCertificateRequest` + `CheckSignature`, with Go's error texts), and parsing certificates
 * (`ParseCertificate(s)`) far enough to know whether each is a CA. Messages for well-formed input
 * (bad signature, unsupported or insecure algorithm, key mismatch) are Go's; messages for
 * malformed DER name the same failure class as Go's but not always its exact wording.
 */
import { X509Certificate, constants, createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import {
  DerError,
  bytesOf,
  children,
  contentOf,
  derTags,
  expect,
  isContext,
  isUniversal,
  oidOf,
  readTlv,
} from './der.js';
import type { Tlv } from './der.js';

type PublicKeyAlgorithm = 'RSA' | 'DSA' | 'ECDSA' | 'Ed25519';
type Hash = 'md5' | 'sha1' | 'sha256' | 'sha384' | 'sha512';

interface SignatureAlgorithm {
  readonly name: string;
  /** undefined: no digest is taken (Ed25519) or the algorithm is unimplemented (MD2). */
  readonly hash: Hash | undefined;
  readonly pubKeyAlgo: PublicKeyAlgorithm;
  readonly pss?: boolean;
}

const signatureAlgorithms: Readonly<Record<string, SignatureAlgorithm>> = {
  '1.2.840.113549.1.1.2': { name: 'MD2-RSA', hash: undefined, pubKeyAlgo: 'RSA' },
  '1.2.840.113549.1.1.4': { name: 'MD5-RSA', hash: 'md5', pubKeyAlgo: 'RSA' },
  '1.2.840.113549.1.1.5': { name: 'SHA1-RSA', hash: 'sha1', pubKeyAlgo: 'RSA' },
  '1.3.14.3.2.29': { name: 'SHA1-RSA', hash: 'sha1', pubKeyAlgo: 'RSA' },
  '1.2.840.113549.1.1.11': { name: 'SHA256-RSA', hash: 'sha256', pubKeyAlgo: 'RSA' },
  '1.2.840.113549.1.1.12': { name: 'SHA384-RSA', hash: 'sha384', pubKeyAlgo: 'RSA' },
  '1.2.840.113549.1.1.13': { name: 'SHA512-RSA', hash: 'sha512', pubKeyAlgo: 'RSA' },
  '1.2.840.10040.4.3': { name: 'DSA-SHA1', hash: 'sha1', pubKeyAlgo: 'DSA' },
  '2.16.840.1.101.3.4.3.2': { name: 'DSA-SHA256', hash: 'sha256', pubKeyAlgo: 'DSA' },
  '1.2.840.10045.4.1': { name: 'ECDSA-SHA1', hash: 'sha1', pubKeyAlgo: 'ECDSA' },
  '1.2.840.10045.4.3.2': { name: 'ECDSA-SHA256', hash: 'sha256', pubKeyAlgo: 'ECDSA' },
  '1.2.840.10045.4.3.3': { name: 'ECDSA-SHA384', hash: 'sha384', pubKeyAlgo: 'ECDSA' },
  '1.2.840.10045.4.3.4': { name: 'ECDSA-SHA512', hash: 'sha512', pubKeyAlgo: 'ECDSA' },
  '1.3.101.112': { name: 'Ed25519', hash: undefined, pubKeyAlgo: 'Ed25519' },
};

const rsaPssOid = '1.2.840.113549.1.1.10';
const pssHashes: Readonly<Record<string, Hash>> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const hashLength: Readonly<Record<Hash, number>> = { md5: 16, sha1: 20, sha256: 32, sha384: 48, sha512: 64 };

const publicKeyAlgorithms: Readonly<Record<string, PublicKeyAlgorithm>> = {
  '1.2.840.113549.1.1.1': 'RSA',
  '1.2.840.10040.4.1': 'DSA',
  '1.2.840.10045.2.1': 'ECDSA',
  '1.3.101.112': 'Ed25519',
};

/** Go's named curves (P-224, P-256, P-384, P-521). */
const supportedCurves = new Set(['1.3.132.0.33', '1.2.840.10045.3.1.7', '1.3.132.0.34', '1.3.132.0.35']);

/** Go's `%T` of each parsed key type. */
const goKeyType: Readonly<Record<PublicKeyAlgorithm, string>> = {
  RSA: '*rsa.PublicKey',
  DSA: '*dsa.PublicKey',
  ECDSA: '*ecdsa.PublicKey',
  Ed25519: 'ed25519.PublicKey',
};

export class X509Error extends Error {}

const errUnsupportedAlgorithm = 'x509: cannot verify signature: algorithm unimplemented';

function derFailure<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof DerError) throw new X509Error(err.message);
    throw err;
  }
}

interface ParsedKey {
  readonly algo: PublicKeyAlgorithm;
  readonly key: KeyObject;
}

/** Go's parsePublicKey for the algorithms it knows; undefined for the others. */
function parsePublicKey(buf: Uint8Array, spki: Tlv): ParsedKey | undefined {
  const [algId, bits] = children(buf, spki);
  const [oidTlv, params] = children(buf, expect(algId, derTags.sequence));
  const algo = publicKeyAlgorithms[oidOf(buf, expect(oidTlv, derTags.oid))];
  expect(bits, derTags.bitString);
  if (algo === undefined) return undefined;
  if (algo === 'ECDSA') {
    if (!isUniversal(params, derTags.oid))
      throw new X509Error('x509: failed to parse ECDSA parameters as named curve');
    if (!supportedCurves.has(oidOf(buf, params))) throw new X509Error('x509: unsupported elliptic curve');
  }
  if (algo === 'Ed25519' && params !== undefined) {
    throw new X509Error('x509: Ed25519 key encoded with illegal parameters');
  }
  try {
    return {
      algo,
      key: createPublicKey({ key: Buffer.from(bytesOf(buf, spki)), format: 'der', type: 'spki' }),
    };
  } catch {
    const what: Record<PublicKeyAlgorithm, string> = {
      RSA: 'x509: invalid RSA public key',
      DSA: 'x509: invalid DSA public key',
      ECDSA: 'x509: failed to unmarshal elliptic curve point',
      Ed25519: 'x509: wrong Ed25519 public key size',
    };
    throw new X509Error(what[algo]);
  }
}

/** Go's getSignatureAlgorithmFromAI: undefined for an unknown algorithm. */
function signatureAlgorithm(buf: Uint8Array, algId: Tlv): SignatureAlgorithm | undefined {
  const [oidTlv, params] = children(buf, expect(algId, derTags.sequence));
  const oid = oidOf(buf, expect(oidTlv, derTags.oid));
  if (oid !== rsaPssOid) {
    const known = signatureAlgorithms[oid];
    if (known?.pubKeyAlgo === 'Ed25519' && params !== undefined) return undefined;
    return known;
  }
  // RSASSA-PSS: the digest is named in the parameters; only SHA-256/384/512 are known.
  if (!isUniversal(params, derTags.sequence)) return undefined;
  const hashParam = children(buf, params).find((t) => isContext(t, 0));
  if (hashParam === undefined) return undefined;
  const hashAlgId = children(buf, hashParam)[0];
  if (!isUniversal(hashAlgId, derTags.sequence)) return undefined;
  const hashOid = children(buf, hashAlgId)[0];
  if (!isUniversal(hashOid, derTags.oid)) return undefined;
  const hash = pssHashes[oidOf(buf, hashOid)];
  if (hash === undefined) return undefined;
  return { name: `${hash.toUpperCase()}-RSAPSS`, hash, pubKeyAlgo: 'RSA', pss: true };
}

export interface CertificateRequest {
  readonly rawTbs: Uint8Array;
  readonly signature: Uint8Array;
  readonly signatureAlgorithm: SignatureAlgorithm | undefined;
  readonly publicKey: ParsedKey | undefined;
}

/** Go's x509.ParseCertificateRequest on DER bytes; throws X509Error with Go's message. */
export function parseCertificateRequest(der: Uint8Array): CertificateRequest {
  return derFailure(() => {
    const outer = expect(readTlv(der, 0), derTags.sequence);
    if (outer.end !== der.length) throw new X509Error('asn1: syntax error: trailing data');
    const [tbs, sigAlg, sigValue] = children(der, outer);
    const tbsTlv = expect(tbs, derTags.sequence);
    const [version, subject, spki, attributes] = children(der, tbsTlv);
    expect(version, derTags.integer);
    expect(subject, derTags.sequence);
    const spkiTlv = expect(spki, derTags.sequence);
    if (!isContext(attributes, 0)) throw new X509Error("asn1: structure error: tags don't match");
    const sigTlv = expect(sigValue, derTags.bitString);
    const publicKey = parsePublicKey(der, spkiTlv);
    const sig = contentOf(der, sigTlv);
    if (sig.length === 0) throw new X509Error('asn1: syntax error: zero length BIT STRING');
    return {
      rawTbs: bytesOf(der, tbsTlv),
      signature: sig.subarray(1),
      signatureAlgorithm: signatureAlgorithm(der, expect(sigAlg, derTags.sequence)),
      publicKey,
    };
  });
}

/**
 * Go's CertificateRequest.CheckSignature (SHA-1 allowed, MD5 refused): undefined when the
 * signature verifies, else Go's error text.
 */
export function checkRequestSignature(csr: CertificateRequest): string | undefined {
  const algo = csr.signatureAlgorithm;
  if (algo === undefined) return errUnsupportedAlgorithm;
  if (algo.hash === undefined && algo.pubKeyAlgo !== 'Ed25519') return errUnsupportedAlgorithm;
  if (algo.hash === 'md5') return `x509: cannot verify signature: insecure algorithm ${algo.name}`;
  const pub = csr.publicKey;
  if (pub === undefined || pub.algo === 'DSA') return errUnsupportedAlgorithm;
  if (pub.algo !== algo.pubKeyAlgo) {
    return `x509: signature algorithm specifies an ${algo.pubKeyAlgo} public key, but have public key of type ${goKeyType[pub.algo]}`;
  }
  const data = csr.rawTbs;
  const sig = csr.signature;
  const ok = (f: () => boolean): boolean => {
    try {
      return f();
    } catch {
      return false;
    }
  };
  switch (pub.algo) {
    case 'RSA': {
      const hash = algo.hash!;
      const key =
        algo.pss === true
          ? { key: pub.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: hashLength[hash] }
          : { key: pub.key, padding: constants.RSA_PKCS1_PADDING };
      return ok(() => verify(hash, data, key, sig)) ? undefined : 'crypto/rsa: verification error';
    }
    case 'ECDSA':
      return ok(() => verify(algo.hash, data, { key: pub.key, dsaEncoding: 'der' }, sig))
        ? undefined
        : 'x509: ECDSA verification failure';
    case 'Ed25519':
      return ok(() => verify(null, data, pub.key, sig)) ? undefined : 'x509: Ed25519 verification failure';
  }
}

export interface ParsedCertificate {
  /** Go's Certificate.IsCA: a basicConstraints extension with cA true. */
  readonly isCA: boolean;
  /** Go's BasicConstraintsValid: the certificate has a basicConstraints extension. */
  readonly basicConstraintsValid: boolean;
}

const basicConstraintsOid = '2.5.29.19';

function basicConstraints(der: Uint8Array, cert: Tlv): ParsedCertificate {
  const tbs = expect(children(der, cert)[0], derTags.sequence);
  const extsWrapper = children(der, tbs).find((t) => isContext(t, 3));
  if (extsWrapper === undefined) return { isCA: false, basicConstraintsValid: false };
  const exts = expect(children(der, extsWrapper)[0], derTags.sequence);
  for (const ext of children(der, exts)) {
    const parts = children(der, expect(ext, derTags.sequence));
    if (oidOf(der, expect(parts[0], derTags.oid)) !== basicConstraintsOid) continue;
    const value = expect(parts[parts.length - 1], derTags.octetString);
    const inner = contentOf(der, value);
    const bc = expect(readTlv(inner, 0), derTags.sequence);
    const first = children(inner, bc)[0];
    const isCA = isUniversal(first, derTags.boolean) && inner[first.contentStart] !== 0;
    return { isCA, basicConstraintsValid: true };
  }
  return { isCA: false, basicConstraintsValid: false };
}

function parseOne(der: Uint8Array, at: number): { cert: ParsedCertificate; end: number } {
  let tlv: Tlv;
  try {
    tlv = expect(readTlv(der, at), derTags.sequence);
  } catch {
    throw new X509Error('x509: malformed certificate');
  }
  const own = der.subarray(tlv.start, tlv.end);
  try {
    new X509Certificate(Buffer.from(own));
  } catch {
    throw new X509Error('x509: malformed certificate');
  }
  try {
    return { cert: basicConstraints(der, tlv), end: tlv.end };
  } catch {
    throw new X509Error('x509: malformed extensions');
  }
}

/** Go's x509.ParseCertificate: exactly one certificate. */
export function parseCertificate(der: Uint8Array): ParsedCertificate {
  const { cert, end } = parseOne(der, 0);
  if (end !== der.length) throw new X509Error('x509: trailing data');
  return cert;
}

/** Go's x509.ParseCertificates: concatenated certificates (none for empty input). */
export function parseCertificates(der: Uint8Array): ParsedCertificate[] {
  const out: ParsedCertificate[] = [];
  let at = 0;
  while (at < der.length) {
    const { cert, end } = parseOne(der, at);
    out.push(cert);
    at = end;
  }
  return out;
}
