/**
 * The KMS v2 plugin API of Kubernetes v1.27 (k8s.io/kms apis/v2/api.proto, proto package `v2`,
 * service `KeyManagementService`; plugins report version "v2beta1"), encoded by hand on
 * @bufbuild/protobuf's wire reader and writer, and as a grpc-js service definition both the
 * API server's client and test plugins use.
 */
import type { ServiceDefinition } from '@grpc/grpc-js';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { BinaryReader } from '@bufbuild/protobuf/wire';
import { readFields } from '../../../../machinery/protobuf/read-fields.js';

export { readFields };

/** What a healthy v1.27 plugin answers in StatusResponse.version. */
export const kmsAPIVersion = 'v2beta1';

export type StatusRequest = Record<string, never>;

export interface StatusResponse {
  readonly version: string;
  readonly healthz: string;
  readonly keyId: string;
}

export interface DecryptRequest {
  readonly ciphertext: Uint8Array;
  readonly uid: string;
  readonly keyId: string;
  readonly annotations: ReadonlyMap<string, Uint8Array>;
}

export interface DecryptResponse {
  readonly plaintext: Uint8Array;
}

export interface EncryptRequest {
  readonly plaintext: Uint8Array;
  readonly uid: string;
}

export interface EncryptResponse {
  readonly ciphertext: Uint8Array;
  readonly keyId: string;
  readonly annotations: ReadonlyMap<string, Uint8Array>;
}

/** One map<string, bytes> field: an entry message per key (key = 1, value = 2), keys sorted. */
export function writeBytesMap(w: BinaryWriter, field: number, map: ReadonlyMap<string, Uint8Array>): void {
  for (const k of [...map.keys()].sort()) {
    w.tag(field, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(k);
    w.tag(2, WireType.LengthDelimited).bytes(map.get(k)!);
    w.join();
  }
}

export function readBytesMapEntry(r: BinaryReader, into: Map<string, Uint8Array>): void {
  const end = r.uint32() + r.pos;
  let key = '';
  let value: Uint8Array = new Uint8Array(0);
  while (r.pos < end) {
    const [no, wt] = r.tag();
    if (no === 1 && wt === WireType.LengthDelimited) key = r.string();
    else if (no === 2 && wt === WireType.LengthDelimited) value = r.bytes();
    else r.skip(wt, no);
  }
  into.set(key, value);
}

const ld = WireType.LengthDelimited;

function writeString(w: BinaryWriter, no: number, s: string): void {
  if (s !== '') w.tag(no, ld).string(s);
}

function writeBytes(w: BinaryWriter, no: number, b: Uint8Array): void {
  if (b.byteLength > 0) w.tag(no, ld).bytes(b);
}

export const codec = {
  statusRequest: {
    encode: (): Buffer => Buffer.alloc(0),
    decode: (bytes: Uint8Array): StatusRequest => {
      readFields(bytes, () => false);
      return {};
    },
  },
  statusResponse: {
    encode(m: StatusResponse): Buffer {
      const w = new BinaryWriter();
      writeString(w, 1, m.version);
      writeString(w, 2, m.healthz);
      writeString(w, 3, m.keyId);
      return Buffer.from(w.finish());
    },
    decode(bytes: Uint8Array): StatusResponse {
      let version = '';
      let healthz = '';
      let keyId = '';
      readFields(bytes, (no, wt, r) => {
        if (wt !== ld) return false;
        if (no === 1) version = r.string();
        else if (no === 2) healthz = r.string();
        else if (no === 3) keyId = r.string();
        else return false;
        return true;
      });
      return { version, healthz, keyId };
    },
  },
  decryptRequest: {
    encode(m: DecryptRequest): Buffer {
      const w = new BinaryWriter();
      writeBytes(w, 1, m.ciphertext);
      writeString(w, 2, m.uid);
      writeString(w, 3, m.keyId);
      writeBytesMap(w, 4, m.annotations);
      return Buffer.from(w.finish());
    },
    decode(bytes: Uint8Array): DecryptRequest {
      let ciphertext: Uint8Array = new Uint8Array(0);
      let uid = '';
      let keyId = '';
      const annotations = new Map<string, Uint8Array>();
      readFields(bytes, (no, wt, r) => {
        if (wt !== ld) return false;
        if (no === 1) ciphertext = r.bytes();
        else if (no === 2) uid = r.string();
        else if (no === 3) keyId = r.string();
        else if (no === 4) readBytesMapEntry(r, annotations);
        else return false;
        return true;
      });
      return { ciphertext, uid, keyId, annotations };
    },
  },
  decryptResponse: {
    encode(m: DecryptResponse): Buffer {
      const w = new BinaryWriter();
      writeBytes(w, 1, m.plaintext);
      return Buffer.from(w.finish());
    },
    decode(bytes: Uint8Array): DecryptResponse {
      let plaintext: Uint8Array = new Uint8Array(0);
      readFields(bytes, (no, wt, r) => {
        if (no !== 1 || wt !== ld) return false;
        plaintext = r.bytes();
        return true;
      });
      return { plaintext };
    },
  },
  encryptRequest: {
    encode(m: EncryptRequest): Buffer {
      const w = new BinaryWriter();
      writeBytes(w, 1, m.plaintext);
      writeString(w, 2, m.uid);
      return Buffer.from(w.finish());
    },
    decode(bytes: Uint8Array): EncryptRequest {
      let plaintext: Uint8Array = new Uint8Array(0);
      let uid = '';
      readFields(bytes, (no, wt, r) => {
        if (wt !== ld) return false;
        if (no === 1) plaintext = r.bytes();
        else if (no === 2) uid = r.string();
        else return false;
        return true;
      });
      return { plaintext, uid };
    },
  },
  encryptResponse: {
    encode(m: EncryptResponse): Buffer {
      const w = new BinaryWriter();
      writeBytes(w, 1, m.ciphertext);
      writeString(w, 2, m.keyId);
      writeBytesMap(w, 3, m.annotations);
      return Buffer.from(w.finish());
    },
    decode(bytes: Uint8Array): EncryptResponse {
      let ciphertext: Uint8Array = new Uint8Array(0);
      let keyId = '';
      const annotations = new Map<string, Uint8Array>();
      readFields(bytes, (no, wt, r) => {
        if (wt !== ld) return false;
        if (no === 1) ciphertext = r.bytes();
        else if (no === 2) keyId = r.string();
        else if (no === 3) readBytesMapEntry(r, annotations);
        else return false;
        return true;
      });
      return { ciphertext, keyId, annotations };
    },
  },
};

function method<Req, Res>(
  name: string,
  req: { encode(m: Req): Buffer; decode(b: Uint8Array): Req },
  res: { encode(m: Res): Buffer; decode(b: Uint8Array): Res },
): ServiceDefinition[string] {
  return {
    path: `/v2.KeyManagementService/${name}`,
    requestStream: false,
    responseStream: false,
    requestSerialize: (m: Req) => req.encode(m),
    requestDeserialize: (b: Buffer) => req.decode(b),
    responseSerialize: (m: Res) => res.encode(m),
    responseDeserialize: (b: Buffer) => res.decode(b),
    originalName: name,
  };
}

/** `v2.KeyManagementService` as grpc-js wants it (client and server). */
export const keyManagementService: ServiceDefinition = {
  Status: method('Status', codec.statusRequest, codec.statusResponse),
  Decrypt: method('Decrypt', codec.decryptRequest, codec.decryptResponse),
  Encrypt: method('Encrypt', codec.encryptRequest, codec.encryptResponse),
};
