/**
 * Crash safety of the real `nanokube serve` process over many rounds: each round starts the server
 * on the same data dir, runs concurrent creates, updates and deletes of ConfigMaps, and kills the
 * process with SIGKILL in the middle of them. Between rounds the database is opened on its own and
 * must pass `PRAGMA integrity_check`; after each restart every acknowledged write must be there as
 * acknowledged, no acknowledged delete may come back, and no resourceVersion may be handed out
 * twice. A write the kill cut off may have happened or not, but only whole.
 *
 * NANOKUBE_CRASH_ROUNDS sets the number of rounds (20 by default) and NANOKUBE_CRASH_SEED the
 * seed of the kill points (random by default; printed).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Prng } from '../fuzz/prng.js';
import { httpsClient, readCredentials } from '../e2e/support-client/https-client.js';
import type { HttpsClient } from '../e2e/support-client/https-client.js';
import { skipWithoutDist, spawnServer } from '../e2e/support-client/spawn-server.js';
import type { SpawnedServer } from '../e2e/support-client/spawn-server.js';

interface ConfigMapLike {
  readonly metadata: { readonly name: string; readonly uid: string; readonly resourceVersion: string };
  readonly data?: Record<string, string>;
}
interface ListLike {
  readonly metadata: { readonly resourceVersion: string };
  readonly items: ConfigMapLike[];
}

/** What a name holds as far as acknowledged writes tell. */
type State =
  | { readonly exists: false }
  | { readonly exists: true; readonly uid: string; readonly rv: string; readonly value: string };

/** What a write the kill cut off would have left: its resourceVersion (and a create's uid) unknown. */
type Maybe =
  { readonly exists: false } | { readonly exists: true; readonly uid?: string; readonly value: string };

interface NameModel {
  readonly name: string;
  known: State;
  /** The state a write the kill cut off would have left; either may be found after the restart. */
  maybe?: Maybe;
}

interface Counts {
  creates: number;
  updates: number;
  deletes: number;
  cutOff: number;
}

const namespacePath = '/api/v1/namespaces/default/configmaps';
const label = { 'nanokube.test/crash-rounds': 'yes' };
const workers = 12;
const namesPerWorker = 6;

/** The fuzz suite's seeded generator, so a failing sequence of kill points can be replayed. */
function random(seed: number): () => number {
  const prng = new Prng(seed);
  return () => prng.float();
}

