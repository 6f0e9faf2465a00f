/**
 * The messages of etcd's v3 API that nanokube uses (etcdserverpb rpc.proto and mvccpb kv.proto,
 * as in etcd 3.4/3.5), written by hand on @bufbuild/protobuf's wire reader and writer. Field
 * numbers and enum values are etcd's; an enum value written wrong would silently ask etcd another
 * question (a CAS on `mod` becoming one on `version`), so proto.test.ts pins the bytes.
 *
 * int64 fields are read as numbers (revisions stay far below 2^53) except lease IDs, which etcd
 * picks at random over the whole int64 range and are kept as bigints.
 */
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { BinaryReader } from '@bufbuild/protobuf/wire';
import { readFields } from '../../../machinery/protobuf/read-fields.js';

const ld = WireType.LengthDelimited;
const vi = WireType.Varint;

/** Compare.CompareResult. */
export const CompareResult = { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 } as const;
/** Compare.CompareTarget. */
export const CompareTarget = { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 } as const;
/** mvccpb.Event.EventType. */
export const EventType = { PUT: 0, DELETE: 1 } as const;

export interface EtcdKeyValue {
  readonly key: Uint8Array;
  readonly createRevision: number;
  readonly modRevision: number;
  readonly version: number;
  readonly value: Uint8Array;
  readonly lease: bigint;
}

export interface ResponseHeader {
  readonly clusterId: bigint;
  readonly memberId: bigint;
  readonly revision: number;
  readonly raftTerm: bigint;
}

export interface RangeRequest {
  readonly key: Uint8Array;
  readonly rangeEnd?: Uint8Array;
  readonly limit?: number;
  readonly revision?: number;
  readonly serializable?: boolean;
  readonly countOnly?: boolean;
}

export interface RangeResponse {
  readonly header: ResponseHeader;
  readonly kvs: EtcdKeyValue[];
  readonly more: boolean;
  readonly count: number;
}

export interface PutRequest {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
  readonly lease?: bigint;
  readonly prevKv?: boolean;
}

export interface PutResponse {
  readonly header: ResponseHeader;
  readonly prevKv?: EtcdKeyValue;
}

export interface DeleteRangeRequest {
  readonly key: Uint8Array;
  readonly rangeEnd?: Uint8Array;
  readonly prevKv?: boolean;
}

export interface DeleteRangeResponse {
  readonly header: ResponseHeader;
  readonly deleted: number;
  readonly prevKvs: EtcdKeyValue[];
}

export type Compare =
  | {
      readonly key: Uint8Array;
      readonly result: number;
      readonly target: typeof CompareTarget.VERSION | typeof CompareTarget.CREATE | typeof CompareTarget.MOD;
      readonly value: number;
    }
  | {
      readonly key: Uint8Array;
      readonly result: number;
      readonly target: typeof CompareTarget.LEASE;
      readonly value: bigint;
    }
  | {
      readonly key: Uint8Array;
      readonly result: number;
      readonly target: typeof CompareTarget.VALUE;
      readonly value: Uint8Array;
    };

export type RequestOp =
  | { readonly range: RangeRequest }
  | { readonly put: PutRequest }
  | { readonly deleteRange: DeleteRangeRequest };

export type ResponseOp =
  | { readonly range: RangeResponse }
  | { readonly put: PutResponse }
  | { readonly deleteRange: DeleteRangeResponse };

export interface TxnRequest {
  readonly compare: readonly Compare[];
  readonly success: readonly RequestOp[];
  readonly failure: readonly RequestOp[];
}

export interface TxnResponse {
  readonly header: ResponseHeader;
  readonly succeeded: boolean;
  readonly responses: ResponseOp[];
}

export interface WatchCreateRequest {
  readonly key: Uint8Array;
  readonly rangeEnd?: Uint8Array;
  readonly startRevision?: number;
  readonly progressNotify?: boolean;
  readonly prevKv?: boolean;
}

export type WatchRequest =
  | { readonly create: WatchCreateRequest }
  | { readonly cancel: { readonly watchId: number } }
  | { readonly progress: true };

export interface WatchEvent {
  readonly type: number;
  readonly kv: EtcdKeyValue;
  readonly prevKv?: EtcdKeyValue;
}

export interface WatchResponse {
  readonly header: ResponseHeader;
  readonly watchId: number;
  readonly created: boolean;
  readonly canceled: boolean;
  readonly compactRevision: number;
  readonly cancelReason: string;
  readonly events: WatchEvent[];
}

export interface LeaseGrantResponse {
  readonly header: ResponseHeader;
  readonly id: bigint;
  readonly ttl: number;
  readonly error: string;
}

export interface LeaseKeepAliveResponse {
  readonly header: ResponseHeader;
  readonly id: bigint;
  readonly ttl: number;
}

