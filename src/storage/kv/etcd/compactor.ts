/**
 * Compaction shared by every API server on one etcd, as kube-apiserver does it (storage/etcd3
 * compact.go): each interval a server runs a txn on the key `compact_rev_key` comparing its
 * version with the version it last saw. The one server whose txn wins records the current
 * revision there and compacts the revision recorded one interval before (so the history of the
 * last interval always stays); the others learn the new version and try again next interval.
 * The key is outside any `--etcd-prefix`, so kube-apiserver and nanokube servers share it.
 */
import type { EtcdClient } from './client.js';
import { CompareResult, CompareTarget } from './proto.js';

export const compactRevKey = 'compact_rev_key';

const encoder = new TextEncoder();

export interface CompactorOptions {
  readonly client: EtcdClient;
  readonly intervalMs: number;
  readonly signal: AbortSignal;
  /** Told when this server compacted (the revision) or a round failed. */
  readonly onCompacted?: (revision: number) => void;
  readonly onError?: (err: unknown) => void;
}

/** One round: returns the version of the key and the revision to compact next round. */
export async function compactRound(
  client: EtcdClient,
  version: number,
  revision: number,
): Promise<{ version: number; revision: number; compacted: boolean }> {
  const key = encoder.encode(compactRevKey);
  const r = await client.txn({
    compare: [{ key, result: CompareResult.EQUAL, target: CompareTarget.VERSION, value: version }],
    success: [{ put: { key, value: encoder.encode(String(revision)) } }],
    failure: [{ range: { key } }],
  });
  const current = r.header.revision;
  if (!r.succeeded) {
    const seen = r.responses[0];
    const kv = seen !== undefined && 'range' in seen ? seen.range.kvs[0] : undefined;
    return { version: kv?.version ?? 0, revision: current, compacted: false };
  }
  // The first round records a revision and compacts nothing.
  if (revision === 0) return { version: version + 1, revision: current, compacted: false };
  try {
    await client.compact(revision);
  } catch (err) {
    // Compacted past it already (by hand, or an earlier round that timed out): nothing to do.
    if (!(err instanceof Error && err.message.includes('required revision has been compacted'))) throw err;
  }
  return { version: version + 1, revision: current, compacted: true };
}

/** Runs rounds every `intervalMs` until the signal aborts. */
export async function runCompactor(o: CompactorOptions): Promise<void> {
  let version = 0;
  let revision = 0;
  while (!o.signal.aborted) {
    try {
      const compacting = revision;
      const next = await compactRound(o.client, version, revision);
      if (next.compacted) o.onCompacted?.(compacting);
      ({ version, revision } = next);
    } catch (err) {
      if (o.signal.aborted) return;
      o.onError?.(err);
    }
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, o.intervalMs);
      o.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(t);
          resolve();
        },
        { once: true },
      );
    });
  }
}
