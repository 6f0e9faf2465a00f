/**
 * Whole-cluster snapshots: the storage's keyspace at one revision (objects with their
 * resourceVersions, Service IP and port allocations, Event leases), as bytes a file can hold, and
 * the restore that puts one back while the server runs. After a restore every watch cache has
 * listed again (so reads see the restored objects at once) and every watch that was open ends:
 * its client watches again from its last resourceVersion, gets 410 Gone (everything before the
 * restore is compacted) and relists, as after an etcd compaction.
 */
import { moveKeys } from '../../storage/kv/relayout.js';
import type { KeyMove } from '../../storage/kv/relayout.js';
import type { ServerRequest } from '../../apiserver/body.js';
import { readBody } from '../../apiserver/body.js';
import type { ServerResponseLike } from '../../apiserver/response.js';
import { writeError, writeRawJSON } from '../../apiserver/response.js';
import type { NonResourceOperation } from '../../apiserver/server.js';
import { apiErrors } from '../../machinery/errors.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { KeyValue, KvSnapshot, KvStore, SnapshotLease } from '../../storage/kv/types.js';

/** Where `nanokube snapshot save|restore` reach a running server. */
export const snapshotPath = '/nanokube/v1/snapshot';
export const snapshotContentType = 'application/vnd.nanokube.snapshot';

const magic = 'NANOKUBE-SNAPSHOT 1\n';

/** Bytes that are not a snapshot of this format. */
export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

/**
 * The snapshot as bytes: the magic line, a JSON header (revision, leases, key count), then per
 * key its name, revisions, lease and value, lengths as 32-bit and numbers as 64-bit big-endian.
 */
export function encodeSnapshot(s: KvSnapshot): Uint8Array {
  const header = Buffer.from(
    JSON.stringify({ revision: s.revision, leases: s.leases, keys: s.kvs.length, layout: s.keyLayout ?? 2 }),
  );
  const keys = s.kvs.map((kv) => Buffer.from(kv.key));
  let size = magic.length + 4 + header.length;
  for (let i = 0; i < s.kvs.length; i++) size += 4 + keys[i]!.length + 24 + 4 + s.kvs[i]!.value.length;
  const out = Buffer.allocUnsafe(size);
  let at = out.write(magic, 0, 'latin1');
  at = out.writeUInt32BE(header.length, at);
  at += header.copy(out, at);
  for (let i = 0; i < s.kvs.length; i++) {
    const kv = s.kvs[i]!;
    const key = keys[i]!;
    at = out.writeUInt32BE(key.length, at);
    at += key.copy(out, at);
    at = out.writeDoubleBE(kv.createRevision, at);
    at = out.writeDoubleBE(kv.modRevision, at);
    at = out.writeDoubleBE(kv.lease, at);
    at = out.writeUInt32BE(kv.value.length, at);
    out.set(kv.value, at);
    at += kv.value.length;
  }
  return out;
}

function isLease(v: unknown): v is SnapshotLease {
  if (typeof v !== 'object' || v === null) return false;
  const l = v as Record<string, unknown>;
  return [l['id'], l['ttlSeconds'], l['remainingMs']].every(
    (n) => typeof n === 'number' && Number.isFinite(n),
  );
}

