/**
 * Integration: the seeded fuzz suite. One in-process server with a CRD installed gets the
 * checked-in corpus, then NANOKUBE_FUZZ_CASES generated cases (default 4000) from the seed
 * NANOKUBE_FUZZ_SEED (default a fixed seed, so `npm test` and CI are reproducible; `npm run fuzz`
 * draws a random one; printed, and printed again with every failure so the case can be replayed). Every answer must be a Status with a 4xx code (or a 2xx where the input may
 * be valid), none may hang, the server must stay ready and its heap bounded.
 */
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import type { TestContext } from 'node:test';
import { loadCorpus } from '../fuzz/corpus.js';
import { installCrd, ensureFixtures } from '../fuzz/fixtures.js';
import { generate } from '../fuzz/generate.js';
import type { Failure, RunStats } from '../fuzz/run.js';
import { runCases } from '../fuzz/run.js';
import { Sender } from '../fuzz/send.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

function envInt(name: string, fallback: number): number {
  const v = process.env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name}=${v} is no non-negative integer`);
  return n;
}

const cases = envInt('NANOKUBE_FUZZ_CASES', 4000);
/** The seed `npm test` runs: fixed, so a red run is the code's doing and replays as it is. */
const defaultSeed = 1160771577;
const seed = envInt('NANOKUBE_FUZZ_SEED', defaultSeed) >>> 0;

/** A full collection when the heap is measured (V8's `gc`, exposed for this process). */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  return typeof gc === 'function' ? (gc as () => void) : () => undefined;
}

function report(t: TestContext, what: string, stats: RunStats): void {
  const statuses = [...stats.byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}:${n}`);
  t.diagnostic(`${what}: ${stats.cases} cases, answers ${statuses.join(' ')}`);
  for (const f of stats.known) {
    t.diagnostic(`known failing: ${f.origin}: ${f.problem.split('\n')[0]?.slice(0, 200) ?? ''}`);
  }
}

function failureText(failures: readonly Failure[]): string {
  return failures
    .slice(0, 20)
    .map((f) => `${f.origin}: ${f.problem}\n  case: ${JSON.stringify(f.case).slice(0, 2000)}`)
    .join('\n');
}

describe('fuzz: every bad request answers a 4xx Status', () => {
  let s: TestServer;
  let sender: Sender;
  const gc = collectGarbage();

  before(async () => {
    s = await startTestServer({ controllers: false });
    await installCrd(s);
    await ensureFixtures(s);
    sender = new Sender({
      port: s.port,
      credentials: { ca: s.pki.caCert, cert: s.pki.adminCert, key: s.pki.adminKey },
      // Past the server's own 60 s request deadline: the slowest honest answers (a 2 MB body on a
      // busy shared machine) take seconds, a hang takes forever.
      timeoutMs: 75_000,
      streamMs: 300,
      // An Invalid Status lists every error: a 186 KB Service with 5,000 duplicate port names is
      // answered with 1.1 MB, which a 1 MiB cap cut into JSON that did not parse.
      maxBodyBytes: 32 * 1024 * 1024,
    });
  });
  after(async () => {
    sender.close();
    await s.stop();
  });

  const options = () => ({ sender, server: s, concurrency: 6, healthEvery: 100, maxFailures: 50 });

  it('replays the corpus', async (t) => {
    const { regressions, knownFailing } = loadCorpus();
    const stats = await runCases(
      regressions.map((e) => [`corpus:${e.name}`, e.case] as const),
      options(),
    );
    report(t, 'corpus', stats);
    if (knownFailing.length > 0) {
      const known = await runCases(
        knownFailing.map((e) => [`known-failing:${e.name}`, e.case] as const),
        { ...options(), concurrency: 1, maxFailures: Infinity },
      );
      const still = [...known.failures, ...known.known];
      t.diagnostic(`known failing: ${knownFailing.length} entries, ${still.length} still fail`);
      for (const f of still) t.diagnostic(`  ${f.origin}: ${f.problem.split('\n')[0]?.slice(0, 300) ?? ''}`);
    }
    assert.equal(stats.failures.length, 0, failureText(stats.failures));
  });

  it(`runs ${cases} generated cases (seed ${seed})`, { timeout: 60 * 60_000 }, async (t) => {
    t.diagnostic(`NANOKUBE_FUZZ_SEED=${seed} NANOKUBE_FUZZ_CASES=${cases}`);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = Date.now();
    const stats = await runCases(
      (function* () {
        for (let i = 0; i < cases; i++) yield [`seed ${seed} case ${i}`, generate(seed, i)] as const;
      })(),
      options(),
    );
    report(t, `seed ${seed}`, stats);
    if (sender.goaways.length > 0)
      t.diagnostic(`HTTP/2 sessions the server ended: ${sender.goaways.join(' ')}`);
    t.diagnostic(`${stats.cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    t.diagnostic(
      `heap ${(heapBefore / 2 ** 20).toFixed(0)} MiB before, ${(heapAfter / 2 ** 20).toFixed(0)} MiB after`,
    );
    assert.equal(stats.failures.length, 0, `seed ${seed}:\n${failureText(stats.failures)}`);
    // The server keeps objects, watch cache windows and compiled schemas: some growth is expected,
    // a leak per request is not.
    assert.ok(heapAfter - heapBefore < 256 * 2 ** 20, `heap grew from ${heapBefore} to ${heapAfter}`);
    const ns = await s.request('GET', '/api/v1/namespaces/default');
    assert.equal(
      ns.json<{ metadata: { deletionTimestamp?: string } }>().metadata.deletionTimestamp,
      undefined,
    );
  });
});