/** LeaseTimeToLive without keys: `ttl` is the seconds left (-1 for a lease that does not exist). */
export interface LeaseTimeToLiveResponse {
  readonly header: ResponseHeader;
  readonly id: bigint;
  readonly ttl: number;
  readonly grantedTtl: number;
}

export interface StatusResponse {
  readonly header: ResponseHeader;
  readonly version: string;
  readonly dbSize: number;
  readonly leader: bigint;
  readonly errors: string[];
}

const empty: Uint8Array = new Uint8Array(0);

function big(v: bigint | string): bigint {
  return typeof v === 'bigint' ? v : BigInt(v);
}

function num(v: bigint | string): number {
  return Number(v);
}

function bytesField(w: BinaryWriter, no: number, b: Uint8Array | undefined): void {
  if (b !== undefined && b.byteLength > 0) w.tag(no, ld).bytes(b);
}

function int64Field(w: BinaryWriter, no: number, v: number | bigint | undefined): void {
  if (v !== undefined && v !== 0 && v !== 0n) w.tag(no, vi).int64(v);
}

function boolField(w: BinaryWriter, no: number, v: boolean | undefined): void {
  if (v === true) w.tag(no, vi).bool(true);
}

/** An embedded message: its bytes as a length-delimited field. */
function message(w: BinaryWriter, no: number, write: (w: BinaryWriter) => void): void {
  w.tag(no, ld).fork();
  write(w);
  w.join();
}

function readHeader(bytes: Uint8Array): ResponseHeader {
  let clusterId = 0n;
  let memberId = 0n;
  let revision = 0;
  let raftTerm = 0n;
  readFields(bytes, (no, wt, r) => {
    if (wt !== vi) return false;
    if (no === 1) clusterId = big(r.uint64());
    else if (no === 2) memberId = big(r.uint64());
    else if (no === 3) revision = num(r.int64());
    else if (no === 4) raftTerm = big(r.uint64());
    else return false;
    return true;
  });
  return { clusterId, memberId, revision, raftTerm };
}

const noHeader: ResponseHeader = { clusterId: 0n, memberId: 0n, revision: 0, raftTerm: 0n };

export function readKeyValue(bytes: Uint8Array): EtcdKeyValue {
  let key = empty;
  let createRevision = 0;
  let modRevision = 0;
  let version = 0;
  let value = empty;
  let lease = 0n;
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === ld) key = r.bytes();
    else if (no === 2 && wt === vi) createRevision = num(r.int64());
    else if (no === 3 && wt === vi) modRevision = num(r.int64());
    else if (no === 4 && wt === vi) version = num(r.int64());
    else if (no === 5 && wt === ld) value = r.bytes();
    else if (no === 6 && wt === vi) lease = big(r.int64());
    else return false;
    return true;
  });
  return { key, createRevision, modRevision, version, value, lease };
}

function sub(r: BinaryReader): Uint8Array {
  return r.bytes();
}

// ---- requests ----

function writeRange(w: BinaryWriter, m: RangeRequest): void {
  bytesField(w, 1, m.key);
  bytesField(w, 2, m.rangeEnd);
  int64Field(w, 3, m.limit);
  int64Field(w, 4, m.revision);
  boolField(w, 7, m.serializable);
  boolField(w, 9, m.countOnly);
}

function writePut(w: BinaryWriter, m: PutRequest): void {
  bytesField(w, 1, m.key);
  bytesField(w, 2, m.value);
  int64Field(w, 3, m.lease);
  boolField(w, 4, m.prevKv);
}

function writeDeleteRange(w: BinaryWriter, m: DeleteRangeRequest): void {
  bytesField(w, 1, m.key);
  bytesField(w, 2, m.rangeEnd);
  boolField(w, 3, m.prevKv);
}

function writeCompare(w: BinaryWriter, c: Compare): void {
  // result and target are enums: written even when 0 would be the default, for clarity on the wire.
  w.tag(1, vi).int32(c.result);
  w.tag(2, vi).int32(c.target);
  bytesField(w, 3, c.key);
  // The oneof target_union: written even when zero (a oneof member is present when set).
  switch (c.target) {
    case CompareTarget.VERSION:
      w.tag(4, vi).int64(c.value);
      break;
    case CompareTarget.CREATE:
      w.tag(5, vi).int64(c.value);
      break;
    case CompareTarget.MOD:
      w.tag(6, vi).int64(c.value);
      break;
    case CompareTarget.VALUE:
      w.tag(7, ld).bytes(c.value);
      break;
    case CompareTarget.LEASE:
      w.tag(8, vi).int64(c.value);
      break;
  }
}

