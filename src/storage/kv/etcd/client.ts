/**
 * A thin etcd v3 client on @grpc/grpc-js with the messages of proto.ts: unary KV, Lease and
 * Maintenance calls, each bounded by a request timeout, and bidirectional Watch and LeaseKeepAlive
 * streams. One gRPC channel per endpoint; calls go to the current endpoint, and a call that finds
 * it unavailable moves the client to the next one (reads are then retried there, writes are not:
 * a write whose answer was lost may have been applied, so its caller decides).
 */
import type * as Grpc from '@grpc/grpc-js';
import type { Client, ClientDuplexStream, ServiceError } from '@grpc/grpc-js';
import { decode, encode } from './proto.js';
import type {
  DeleteRangeRequest,
  DeleteRangeResponse,
  LeaseGrantResponse,
  PutRequest,
  PutResponse,
  RangeRequest,
  RangeResponse,
  ResponseHeader,
  StatusResponse,
  LeaseTimeToLiveResponse,
  TxnRequest,
  TxnResponse,
  WatchRequest,
  WatchResponse,
} from './proto.js';

/** A failed etcd call: the gRPC status code and etcd's message (`etcdserver: ...`). */
export class EtcdError extends Error {
  override readonly name = 'EtcdError';
  constructor(
    readonly code: number,
    readonly details: string,
    readonly endpoint: string,
  ) {
    super(`etcd ${endpoint}: ${details} (gRPC code ${code})`);
  }
}

/** gRPC status codes the client acts on. */
export const GrpcCode = {
  CANCELLED: 1,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  FAILED_PRECONDITION: 9,
  OUT_OF_RANGE: 11,
  UNAVAILABLE: 14,
} as const;

export interface EtcdTls {
  /** PEM: the CA that signed the members' certificates (`--etcd-cafile`). */
  readonly ca?: string;
  /** PEM: the client certificate and key (`--etcd-certfile`, `--etcd-keyfile`). */
  readonly cert?: string;
  readonly key?: string;
}

export interface EtcdClientOptions {
  /** `http://host:port` or `https://host:port` (all of one scheme), as `--etcd-servers`. */
  readonly endpoints: readonly string[];
  readonly tls?: EtcdTls;
  /** Each unary call's deadline (default 10 s). */
  readonly requestTimeoutMs?: number;
}

interface Endpoint {
  readonly url: string;
  readonly client: Client;
}

type Duplex<Req, Res> = ClientDuplexStream<Req, Res>;

export class EtcdClient {
  readonly #endpoints: Endpoint[];
  readonly #timeoutMs: number;
  readonly #grpc: typeof Grpc;
  #current = 0;
  #closed = false;
  /** The highest revision any answer has shown (watches use it to ask for progress). */
  #seenRevision = 0;

