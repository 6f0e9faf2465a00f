/**
 * Upstream's master leases (pkg/controlplane/reconcilers/lease.go, `--endpoint-reconciler-type
 * lease`): each API server keeps `/registry/masterleases/<ip>` alive, an Endpoints record of its
 * address attached to a storage lease of 15 s that it renews with every reconcile (10 s). The
 * `kubernetes` Endpoints list the addresses whose records are still there, so a server that dies
 * drops out within the TTL, and one that shuts down removes its record at once.
 */
import type { EndpointLeases } from '../../controllers/apiserver-service/controller.js';
import type { KvStore } from '../../storage/kv/types.js';
import { prefixEnd } from '../../storage/kv/types.js';

export const masterLeasesPrefix = '/registry/masterleases/';

export interface MasterLeasesOptions {
  readonly kv: KvStore;
  /** This server's advertise address. */
  readonly ip: string;
  /** The port its record lists (the secure port). */
  readonly port: number;
  /** The record's lifetime without renewal (default 15 s, upstream's masterEndpointReconcileTTL). */
  readonly ttlSeconds?: number;
}

const encoder = new TextEncoder();

export class MasterLeases implements EndpointLeases {
  readonly #o: MasterLeasesOptions;
  #lease = 0;

  constructor(o: MasterLeasesOptions) {
    this.#o = o;
  }

  get #key(): string {
    return masterLeasesPrefix + this.#o.ip;
  }

  /** The record as upstream stores it: an Endpoints named by the address, with its port. */
  #record(): Uint8Array {
    return encoder.encode(
      JSON.stringify({
        kind: 'Endpoints',
        apiVersion: 'v1',
        metadata: { name: this.#o.ip, creationTimestamp: null },
        subsets: [
          {
            addresses: [{ ip: this.#o.ip }],
            ports: [{ name: 'https', port: this.#o.port, protocol: 'TCP' }],
          },
        ],
      }),
    );
  }

  async renewAndList(): Promise<string[]> {
    const { kv } = this.#o;
    // A new lease per renewal, then the old one revoked: its key has moved to the new one.
    const lease = await kv.grantLease(this.#o.ttlSeconds ?? 15);
    const value = this.#record();
    for (;;) {
      const current = await kv.range({ key: this.#key });
      const kvNow = current.kvs[0];
      const r =
        kvNow === undefined
          ? await kv.create(this.#key, value, { lease: lease.id })
          : await kv.update(this.#key, value, kvNow.modRevision, { lease: lease.id });
      if (r.ok) break;
    }
    const old = this.#lease;
    this.#lease = lease.id;
    if (old !== 0) await kv.revokeLease(old).catch(() => undefined);
    return this.#list();
  }

  async #list(): Promise<string[]> {
    const all = await this.#o.kv.range({ key: masterLeasesPrefix, end: prefixEnd(masterLeasesPrefix) });
    return all.kvs.map((kv) => kv.key.slice(masterLeasesPrefix.length));
  }

  async remove(): Promise<string[]> {
    const old = this.#lease;
    this.#lease = 0;
    if (old !== 0) await this.#o.kv.revokeLease(old).catch(() => undefined);
    return this.#list();
  }
}