function writeRequestOp(w: BinaryWriter, op: RequestOp): void {
  if ('range' in op) message(w, 1, (x) => writeRange(x, op.range));
  else if ('put' in op) message(w, 2, (x) => writePut(x, op.put));
  else message(w, 3, (x) => writeDeleteRange(x, op.deleteRange));
}

function finish(w: BinaryWriter): Buffer {
  const out = w.finish();
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

export const encode = {
  range: (m: RangeRequest): Buffer => {
    const w = new BinaryWriter();
    writeRange(w, m);
    return finish(w);
  },
  put: (m: PutRequest): Buffer => {
    const w = new BinaryWriter();
    writePut(w, m);
    return finish(w);
  },
  deleteRange: (m: DeleteRangeRequest): Buffer => {
    const w = new BinaryWriter();
    writeDeleteRange(w, m);
    return finish(w);
  },
  txn: (m: TxnRequest): Buffer => {
    const w = new BinaryWriter();
    for (const c of m.compare) message(w, 1, (x) => writeCompare(x, c));
    for (const op of m.success) message(w, 2, (x) => writeRequestOp(x, op));
    for (const op of m.failure) message(w, 3, (x) => writeRequestOp(x, op));
    return finish(w);
  },
  compaction: (m: { readonly revision: number; readonly physical?: boolean }): Buffer => {
    const w = new BinaryWriter();
    int64Field(w, 1, m.revision);
    boolField(w, 2, m.physical);
    return finish(w);
  },
  watch: (m: WatchRequest): Buffer => {
    const w = new BinaryWriter();
    if ('create' in m) {
      const c = m.create;
      message(w, 1, (x) => {
        bytesField(x, 1, c.key);
        bytesField(x, 2, c.rangeEnd);
        int64Field(x, 3, c.startRevision);
        boolField(x, 4, c.progressNotify);
        boolField(x, 6, c.prevKv);
      });
    } else if ('cancel' in m) {
      const id = m.cancel.watchId;
      message(w, 2, (x) => int64Field(x, 1, id));
    } else {
      message(w, 3, () => undefined);
    }
    return finish(w);
  },
  leaseGrant: (m: { readonly ttl: number; readonly id?: bigint }): Buffer => {
    const w = new BinaryWriter();
    int64Field(w, 1, m.ttl);
    int64Field(w, 2, m.id);
    return finish(w);
  },
  /** LeaseRevokeRequest and LeaseKeepAliveRequest: both just `int64 ID = 1`. */
  leaseId: (m: { readonly id: bigint }): Buffer => {
    const w = new BinaryWriter();
    int64Field(w, 1, m.id);
    return finish(w);
  },
  empty: (): Buffer => {
    return Buffer.alloc(0);
  },
};

// ---- responses ----

function readRangeResponse(bytes: Uint8Array): RangeResponse {
  let header = noHeader;
  const kvs: EtcdKeyValue[] = [];
  let more = false;
  let count = 0;
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === ld) header = readHeader(sub(r));
    else if (no === 2 && wt === ld) kvs.push(readKeyValue(sub(r)));
    else if (no === 3 && wt === vi) more = r.bool();
    else if (no === 4 && wt === vi) count = num(r.int64());
    else return false;
    return true;
  });
  return { header, kvs, more, count };
}

function readPutResponse(bytes: Uint8Array): PutResponse {
  let header = noHeader;
  let prevKv: EtcdKeyValue | undefined;
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === ld) header = readHeader(sub(r));
    else if (no === 2 && wt === ld) prevKv = readKeyValue(sub(r));
    else return false;
    return true;
  });
  return prevKv === undefined ? { header } : { header, prevKv };
}

function readDeleteRangeResponse(bytes: Uint8Array): DeleteRangeResponse {
  let header = noHeader;
  let deleted = 0;
  const prevKvs: EtcdKeyValue[] = [];
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === ld) header = readHeader(sub(r));
    else if (no === 2 && wt === vi) deleted = num(r.int64());
    else if (no === 3 && wt === ld) prevKvs.push(readKeyValue(sub(r)));
    else return false;
    return true;
  });
  return { header, deleted, prevKvs };
}

function readResponseOp(bytes: Uint8Array): ResponseOp {
  let op: ResponseOp | undefined;
  readFields(bytes, (no, wt, r) => {
    if (wt !== ld) return false;
    if (no === 1) op = { range: readRangeResponse(sub(r)) };
    else if (no === 2) op = { put: readPutResponse(sub(r)) };
    else if (no === 3) op = { deleteRange: readDeleteRangeResponse(sub(r)) };
    else return false;
    return true;
  });
  if (op === undefined) throw new Error('etcd: a txn response op of no known kind');
  return op;
}