const rounds = Number(process.env['NANOKUBE_CRASH_ROUNDS'] ?? 20);
const seed = Number(process.env['NANOKUBE_CRASH_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

const dirs: string[] = [];
const servers: SpawnedServer[] = [];
after(async () => {
  for (const s of servers) await s.kill();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function same(a: State, b: State): boolean {
  if (!a.exists || !b.exists) return a.exists === b.exists;
  return a.uid === b.uid && a.rv === b.rv && a.value === b.value;
}

function could(a: State, b: Maybe | undefined): boolean {
  if (b === undefined) return false;
  if (!a.exists || !b.exists) return a.exists === b.exists;
  return (b.uid === undefined || a.uid === b.uid) && a.value === b.value;
}

function describeState(s: State | Maybe | undefined): string {
  if (s === undefined) return '-';
  return s.exists ? `value ${s.value}${'rv' in s ? ` rv ${s.rv}` : ''}` : 'absent';
}

function configMap(name: string, value: string, rv?: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: label, ...(rv === undefined ? {} : { resourceVersion: rv }) },
    data: { value },
  };
}

/**
 * One write to `name` chosen by `next`: a create when the name is absent, else an update or a
 * delete. Returns the state the write leaves, for the caller to record once acknowledged.
 */
async function write(
  client: HttpsClient,
  m: NameModel,
  next: () => number,
  counts: Counts,
  seen: Set<string>,
): Promise<State> {
  const known = m.known;
  const name = m.name;
  const value = `${name}@${Date.now()}-${Math.floor(next() * 1e9)}`;
  const noteRv = (rv: string): void => {
    assert.ok(!seen.has(rv), `resourceVersion ${rv} handed out twice (second time to ${name})`);
    seen.add(rv);
  };
  if (!known.exists) {
    m.maybe = { exists: true, value };
    const r = await client.send('POST', namespacePath, configMap(name, value));
    assert.equal(r.status, 201, `create ${name}: ${r.text}`);
    const meta = r.json<ConfigMapLike>().metadata;
    noteRv(meta.resourceVersion);
    counts.creates++;
    return { exists: true, uid: meta.uid, rv: meta.resourceVersion, value };
  }
  if (next() < 0.7) {
    m.maybe = { exists: true, uid: known.uid, value };
    const r = await client.send('PUT', `${namespacePath}/${name}`, configMap(name, value, known.rv));
    assert.equal(r.status, 200, `update ${name}: ${r.text}`);
    const meta = r.json<ConfigMapLike>().metadata;
    assert.equal(meta.uid, known.uid);
    noteRv(meta.resourceVersion);
    counts.updates++;
    return { exists: true, uid: meta.uid, rv: meta.resourceVersion, value };
  }
  m.maybe = { exists: false };
  const r = await client.send('DELETE', `${namespacePath}/${name}`);
  assert.equal(r.status, 200, `delete ${name}: ${r.text}`);
  counts.deletes++;
  return { exists: false };
}

/** Opens the database on its own (which recovers its write-ahead log) and checks every page. */
function integrityCheck(dataDir: string): string {
  const db = new Database(join(dataDir, 'state.db'), { fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

interface Ledger {
  readonly model: Map<string, NameModel>;
  readonly seen: Set<string>;
  maxRv: bigint;
}

/**
 * Checks what a restarted server lists against the ledger: each name as acknowledged, or as the
 * write the kill cut off would have left it (then its resourceVersion must be a new one too).
 * What is found becomes the known state.
 */
async function reconcile(client: HttpsClient, ledger: Ledger, when: string): Promise<void> {
  const list = await client.send('GET', `${namespacePath}?labelSelector=nanokube.test%2Fcrash-rounds%3Dyes`);
  assert.equal(list.status, 200, list.text);
  const body = list.json<ListLike>();
  assert.ok(BigInt(body.metadata.resourceVersion) >= ledger.maxRv, `${when}: list resourceVersion went back`);
  const found = new Map(body.items.map((i) => [i.metadata.name, i]));
  for (const [name, m] of ledger.model) {
    const item = found.get(name);
    const got: State =
      item === undefined
        ? { exists: false }
        : {
            exists: true,
            uid: item.metadata.uid,
            rv: item.metadata.resourceVersion,
            value: item.data?.['value'] ?? '',
          };
    const asAcknowledged = same(got, m.known);
    assert.ok(
      asAcknowledged || could(got, m.maybe),
      `${when}: ${name} is ${describeState(got)}; acknowledged ${describeState(m.known)}, ` +
        `cut-off write ${describeState(m.maybe)} (seed ${seed})`,
    );
    if (!asAcknowledged && got.exists) {
      assert.ok(!ledger.seen.has(got.rv), `${when}: ${name} has a resourceVersion given out before`);
      ledger.seen.add(got.rv);
      if (BigInt(got.rv) > ledger.maxRv) ledger.maxRv = BigInt(got.rv);
    }
    m.known = got;
    delete m.maybe;
  }
}

describe('nanokube serve survives repeated kill -9', { skip: skipWithoutDist }, () => {
  it(
    `${rounds} rounds of kill -9 during creates, updates and deletes lose nothing acknowledged`,
    { timeout: 60_000 + rounds * 15_000 },
    async (t) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'nanokube-crash-rounds-'));
      dirs.push(dataDir);
      const next = random(seed);
      t.diagnostic(`seed ${seed} (NANOKUBE_CRASH_SEED=${seed} replays the kill points), ${rounds} rounds`);

      const ledger: Ledger = { model: new Map(), seen: new Set(), maxRv: 0n };
      for (let w = 0; w < workers; w++)
        for (let n = 0; n < namesPerWorker; n++)
          ledger.model.set(`w${w}-n${n}`, { name: `w${w}-n${n}`, known: { exists: false } });
      const counts: Counts = { creates: 0, updates: 0, deletes: 0, cutOff: 0 };

      for (let round = 1; round <= rounds; round++) {
        const server = await spawnServer({ dataDir });
        servers.push(server);
        const client = httpsClient(readCredentials(server.kubeconfigPath), { maxSockets: workers });
        await reconcile(client, ledger, `restart before round ${round}`);

        // Each worker writes its own names one at a time, so a name has at most one write in
        // flight; the kill comes after a random number of acknowledged writes, and every worker
        // ends on the write it cut off.
        const killAfter = 20 + Math.floor(next() * 200);
        let acked = 0;
        let killed: Promise<void> | undefined;
        const worker = async (w: number): Promise<void> => {
          for (;;) {
            const m = ledger.model.get(`w${w}-n${Math.floor(next() * namesPerWorker)}`)!;
            try {
              m.known = await write(client, m, next, counts, ledger.seen);
              delete m.maybe;
              if (m.known.exists && BigInt(m.known.rv) > ledger.maxRv) ledger.maxRv = BigInt(m.known.rv);
              if (++acked >= killAfter && killed === undefined) killed = server.kill();
            } catch (err) {
              if (killed === undefined) throw err;
              counts.cutOff++;
              return;
            }
          }
        };
        await Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
        await killed;
        client.close();
        assert.equal(server.child.signalCode, 'SIGKILL');

        const integrity = integrityCheck(dataDir);
        assert.equal(integrity, 'ok', `round ${round}: integrity_check after kill -9: ${integrity}`);
      }

      // The last crash's outcome, then a write: its resourceVersion is above every one before.
      const server = await spawnServer({ dataDir });
      servers.push(server);
      const client = httpsClient(readCredentials(server.kubeconfigPath));
      try {
        await reconcile(client, ledger, 'restart after the last round');
        const created = await client.send('POST', namespacePath, configMap('after-the-rounds', 'x'));
        assert.equal(created.status, 201, created.text);
        const rv = BigInt(created.json<ConfigMapLike>().metadata.resourceVersion);
        assert.ok(
          rv > ledger.maxRv,
          `resourceVersion ${rv} not above every acknowledged one (${ledger.maxRv})`,
        );
      } finally {
        client.close();
        await server.stop();
      }
      t.diagnostic(
        `${rounds} kill -9 rounds survived: ${counts.creates} creates, ${counts.updates} updates, ` +
          `${counts.deletes} deletes acknowledged, ${counts.cutOff} writes cut off by the kills; ` +
          `0 lost, 0 resurrected, ${ledger.seen.size} resourceVersions all distinct, ` +
          `integrity_check ok after every kill`,
      );
    },
  );
});
