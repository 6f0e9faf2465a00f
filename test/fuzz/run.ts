/**
 * Runs fuzz cases against a server with bounded concurrency, judging each answer, checking the
 * server's readiness every `healthEvery` cases and restoring the fixtures now and then.
 */
import type { FuzzCase } from './case.js';
import { describeCase } from './case.js';
import { ensureFixtures } from './fixtures.js';
import type { Requester } from './fixtures.js';
import { judge, knownFailures } from './oracle.js';
import type { Outcome, Sender } from './send.js';

export interface Failure {
  /** Where the case came from: `corpus:<name>` or `seed <seed> case <index>`. */
  readonly origin: string;
  readonly case: FuzzCase;
  readonly problem: string;
}

export interface RunStats {
  readonly cases: number;
  readonly byStatus: Map<string, number>;
  readonly failures: Failure[];
  /** Failures that match a known, not yet fixed server bug. */
  readonly known: Failure[];
}

export interface RunOptions {
  readonly sender: Sender;
  readonly server: Requester;
  readonly concurrency: number;
  readonly healthEvery: number;
  /** Stop starting new cases after this many failures. */
  readonly maxFailures: number;
}

function statusKey(o: Outcome): string {
  return o.kind === 'answer' ? String(o.status) : o.kind;
}

/** Runs `cases` (pairs of origin and case) and returns what happened. */
export async function runCases(
  cases: Iterable<readonly [string, FuzzCase]>,
  o: RunOptions,
): Promise<RunStats> {
  const iterator = cases[Symbol.iterator]();
  const byStatus = new Map<string, number>();
  const failures: Failure[] = [];
  const known: Failure[] = [];
  let done = 0;
  let health: Promise<void> = Promise.resolve();

  const checkHealth = async (after: string): Promise<void> => {
    const r = await o.server.request('GET', '/readyz');
    if (r.status !== 200 || r.text !== 'ok') {
      failures.push({
        origin: after,
        case: { family: 'health', method: 'GET', path: '/readyz', expect: 'any' },
        problem: `/readyz answered ${r.status} ${r.text.slice(0, 300)} after ${after}`,
      });
    }
    await ensureFixtures(o.server);
  };

  const worker = async (): Promise<void> => {
    for (;;) {
      if (failures.length >= o.maxFailures) return;
      const next = iterator.next();
      if (next.done === true) return;
      const [origin, c] = next.value;
      await health;
      const outcome = await o.sender.send(c);
      const key = statusKey(outcome);
      byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
      const problem = judge(c, outcome);
      if (problem !== undefined) {
        const failure = { origin, case: c, problem: `${problem}\n  ${describeCase(c)}` };
        (knownFailures.some((k) => k.problem.test(problem)) ? known : failures).push(failure);
      }
      done++;
      if (done % o.healthEvery === 0) health = checkHealth(origin);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, () => worker()));
  await checkHealth('the last case');
  return { cases: done, byStatus, failures, known };
}
