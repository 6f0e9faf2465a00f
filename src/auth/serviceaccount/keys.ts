/**
 * Service-account signing and verification keys (upstream keyutil + pkg/serviceaccount/jwt.go):
 * PEM private keys sign, PEM public (or private) keys verify. The JWS algorithm follows the key
 * (RSA: RS256; ECDSA P-256/P-384/P-521: ES256/ES384/ES512) and the key ID is upstream's
 * keyIDFromPublicKey: the unpadded base64url SHA-256 of the key's PKIX DER encoding.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface VerificationKey {
  readonly key: KeyObject;
  readonly alg: SigningAlgorithm;
  readonly kid: string;
}

export interface SigningKey extends VerificationKey {
  readonly privateKey: KeyObject;
}

export class KeyError extends Error {
  override readonly name = 'KeyError';
}

function algorithmOf(key: KeyObject): SigningAlgorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new KeyError(`unknown private key curve ${curve ?? ''}`);
  }
  throw new KeyError(`unknown key type ${key.asymmetricKeyType ?? ''}`);
}

/** upstream keyIDFromPublicKey. */
export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64url');
}

/** Every PEM block of a file's text, in order. */
function pemBlocks(text: string): { label: string; block: string }[] {
  return [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g)].map((m) => ({
    label: m[1]!,
    block: m[0],
  }));
}

/** The signing key of `--service-account-signing-key-file` (or the data dir's): one private key. */
export function signingKeyFromPem(text: string, source: string): SigningKey {
  const block = pemBlocks(text).find((b) => b.label.endsWith('PRIVATE KEY'));
  if (block === undefined)
    throw new KeyError(`failed to parse service-account-issuer-key-file: ${source}: no private key found`);
  const privateKey = createPrivateKey(block.block);
  const key = createPublicKey(privateKey);
  return { privateKey, key, alg: algorithmOf(key), kid: keyIdOf(key) };
}

/**
 * The verification keys of one `--service-account-key-file` (upstream keyutil.PublicKeysFromFile:
 * public keys, certificates' keys, or the public halves of private keys).
 */
export function verificationKeysFromPem(text: string, source: string): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const { label, block } of pemBlocks(text)) {
    let key: KeyObject;
    if (label.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(block));
    else if (label === 'PUBLIC KEY' || label === 'RSA PUBLIC KEY' || label === 'CERTIFICATE')
      key = createPublicKey(block);
    else continue;
    keys.push({ key, alg: algorithmOf(key), kid: keyIdOf(key) });
  }
  if (keys.length === 0)
    throw new KeyError(`data does not contain any valid RSA or ECDSA public keys: ${source}`);
  return keys;
}