export function decodeSnapshot(bytes: Uint8Array): KvSnapshot {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bad = (why: string): SnapshotFormatError =>
    new SnapshotFormatError(`not a nanokube snapshot: ${why}`);
  if (buf.length < magic.length + 4 || buf.toString('latin1', 0, magic.length) !== magic) {
    throw bad('it does not start with the snapshot header');
  }
  try {
    let at = magic.length;
    const headerLength = buf.readUInt32BE(at);
    at += 4;
    const header: unknown = JSON.parse(buf.toString('utf8', at, at + headerLength));
    at += headerLength;
    if (typeof header !== 'object' || header === null) throw bad('its header is not an object');
    const h = header as Record<string, unknown>;
    const revision = h['revision'];
    const count = h['keys'];
    const leases = h['leases'];
    if (
      typeof revision !== 'number' ||
      typeof count !== 'number' ||
      !Array.isArray(leases) ||
      !leases.every(isLease)
    ) {
      throw bad('its header lacks revision, keys or leases');
    }
    const kvs: KeyValue[] = [];
    for (let i = 0; i < count; i++) {
      const keyLength = buf.readUInt32BE(at);
      at += 4;
      if (at + keyLength > buf.length) throw bad('it ends inside a key');
      const key = buf.toString('utf8', at, at + keyLength);
      at += keyLength;
      const createRevision = buf.readDoubleBE(at);
      const modRevision = buf.readDoubleBE(at + 8);
      const lease = buf.readDoubleBE(at + 16);
      const valueLength = buf.readUInt32BE(at + 24);
      at += 28;
      if (at + valueLength > buf.length) throw bad('it ends inside a value');
      kvs.push({
        key,
        createRevision,
        modRevision,
        lease,
        value: new Uint8Array(buf.subarray(at, at + valueLength)),
      });
      at += valueLength;
    }
    if (at !== buf.length) throw bad('there are bytes after the last key');
    // Files from before the layout was recorded hold nanokube's first layout.
    const layout = h['layout'];
    return { revision, kvs, leases, keyLayout: typeof layout === 'number' ? layout : 1 };
  } catch (err) {
    if (err instanceof SnapshotFormatError) throw err;
    throw bad(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Restores `snapshot` into `kv` and waits (at most `timeoutMs`) until every store's watch cache
 * has listed the restored state. Resolves with the revision after the restore.
 */
export async function restoreSnapshot(o: {
  readonly kv: KvStore;
  readonly stores: () => readonly GenericStore[];
  readonly snapshot: KvSnapshot;
  readonly timeoutMs?: number;
  /** The moves to kube-apiserver's key layout, for a snapshot saved in nanokube's first one. */
  readonly firstLayoutMoves?: readonly KeyMove[];
}): Promise<number> {
  let revision = await o.kv.restore(o.snapshot);
  if ((o.snapshot.keyLayout ?? 2) < 2 && o.firstLayoutMoves !== undefined) {
    // As a data dir of that layout is moved on start: every key to its new place, then history
    // compacted so no client watches the move.
    if ((await moveKeys(o.kv, o.firstLayoutMoves)) > 0) {
      revision = await o.kv.currentRevision();
      await o.kv.compact(revision);
    }
  }
  await Promise.all(
    o.stores().map(async (store) => {
      const cache = await store.watchCache();
      await cache?.waitForRevision(revision, o.timeoutMs ?? 5_000);
    }),
  );
  return revision;
}

/** `GET` answers the running cluster's snapshot, `PUT` restores the one in the body. */
export function snapshotOperation(o: {
  readonly save: () => Promise<KvSnapshot>;
  readonly restore: (snapshot: KvSnapshot) => Promise<number>;
}): NonResourceOperation {
  return {
    path: snapshotPath,
    async handle(req: ServerRequest, res: ServerResponseLike): Promise<void> {
      try {
        if (req.method === 'GET') {
          const bytes = encodeSnapshot(await o.save());
          res.writeHead(200, { 'content-type': snapshotContentType, 'content-length': String(bytes.length) });
          res.end(bytes);
          return;
        }
        if (req.method === 'PUT' || req.method === 'POST') {
          // A cluster's snapshot is far larger than an object: up to 1 GiB.
          const body = await readBody(req, 1024 * 1024 * 1024);
          let snapshot: KvSnapshot;
          try {
            snapshot = decodeSnapshot(body);
          } catch (err) {
            throw apiErrors.badRequest(err instanceof Error ? err.message : String(err));
          }
          const revision = await o.restore(snapshot);
          writeRawJSON(res, 200, {
            kind: 'Status',
            apiVersion: 'v1',
            metadata: { resourceVersion: String(revision) },
            status: 'Success',
            message: `restored ${snapshot.kvs.length} keys of revision ${snapshot.revision}`,
            code: 200,
          });
          return;
        }
        // As upstream answers other verbs at its own non-resource paths.
        res.writeHead(405, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('405: Method Not Allowed');
      } catch (err) {
        writeError(res, err);
      }
    },
  };
}
