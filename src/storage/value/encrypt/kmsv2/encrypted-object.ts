/**
 * The value KMS v2 stores after its prefix: upstream's EncryptedObject protobuf
 * (k8s.io/apiserver .../envelope/kmsv2/v2/api.proto: encryptedData = 1, keyID = 2,
 * encryptedDEK = 3, map<string, bytes> annotations = 4), with upstream's validation and DEK cache key.
 */
import { createHash } from 'node:crypto';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { TransformError } from '../../transformer.js';
import { readBytesMapEntry, readFields, writeBytesMap } from './api.js';

export interface EncryptedObject {
  readonly encryptedData: Uint8Array;
  readonly keyID: string;
  readonly encryptedDEK: Uint8Array;
  readonly annotations: ReadonlyMap<string, Uint8Array>;
}

const annotationsMaxSize = 32 * 1024;
const keyIDMaxSize = 1024;
const encryptedDEKMaxSize = 1024;

export function encodeEncryptedObject(o: EncryptedObject): Uint8Array {
  validateEncryptedObject(o);
  const w = new BinaryWriter();
  const ld = WireType.LengthDelimited;
  if (o.encryptedData.byteLength > 0) w.tag(1, ld).bytes(o.encryptedData);
  if (o.keyID !== '') w.tag(2, ld).string(o.keyID);
  if (o.encryptedDEK.byteLength > 0) w.tag(3, ld).bytes(o.encryptedDEK);
  writeBytesMap(w, 4, o.annotations);
  return w.finish();
}

export function decodeEncryptedObject(bytes: Uint8Array): EncryptedObject {
  let encryptedData: Uint8Array = new Uint8Array(0);
  let keyID = '';
  let encryptedDEK: Uint8Array = new Uint8Array(0);
  const annotations = new Map<string, Uint8Array>();
  try {
    readFields(bytes, (no, wt, r) => {
      if (wt !== WireType.LengthDelimited) return false;
      if (no === 1) encryptedData = r.bytes();
      else if (no === 2) keyID = r.string();
      else if (no === 3) encryptedDEK = r.bytes();
      else if (no === 4) readBytesMapEntry(r, annotations);
      else return false;
      return true;
    });
  } catch (err) {
    throw new TransformError(`proto: EncryptedObject: ${err instanceof Error ? err.message : String(err)}`);
  }
  const o = { encryptedData, keyID, encryptedDEK, annotations };
  validateEncryptedObject(o);
  return o;
}

/** Upstream ValidateKeyID. */
export function validateKeyID(keyID: string): string | undefined {
  if (keyID.length === 0) return 'keyID is empty';
  const size = Buffer.byteLength(keyID, 'utf8');
  if (size > keyIDMaxSize) return `keyID is ${size} bytes, which exceeds the max size of ${keyIDMaxSize}`;
  return undefined;
}

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function annotationKeyErrors(k: string): string[] {
  // apimachinery IsFullyQualifiedDomainName.
  const name = k.endsWith('.') ? k.slice(0, -1) : k;
  const at = `annotations: Invalid value: ${JSON.stringify(k)}: `;
  if (name.length === 0) return ['annotations: Required value'];
  const parts = name.split('.');
  if (parts.length < 2) return [`${at}should be a domain with at least two segments separated by dots`];
  if (name.length > 253) return [`${at}must be no more than 253 characters`];
  for (const p of parts) {
    if (p.length > 63 || !dns1123Label.test(p)) {
      return [
        `${at}a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ];
    }
  }
  return [];
}

export function validateEncryptedObject(o: EncryptedObject): void {
  if (o.encryptedData.byteLength === 0) throw new TransformError('encrypted data is empty');
  if (o.encryptedDEK.byteLength === 0) {
    throw new TransformError('failed to validate encrypted DEK: encrypted DEK is empty');
  }
  if (o.encryptedDEK.byteLength > encryptedDEKMaxSize) {
    throw new TransformError(
      `failed to validate encrypted DEK: encrypted DEK is ${o.encryptedDEK.byteLength} bytes, which exceeds the max size of ${encryptedDEKMaxSize}`,
    );
  }
  const keyErr = validateKeyID(o.keyID);
  if (keyErr !== undefined) throw new TransformError(`failed to validate key id: ${keyErr}`);
  const errs: string[] = [];
  let total = 0;
  for (const [k, v] of o.annotations) {
    errs.push(...annotationKeyErrors(k));
    total += Buffer.byteLength(k, 'utf8') + v.byteLength;
  }
  if (total > annotationsMaxSize) {
    errs.push(`total size of annotations is ${total}, which exceeds the max size of ${annotationsMaxSize}`);
  }
  if (errs.length > 0) {
    const msg = errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`;
    throw new TransformError(`failed to validate annotations: ${msg}`);
  }
}

/**
 * Upstream generateCacheKey (cryptobyte): uint16-length-prefixed encrypted DEK and key ID, then,
 * when there are annotations, their count (uint32) and each sorted key and value length-prefixed.
 * The cache is keyed by its SHA-256.
 */
export function dekCacheKey(
  encryptedDEK: Uint8Array,
  keyID: string,
  annotations: ReadonlyMap<string, Uint8Array>,
): string {
  const parts: Buffer[] = [];
  const prefixed = (b: Uint8Array): void => {
    if (b.byteLength > 0xffff)
      throw new TransformError('cryptobyte: pending child length exceeds 2-byte length prefix');
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.byteLength);
    parts.push(len, Buffer.from(b));
  };
  prefixed(encryptedDEK);
  prefixed(Buffer.from(keyID, 'utf8'));
  if (annotations.size > 0) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(annotations.size);
    parts.push(count);
    for (const k of [...annotations.keys()].sort()) {
      prefixed(Buffer.from(k, 'utf8'));
      prefixed(annotations.get(k)!);
    }
  }
  return createHash('sha256').update(Buffer.concat(parts)).digest('hex');
}
