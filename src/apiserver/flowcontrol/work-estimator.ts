/**
 * Upstream's work estimator (pkg/util/flowcontrol/request, v1.27) for LISTs: a list takes
 * ceil(objects it processes / 100) seats, at least 1 and at most the level's max seats (upstream's
 * MaxSeatsTracker: min(15% of the nominal seats, nominal / handSize), at least 1; 10 for levels
 * without queues). The objects processed are the stored count of the resource (from the storage
 * object counts, refreshed every minute; a count older than 3 minutes is stale and costs the max,
 * an unknown resource the min), doubled or bounded by the limit as upstream estimates a list
 * served from storage. Every other request takes 1 seat (upstream's mutating estimator, which adds
 * final seats for watchers to notify, is not reproduced).
 */
import type { RequestInfo } from '../request-info.js';
import type { WorkEstimate } from './queueset.js';

const minimumSeats = 1;
const maximumSeatsLimit = 10;
const objectsPerSeat = 100;
const staleToleranceMs = 3 * 60_000;

/** Upstream StorageObjectCountTracker: counts by "resource.group" with when they were set. */
export class ObjectCountTracker {
  readonly #counts = new Map<string, { count: number; at: number }>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** A failed count (negative) is ignored. */
  set(groupResource: string, count: number): void {
    if (count <= -1) return;
    this.#counts.set(groupResource, { count, at: this.#now() });
  }

  get(groupResource: string): number | 'not-found' | 'stale' {
    const c = this.#counts.get(groupResource);
    if (c === undefined) return 'not-found';
    if (c.at < this.#now() - staleToleranceMs) return 'stale';
    return c.count;
  }
}

/** Upstream MaxSeatsTracker's value for a queuing level (0: none set). */
export function levelMaxSeats(nominalCL: number, handSize: number): number {
  return Math.max(1, Math.min(Math.ceil(nominalCL * 0.15), Math.trunc(nominalCL / handSize)));
}

function positiveInt(v: string | null): number {
  const n = v === null ? NaN : Number(v);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** shouldListFromStorage (APIListChunking on): not served from the watch cache. */
function listsFromStorage(q: URLSearchParams): boolean {
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const hasContinuation = (q.get('continue') ?? '') !== '';
  const hasLimit = positiveInt(q.get('limit')) > 0 && rv !== '0';
  return rv === '' || hasContinuation || hasLimit || (match !== '' && match !== 'NotOlderThan');
}

export function estimateWork(
  info: RequestInfo,
  url: URL,
  levelMax: number,
  counts: ObjectCountTracker,
): WorkEstimate {
  const seats = (initialSeats: number): WorkEstimate => ({
    initialSeats,
    finalSeats: 0,
    additionalLatency: 0,
  });
  if (!info.isResourceRequest || info.verb !== 'list') return seats(minimumSeats);
  const maxSeats = levelMax === 0 || levelMax > maximumSeatsLimit ? maximumSeatsLimit : levelMax;
  if (info.name !== '') return seats(minimumSeats);
  const key = info.group === '' ? info.resource : `${info.resource}.${info.group}`;
  const stored = counts.get(key);
  if (stored === 'stale') return seats(maxSeats);
  if (stored === 'not-found') return seats(minimumSeats);
  const q = url.searchParams;
  const requested = positiveInt(q.get('limit'));
  const limit = requested > 0 && requested < stored ? requested : stored;
  let objects: number;
  if (!listsFromStorage(q)) objects = stored;
  else if ((q.get('fieldSelector') ?? '') !== '' || (q.get('labelSelector') ?? '') !== '')
    objects = stored + limit;
  else objects = 2 * limit;
  return seats(Math.min(maxSeats, Math.max(minimumSeats, Math.ceil(objects / objectsPerSeat))));
}