  private constructor(grpc: typeof Grpc, o: EtcdClientOptions) {
    this.#grpc = grpc;
    this.#timeoutMs = o.requestTimeoutMs ?? 10_000;
    if (o.endpoints.length === 0) throw new Error('no etcd endpoints given');
    const schemes = new Set(o.endpoints.map((e) => new URL(e).protocol));
    if (schemes.size > 1) throw new Error('etcd endpoints must all be http:// or all https://');
    const secure = schemes.has('https:');
    if (!secure && !schemes.has('http:')) {
      throw new Error(`etcd endpoint ${o.endpoints[0]}: the scheme must be http or https`);
    }
    const credentials = secure
      ? grpc.credentials.createSsl(
          o.tls?.ca !== undefined ? Buffer.from(o.tls.ca) : null,
          o.tls?.key !== undefined ? Buffer.from(o.tls.key) : null,
          o.tls?.cert !== undefined ? Buffer.from(o.tls.cert) : null,
        )
      : grpc.credentials.createInsecure();
    this.#endpoints = o.endpoints.map((url) => {
      const u = new URL(url);
      return {
        url,
        client: new grpc.Client(u.host, credentials, {
          // A member that dies without closing its sockets is noticed within seconds.
          'grpc.keepalive_time_ms': 10_000,
          'grpc.keepalive_timeout_ms': 5_000,
          'grpc.keepalive_permit_without_calls': 1,
          'grpc.max_receive_message_length': 2 * 1024 * 1024 * 1024 - 1,
          'grpc.initial_reconnect_backoff_ms': 100,
          'grpc.max_reconnect_backoff_ms': 2_000,
        }),
      };
    });
  }

  /** Loads the gRPC stack (kept out of the start-up path of servers on SQLite) and connects lazily. */
  static async open(o: EtcdClientOptions): Promise<EtcdClient> {
    const grpc = await import('@grpc/grpc-js');
    return new EtcdClient(grpc, o);
  }

  get seenRevision(): number {
    return this.#seenRevision;
  }

  /** The endpoint calls go to now. */
  get endpoint(): string {
    return this.#endpoints[this.#current]!.url;
  }

  #see(header: ResponseHeader): void {
    if (header.revision > this.#seenRevision) this.#seenRevision = header.revision;
  }

  /** The current endpoint failed: the next call goes to the next one. */
  #failOver(from: number): void {
    if (this.#current === from) this.#current = (from + 1) % this.#endpoints.length;
  }

  #unary<Req, Res extends { header: ResponseHeader }>(
    path: string,
    request: Req,
    ser: (r: Req) => Buffer,
    de: (b: Buffer) => Res,
    retry: boolean,
    signal?: AbortSignal,
  ): Promise<Res> {
    const attempt = (left: number): Promise<Res> => {
      if (this.#closed) return Promise.reject(new EtcdError(GrpcCode.CANCELLED, 'client closed', ''));
      const index = this.#current;
      const ep = this.#endpoints[index]!;
      return new Promise<Res>((resolve, reject) => {
        const call = ep.client.makeUnaryRequest<Req, Res>(
          path,
          ser,
          de,
          request,
          { deadline: Date.now() + this.#timeoutMs },
          (err: ServiceError | null, value?: Res) => {
            signal?.removeEventListener('abort', onAbort);
            if (err === null && value !== undefined) {
              this.#see(value.header);
              resolve(value);
              return;
            }
            const code: number = err === null ? GrpcCode.UNAVAILABLE : err.code;
            const e = new EtcdError(code, err?.details ?? 'empty response', ep.url);
            if (code === GrpcCode.UNAVAILABLE || code === GrpcCode.DEADLINE_EXCEEDED) {
              this.#failOver(index);
              if (retry && left > 0 && !(signal?.aborted ?? false)) {
                resolve(attempt(left - 1));
                return;
              }
            }
            reject(e);
          },
        );
        const onAbort = (): void => call.cancel();
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    };
    return attempt(retry ? this.#endpoints.length * 2 : 0);
  }

  range(r: RangeRequest, signal?: AbortSignal): Promise<RangeResponse> {
    return this.#unary('/etcdserverpb.KV/Range', r, encode.range, decode.range, true, signal);
  }

  put(r: PutRequest): Promise<PutResponse> {
    return this.#unary('/etcdserverpb.KV/Put', r, encode.put, decode.put, false);
  }

  deleteRange(r: DeleteRangeRequest): Promise<DeleteRangeResponse> {
    return this.#unary('/etcdserverpb.KV/DeleteRange', r, encode.deleteRange, decode.deleteRange, false);
  }

  /** A txn is retried only when it cannot write (every op a range): a read. */
  txn(r: TxnRequest): Promise<TxnResponse> {
    const readOnly = [...r.success, ...r.failure].every((op) => 'range' in op);
    return this.#unary('/etcdserverpb.KV/Txn', r, encode.txn, decode.txn, readOnly);
  }

  compact(revision: number): Promise<{ header: ResponseHeader }> {
    return this.#unary('/etcdserverpb.KV/Compact', { revision }, encode.compaction, decode.headerOnly, false);
  }

  leaseGrant(ttl: number, id: bigint): Promise<LeaseGrantResponse> {
    return this.#unary(
      '/etcdserverpb.Lease/LeaseGrant',
      { ttl, id },
      encode.leaseGrant,
      decode.leaseGrant,
      false,
    );
  }

  leaseRevoke(id: bigint): Promise<{ header: ResponseHeader }> {
    return this.#unary('/etcdserverpb.Lease/LeaseRevoke', { id }, encode.leaseId, decode.headerOnly, false);
  }

  /** One keep-alive: the lease's new TTL in seconds (0 when it does not exist). */
  leaseKeepAlive(id: bigint): Promise<number> {
    const stream = this.#stream('/etcdserverpb.Lease/LeaseKeepAlive', encode.leaseId, decode.leaseKeepAlive);
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        stream.cancel();
        reject(new EtcdError(GrpcCode.DEADLINE_EXCEEDED, 'lease keep-alive timed out', this.endpoint));
      }, this.#timeoutMs);
      stream.once('data', (res: { ttl: number; header: ResponseHeader }) => {
        clearTimeout(timer);
        this.#see(res.header);
        stream.cancel();
        resolve(res.ttl);
      });
      stream.once('error', (err: ServiceError) => {
        clearTimeout(timer);
        const code: number = err.code;
        if (code !== GrpcCode.CANCELLED) reject(new EtcdError(code, err.details, this.endpoint));
      });
      stream.write({ id });
    });
  }

  /** A lease's granted TTL and the seconds it has left (-1 when it does not exist). */
  leaseTimeToLive(id: bigint): Promise<LeaseTimeToLiveResponse> {
    return this.#unary(
      '/etcdserverpb.Lease/LeaseTimeToLive',
      { id },
      encode.leaseId,
      decode.leaseTimeToLive,
      true,
    );
  }

  /** The current endpoint's member status (`/readyz`'s etcd check). */
  status(): Promise<StatusResponse> {
    return this.#unary('/etcdserverpb.Maintenance/Status', {}, encode.empty, decode.status, true);
  }

  /**
   * Every member's status, each asked of that member alone (the storage size metric): undefined
   * for a member that does not answer within the deadline.
   */
  statusOfEach(): Promise<{ readonly endpoint: string; readonly status: StatusResponse | undefined }[]> {
    return Promise.all(
      this.#endpoints.map(
        (ep) =>
          new Promise<{ endpoint: string; status: StatusResponse | undefined }>((resolve) => {
            if (this.#closed) {
              resolve({ endpoint: ep.url, status: undefined });
              return;
            }
            ep.client.makeUnaryRequest<Record<string, never>, StatusResponse>(
              '/etcdserverpb.Maintenance/Status',
              encode.empty,
              decode.status,
              {},
              { deadline: Date.now() + this.#timeoutMs },
              (err: ServiceError | null, value?: StatusResponse) =>
                resolve({ endpoint: ep.url, status: err === null ? value : undefined }),
            );
          }),
      ),
    );
  }

  /** A Watch stream to the current endpoint; `hasleader` makes a member without a leader end it. */
  watchStream(): { stream: Duplex<WatchRequest, WatchResponse>; endpoint: string } {
    const endpoint = this.endpoint;
    return { stream: this.#stream('/etcdserverpb.Watch/Watch', encode.watch, decode.watch), endpoint };
  }

  /** Marks the current endpoint failed (a stream on it broke), unless another already took over. */
  streamFailed(endpoint: string): void {
    const index = this.#endpoints.findIndex((e) => e.url === endpoint);
    if (index >= 0) this.#failOver(index);
  }

  noteRevision(header: ResponseHeader): void {
    this.#see(header);
  }

  #stream<Req, Res>(path: string, ser: (r: Req) => Buffer, de: (b: Buffer) => Res): Duplex<Req, Res> {
    const ep = this.#endpoints[this.#current]!;
    const metadata = new this.#grpc.Metadata();
    metadata.set('hasleader', 'true');
    return ep.client.makeBidiStreamRequest<Req, Res>(path, ser, de, metadata, {});
  }

  close(): void {
    this.#closed = true;
    for (const e of this.#endpoints) e.client.close();
  }
}
