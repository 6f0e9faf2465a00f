/**
 * A KMS v2 plugin for tests (AM-10): a grpc-js server on a unix socket implementing Kubernetes
 * v1.27's `v2.KeyManagementService` (Status, Encrypt, Decrypt) with local AES-256-GCM keys, one per
 * key ID. Tests can rotate the key ID (old key IDs still decrypt, as a real KMS would), make every
 * call fail (the plugin is down), or stop it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server, ServerCredentials, status as grpcStatus } from '@grpc/grpc-js';
import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { keyManagementService, kmsAPIVersion } from '../../src/storage/value/encrypt/kmsv2/api.js';
import type {
  DecryptRequest,
  DecryptResponse,
  EncryptRequest,
  EncryptResponse,
  StatusRequest,
  StatusResponse,
} from '../../src/storage/value/encrypt/kmsv2/api.js';

export interface TestKmsPlugin {
  /** `unix:///…/kms.sock`, for the provider's `endpoint`. */
  readonly endpoint: string;
  readonly socketPath: string;
  /** The key ID Status and Encrypt report now. */
  readonly keyID: string;
  /** Calls received so far, by method. */
  readonly calls: { status: number; encrypt: number; decrypt: number };
  /** New writes are sealed under a new key; data under older key IDs still decrypts. */
  rotate(keyID: string): void;
  /** While true every call fails with UNAVAILABLE. */
  setFailing(failing: boolean): void;
  stop(): Promise<void>;
}

const annotationKey = 'key-version.kms.nanokube.test';

export async function startTestKmsPlugin(options: { readonly keyID?: string } = {}): Promise<TestKmsPlugin> {
  const dir = mkdtempSync(join(tmpdir(), 'nanokube-kms-'));
  const socketPath = join(dir, 'kms.sock');
  const keys = new Map<string, Buffer>();
  let keyID = options.keyID ?? 'key-1';
  keys.set(keyID, randomBytes(32));
  let failing = false;
  const calls = { status: 0, encrypt: 0, decrypt: 0 };
  const down = { code: grpcStatus.UNAVAILABLE, details: 'test KMS plugin is failing' };

  const impl: UntypedServiceImplementation = {
    Status(_call: ServerUnaryCall<StatusRequest, StatusResponse>, cb: sendUnaryData<StatusResponse>) {
      calls.status++;
      if (failing) return cb(down);
      cb(null, { version: kmsAPIVersion, healthz: 'ok', keyId: keyID });
    },
    Encrypt(call: ServerUnaryCall<EncryptRequest, EncryptResponse>, cb: sendUnaryData<EncryptResponse>) {
      calls.encrypt++;
      if (failing) return cb(down);
      const nonce = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', keys.get(keyID)!, nonce);
      c.setAAD(Buffer.from(keyID));
      const body = Buffer.concat([c.update(call.request.plaintext), c.final()]);
      cb(null, {
        ciphertext: Buffer.concat([nonce, body, c.getAuthTag()]),
        keyId: keyID,
        annotations: new Map([[annotationKey, Buffer.from(keyID)]]),
      });
    },
    Decrypt(call: ServerUnaryCall<DecryptRequest, DecryptResponse>, cb: sendUnaryData<DecryptResponse>) {
      calls.decrypt++;
      if (failing) return cb(down);
      const { ciphertext, keyId, annotations } = call.request;
      const key = keys.get(keyId);
      if (key === undefined) return cb({ code: grpcStatus.NOT_FOUND, details: `unknown key ID ${keyId}` });
      if (Buffer.compare(Buffer.from(annotations.get(annotationKey) ?? []), Buffer.from(keyId)) !== 0) {
        return cb({ code: grpcStatus.INVALID_ARGUMENT, details: 'annotations do not match the key ID' });
      }
      try {
        const d = createDecipheriv('aes-256-gcm', key, ciphertext.subarray(0, 12));
        d.setAAD(Buffer.from(keyId));
        d.setAuthTag(ciphertext.subarray(ciphertext.byteLength - 16));
        const plaintext = Buffer.concat([
          d.update(ciphertext.subarray(12, ciphertext.byteLength - 16)),
          d.final(),
        ]);
        cb(null, { plaintext });
      } catch {
        cb({ code: grpcStatus.INVALID_ARGUMENT, details: 'ciphertext does not decrypt' });
      }
    },
  };

  const server = new Server();
  server.addService(keyManagementService, impl);
  await new Promise<void>((resolve, reject) => {
    server.bindAsync(`unix:${socketPath}`, ServerCredentials.createInsecure(), (err) =>
      err ? reject(err) : resolve(),
    );
  });
  return {
    endpoint: `unix://${socketPath}`,
    socketPath,
    get keyID() {
      return keyID;
    },
    calls,
    rotate(next) {
      if (!keys.has(next)) keys.set(next, randomBytes(32));
      keyID = next;
    },
    setFailing(f) {
      failing = f;
    },
    async stop() {
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
