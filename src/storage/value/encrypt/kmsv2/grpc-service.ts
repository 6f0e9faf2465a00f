/**
 * The API server's KMS v2 client (upstream kmsv2.NewGRPCService): unary calls to
 * `v2.KeyManagementService` on a unix socket, each bounded by the provider's timeout.
 */
import type { Client, ServiceError } from '@grpc/grpc-js';
import { TransformError } from '../../transformer.js';
import { codec } from './api.js';
import type { DecryptRequest, EncryptResponse, StatusResponse } from './api.js';

/** What the envelope transformer and the health probe need from a plugin. */
export interface KmsService {
  status(): Promise<StatusResponse>;
  decrypt(uid: string, request: Omit<DecryptRequest, 'uid'>): Promise<Uint8Array>;
  encrypt(uid: string, plaintext: Uint8Array): Promise<EncryptResponse>;
  close(): void;
}

/** Upstream util.ParseEndpoint: the socket path of `unix:///path` (or `@name` for an abstract socket). */
export function parseKmsEndpoint(endpoint: string): string {
  if (endpoint === '') throw new TransformError("remote KMS provider can't use empty string as endpoint");
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch (err) {
    throw new TransformError(
      `invalid endpoint "${endpoint}" for remote KMS provider, error: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'unix') throw new TransformError(`unsupported scheme "${scheme}" for remote KMS provider`);
  const path = decodeURIComponent(url.pathname);
  return path.startsWith('/@') ? path.slice(1) : path;
}

const goCodeNames = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

/** A gRPC failure as Go's status error prints it. */
export function grpcErrorMessage(err: ServiceError): string {
  const name = goCodeNames[err.code] ?? `Code(${err.code})`;
  return `rpc error: code = ${name} desc = ${err.details}`;
}

export class GrpcKmsService implements KmsService {
  /**
   * The gRPC stack is loaded on first use (the bundle keeps it in dist/grpc.js): most servers
   * never talk to a KMS plugin, and it is a sixth of the code every start would compile.
   */
  readonly #client: Promise<Client>;
  readonly #timeoutMs: number;

  constructor(endpoint: string, timeoutMs: number) {
    const path = parseKmsEndpoint(endpoint);
    const target = path.startsWith('@') ? `unix-abstract:${path.slice(1)}` : `unix:${path}`;
    this.#client = import('@grpc/grpc-js').then(
      (grpc) => new grpc.Client(target, grpc.credentials.createInsecure()),
      (err: unknown) => {
        throw new TransformError(
          `loading the gRPC client: ${err instanceof Error ? err.message : String(err)}`,
        );
      },
    );
    // A failure to load is reported by each call.
    this.#client.catch(() => undefined);
    this.#timeoutMs = timeoutMs;
  }

  #call<Req, Res>(
    name: string,
    request: Req,
    encode: (m: Req) => Buffer,
    decode: (b: Uint8Array) => Res,
  ): Promise<Res> {
    const deadline = Date.now() + this.#timeoutMs;
    return this.#client.then(
      (client) =>
        new Promise<Res>((resolve, reject) => {
          client.makeUnaryRequest<Req, Res>(
            `/v2.KeyManagementService/${name}`,
            encode,
            (b: Buffer) => decode(b),
            request,
            { deadline },
            (err: ServiceError | null, value?: Res) => {
              if (err !== null) reject(new TransformError(grpcErrorMessage(err)));
              else if (value === undefined) reject(new TransformError(`rpc error: empty ${name} response`));
              else resolve(value);
            },
          );
        }),
    );
  }

  status(): Promise<StatusResponse> {
    return this.#call(
      'Status',
      {},
      () => codec.statusRequest.encode(),
      (m) => codec.statusResponse.decode(m),
    );
  }

  async decrypt(uid: string, request: Omit<DecryptRequest, 'uid'>): Promise<Uint8Array> {
    const res = await this.#call(
      'Decrypt',
      { ...request, uid },
      (m) => codec.decryptRequest.encode(m),
      (m) => codec.decryptResponse.decode(m),
    );
    return res.plaintext;
  }

  encrypt(uid: string, plaintext: Uint8Array): Promise<EncryptResponse> {
    return this.#call(
      'Encrypt',
      { plaintext, uid },
      (m) => codec.encryptRequest.encode(m),
      (m) => codec.encryptResponse.decode(m),
    );
  }

  close(): void {
    void this.#client.then(
      (client) => client.close(),
      () => undefined,
    );
  }
}