function readWatchEvent(bytes: Uint8Array): WatchEvent {
  let type: number = EventType.PUT;
  let kv: EtcdKeyValue | undefined;
  let prevKv: EtcdKeyValue | undefined;
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === vi) type = r.int32();
    else if (no === 2 && wt === ld) kv = readKeyValue(sub(r));
    else if (no === 3 && wt === ld) prevKv = readKeyValue(sub(r));
    else return false;
    return true;
  });
  const k = kv ?? readKeyValue(empty);
  return prevKv === undefined ? { type, kv: k } : { type, kv: k, prevKv };
}

export const decode = {
  header: readHeader,
  range: readRangeResponse,
  put: readPutResponse,
  deleteRange: readDeleteRangeResponse,
  txn: (bytes: Uint8Array): TxnResponse => {
    let header = noHeader;
    let succeeded = false;
    const responses: ResponseOp[] = [];
    readFields(bytes, (no, wt, r) => {
      if (no === 1 && wt === ld) header = readHeader(sub(r));
      else if (no === 2 && wt === vi) succeeded = r.bool();
      else if (no === 3 && wt === ld) responses.push(readResponseOp(sub(r)));
      else return false;
      return true;
    });
    return { header, succeeded, responses };
  },
  /** CompactionResponse, LeaseRevokeResponse: a header only. */
  headerOnly: (bytes: Uint8Array): { header: ResponseHeader } => {
    let header = noHeader;
    readFields(bytes, (no, wt, r) => {
      if (no !== 1 || wt !== ld) return false;
      header = readHeader(sub(r));
      return true;
    });
    return { header };
  },
  watch: (bytes: Uint8Array): WatchResponse => {
    let header = noHeader;
    let watchId = 0;
    let created = false;
    let canceled = false;
    let compactRevision = 0;
    let cancelReason = '';
    const events: WatchEvent[] = [];
    readFields(bytes, (no, wt, r) => {
      if (no === 1 && wt === ld) header = readHeader(sub(r));
      else if (no === 2 && wt === vi) watchId = num(r.int64());
      else if (no === 3 && wt === vi) created = r.bool();
      else if (no === 4 && wt === vi) canceled = r.bool();
      else if (no === 5 && wt === vi) compactRevision = num(r.int64());
      else if (no === 6 && wt === ld) cancelReason = r.string();
      else if (no === 11 && wt === ld) events.push(readWatchEvent(sub(r)));
      else return false;
      return true;
    });
    return { header, watchId, created, canceled, compactRevision, cancelReason, events };
  },
  leaseGrant: (bytes: Uint8Array): LeaseGrantResponse => {
    let header = noHeader;
    let id = 0n;
    let ttl = 0;
    let error = '';
    readFields(bytes, (no, wt, r) => {
      if (no === 1 && wt === ld) header = readHeader(sub(r));
      else if (no === 2 && wt === vi) id = big(r.int64());
      else if (no === 3 && wt === vi) ttl = num(r.int64());
      else if (no === 4 && wt === ld) error = r.string();
      else return false;
      return true;
    });
    return { header, id, ttl, error };
  },
  leaseKeepAlive: (bytes: Uint8Array): LeaseKeepAliveResponse => {
    let header = noHeader;
    let id = 0n;
    let ttl = 0;
    readFields(bytes, (no, wt, r) => {
      if (no === 1 && wt === ld) header = readHeader(sub(r));
      else if (no === 2 && wt === vi) id = big(r.int64());
      else if (no === 3 && wt === vi) ttl = num(r.int64());
      else return false;
      return true;
    });
    return { header, id, ttl };
  },
  leaseTimeToLive: (bytes: Uint8Array): LeaseTimeToLiveResponse => {
    let header = noHeader;
    let id = 0n;
    let ttl = 0;
    let grantedTtl = 0;
    readFields(bytes, (no, wt, r) => {
      if (no === 1 && wt === ld) header = readHeader(sub(r));
      else if (no === 2 && wt === vi) id = big(r.int64());
      else if (no === 3 && wt === vi) ttl = num(r.int64());
      else if (no === 4 && wt === vi) grantedTtl = num(r.int64());
      else return false;
      return true;
    });
    return { header, id, ttl, grantedTtl };
  },
  status: (bytes: Uint8Array): StatusResponse => {
    let header = noHeader;
    let version = '';
    let dbSize = 0;
    let leader = 0n;
    const errors: string[] = [];
    readFields(bytes, (no, wt, r) => {
      if (no === 1 && wt === ld) header = readHeader(sub(r));
      else if (no === 2 && wt === ld) version = r.string();
      else if (no === 3 && wt === vi) dbSize = num(r.int64());
      else if (no === 4 && wt === vi) leader = big(r.uint64());
      else if (no === 8 && wt === ld) errors.push(r.string());
      else return false;
      return true;
    });
    return { header, version, dbSize, leader, errors };
  },
};
