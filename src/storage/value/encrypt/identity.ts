/**
 * Upstream `identity.NewEncryptCheckTransformer`: stores plaintext, and refuses to hand back data
 * that carries an encryption prefix (so a misconfigured server never serves ciphertext as JSON).
 */
import type { FromStorage, Transformer } from '../transformer.js';
import { hasPrefix, TransformError } from '../transformer.js';

const encryptedPrefix = Buffer.from('k8s:enc:', 'utf8');

export const identityTransformer: Transformer = {
  fromStorage(data: Uint8Array): Promise<FromStorage> {
    if (hasPrefix(data, encryptedPrefix)) {
      return Promise.reject(new TransformError('identity transformer tried to read encrypted data'));
    }
    return Promise.resolve({ data, stale: false });
  },
  toStorage(data: Uint8Array): Promise<Uint8Array> {
    return Promise.resolve(data);
  },
};

/** Whether bytes carry an encryption prefix (the identity transformer's check). */
export function looksEncrypted(data: Uint8Array): boolean {
  return hasPrefix(data, encryptedPrefix);
}
