/**
 * The API Priority and Fairness config controller and request dispatcher (upstream
 * pkg/util/flowcontrol apf_controller.go and apf_filter.go, v1.27): digests every FlowSchema and
 * PriorityLevelConfiguration whenever one changes; the mandatory `exempt` and `catch-all` objects
 * are imagined while missing; schemas naming a missing level are skipped and marked Dangling.
 * Each limited level gets ceil(SCL × shares / Σshares) nominal seats (SCL: the server concurrency
 * limit, --max-requests-inflight + --max-mutating-requests-inflight), lends lendablePercent of
 * them and borrows up to borrowingLimitPercent (unlimited when unset); every 10 s the current
 * limits are re-derived from each level's seat demand (upstream's fair allocation). A request is
 * classified by the first matching schema (matchingPrecedence, then name), its flow is the schema
 * and the distinguisher (user or namespace), and it is queued in, dispatched from or rejected by
 * its level's queue set; exempt levels run requests at once.
 */
import { createHash } from 'node:crypto';
import { bootstrapFlowcontrolObjects } from '../../apis/flowcontrol/bootstrap.js';
import { catchAllName, exemptName } from '../../apis/flowcontrol/constants.js';
import { Dealer } from '../../apis/flowcontrol/shufflesharding.js';
import type { UserInfo } from '../../machinery/user.js';
import type { JsonObject } from '../../util/json.js';
import type { Logger } from '../../util/log.js';
import type { RequestInfo } from '../request-info.js';
import { computeConcurrencyAllocation } from './concurrency-allocation.js';
import { FlowGauges } from './flow-gauges.js';
import { Integrator, SeatDemandStats } from './integrator.js';
import { compareFlowSchemas, matchesFlowSchema } from './match.js';
import {
  currentLimitSeats,
  dispatchedRequestsTotal,
  requestExecutionSeconds,
  requestWaitDurationSeconds,
  setPriorityLevelConfiguration,
} from './metrics.js';
import { QueueSet } from './queueset.js';
import type { QueuingConfig, WorkEstimate } from './queueset.js';
import { flowSchemaDigest, priorityLevelDigest } from './types.js';
import { ObjectCountTracker, estimateWork, levelMaxSeats } from './work-estimator.js';
import type {
  FlowSchemaCondition,
  FlowSchemaDigest,
  FlowcontrolConfigSource,
  PriorityLevelDigest,
} from './types.js';

/** Upstream borrowingAdjustmentPeriod. */
const borrowingAdjustmentMs = 10_000;
/** Upstream ConfigConsumerAsFieldManager (the status writes' field manager). */
export const configConsumerFieldManager = 'api-priority-and-fairness-config-consumer-v1';

export interface PriorityLevelState {
  pl: PriorityLevelDigest;
  /** Undefined for an exempt level. */
  queues: QueueSet | undefined;
  quiescing: boolean;
  nominalCL: number;
  minCL: number;
  maxCL: number;
  currentCL: number;
  /** The most seats one request may take (upstream MaxSeatsTracker; 0: the estimator's limit). */
  maxSeats: number;
  readonly seatDemand: Integrator;
  readonly stats: SeatDemandStats;
}

export interface FlowControllerOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  readonly serverConcurrencyLimit: number;
  /** Seconds a request may wait in a queue (upstream: --request-timeout / 4). */
  readonly requestWaitLimit: number;
  readonly log: Logger;
  /** Seconds, monotonic (default: performance.now()/1000). */
  readonly now?: () => number;
}

export interface HandleOptions {
  readonly info: RequestInfo;
  /** The request URL (a list's options weigh its work). */
  readonly url: URL;
  readonly user: UserInfo;
  readonly signal: AbortSignal;
  /** Told the classification before anything else happens to the request. */
  readonly onClassified: (fs: FlowSchemaDigest, pl: PriorityLevelDigest) => void;
  readonly onQueued?: (inQueue: boolean) => void;
  readonly execute: () => Promise<void>;
}

/** Upstream hashFlowID: the first 8 bytes, little-endian, of sha256(schema \0 distinguisher). */
export function hashFlowID(fsName: string, distinguisher: string): bigint {
  const sum = createHash('sha256')
    .update(fsName)
    .update(Buffer.from([0]))
    .update(distinguisher)
    .digest();
  return sum.readBigUInt64LE(0);
}

function mandatory(): { levels: PriorityLevelDigest[]; schemas: FlowSchemaDigest[] } {
  const { priorityLevels, flowSchemas } = bootstrapFlowcontrolObjects();
  const named = (o: { metadata: { name?: string } }): boolean =>
    o.metadata.name === exemptName || o.metadata.name === catchAllName;
  return {
    levels: priorityLevels.filter(named).map((o) => priorityLevelDigest(o as unknown as JsonObject)),
    schemas: flowSchemas.filter(named).map((o) => flowSchemaDigest(o as unknown as JsonObject)),
  };
}

const goRound = (x: number): number => Math.sign(x) * Math.round(Math.abs(x));

export class FlowController {
  readonly #o: FlowControllerOptions;
  readonly #now: () => number;
  readonly #gauges = new FlowGauges();
  readonly #mandatory = mandatory();
  #levels = new Map<string, PriorityLevelState>();
  #schemas: FlowSchemaDigest[] = [];
  #nominalCLSum = 0;
  #lastObjects: { levels: readonly JsonObject[]; schemas: readonly JsonObject[] } = {
    levels: [],
    schemas: [],
  };
  #source: FlowcontrolConfigSource | undefined;
  /** Status writes of the last minute (upstream mostRecentUpdates). */
  #recentUpdates: { time: number; names: Set<string> }[] = [];
  #delayedDigest: NodeJS.Timeout | undefined;
  /** Stored object counts by "resource.group", fed by the storage object counter. */
  readonly objectCounts = new ObjectCountTracker();

  constructor(o: FlowControllerOptions) {
    this.#o = o;
    this.#now = o.now ?? (() => performance.now() / 1000);
    this.#digest([], []);
  }

  get serverConcurrencyLimit(): number {
    return this.#o.serverConcurrencyLimit;
  }

  /** The levels by name (for the debug endpoints and tests). */
  get levels(): ReadonlyMap<string, PriorityLevelState> {
    return this.#levels;
  }

  /** The schemas in matching order, the dangling ones left out. */
  get flowSchemas(): readonly FlowSchemaDigest[] {
    return this.#schemas;
  }

  /** Follows the configuration from `source` and adjusts borrowing every 10 s until `signal` aborts. */
  async run(source: FlowcontrolConfigSource, signal: AbortSignal): Promise<void> {
    this.#source = source;
    const timer = setInterval(() => this.updateBorrowing(), borrowingAdjustmentMs);
    timer.unref();
    try {
      await source.run((levels, schemas) => this.digestObjects(levels, schemas), signal);
    } finally {
      clearInterval(timer);
      clearTimeout(this.#delayedDigest);
    }
  }

  /** Digests a complete configuration (v1beta3 objects) and writes the Dangling conditions it calls for. */
  digestObjects(levels: readonly JsonObject[], schemas: readonly JsonObject[]): void {
    this.#lastObjects = { levels, schemas };
    const updates = this.#digest(levels.map(priorityLevelDigest), schemas.map(flowSchemaDigest));
    this.#writeStatus(updates);
  }

  #digest(
    newLevels: readonly PriorityLevelDigest[],
    newSchemas: readonly FlowSchemaDigest[],
  ): { name: string; condition: FlowSchemaCondition }[] {
    const next = new Map<string, PriorityLevelState>();
    let shareSum = 0;
    const adopt = (pl: PriorityLevelDigest, old: PriorityLevelState | undefined): void => {
      const state: PriorityLevelState = old ?? {
        pl,
        queues: undefined,
        quiescing: false,
        nominalCL: 0,
        minCL: 0,
        maxCL: 0,
        currentCL: 0,
        maxSeats: 0,
        seatDemand: new Integrator(this.#now),
        stats: new SeatDemandStats(),
      };
      state.pl = pl;
      next.set(pl.name, state);
      if (pl.limited !== undefined) shareSum += pl.limited.nominalConcurrencyShares;
    };
    for (const pl of newLevels) {
      // Upstream ignores a level whose name and type disagree (validation forbids it).
      if ((pl.limited === undefined) !== (pl.name === exemptName)) continue;
      const old = this.#levels.get(pl.name);
      if (old !== undefined) old.quiescing = false;
      adopt(pl, old);
    }
    const updates: { name: string; condition: FlowSchemaCondition }[] = [];
    const schemas: FlowSchemaDigest[] = [];
    const seen = new Set<string>();
    for (const fs of newSchemas) {
      if (seen.has(fs.name)) continue;
      seen.add(fs.name);
      const found = next.has(fs.priorityLevel);
      const update = this.#danglingUpdate(fs, !found);
      if (update !== undefined) updates.push(update);
      if (found) schemas.push(fs);
    }
    schemas.sort(compareFlowSchemas);
    if (!schemas.some((s) => s.name === exemptName)) schemas.unshift(this.#mandatory.schemas[0]!);
    if (!schemas.some((s) => s.name === catchAllName)) schemas.push(this.#mandatory.schemas[1]!);
    this.#schemas = schemas;
    // Levels no longer configured: kept (quiescing) while they have requests.
    for (const [name, old] of this.#levels) {
      if (next.has(name)) continue;
      const mandatoryLevel = name === exemptName || name === catchAllName;
      if (!mandatoryLevel && (old.queues === undefined || old.queues.isIdle())) continue;
      if (!mandatoryLevel) old.quiescing = true;
      adopt(old.pl, old);
    }
    for (const proto of this.#mandatory.levels) {
      if (!next.has(proto.name)) adopt(proto, undefined);
    }
    this.#nominalCLSum = 0;
    for (const [name, state] of next) {
      const limited = state.pl.limited;
      if (limited === undefined) {
        state.queues = undefined;
        continue;
      }
      const scl = this.#o.serverConcurrencyLimit;
      const nominal = Math.ceil((scl * limited.nominalConcurrencyShares) / shareSum);
      const lendable =
        limited.lendablePercent !== undefined ? goRound((nominal * limited.lendablePercent) / 100) : 0;
      const borrowing =
        limited.borrowingLimitPercent !== undefined
          ? goRound((nominal * limited.borrowingLimitPercent) / 100)
          : scl;
      setPriorityLevelConfiguration(name, nominal, nominal - lendable, nominal + borrowing);
      state.nominalCL = nominal;
      state.minCL = nominal - lendable;
      state.maxCL = nominal + borrowing;
      this.#nominalCLSum += nominal;
      const qCfg = this.#queuingConfig(state.pl);
      state.maxSeats = limited.queuing !== undefined ? levelMaxSeats(nominal, limited.queuing.handSize) : 0;
      if (state.queues === undefined) {
        state.currentCL = nominal - Math.trunc(lendable / 2);
        state.queues = new QueueSet(
          {
            now: this.#now,
            seatDemand: (seats) => state.seatDemand.set(seats),
            gauges: this.#gauges,
          },
          qCfg,
        );
      }
      state.queues.setConfiguration(qCfg, this.#dealer(qCfg), state.currentCL);
    }
    this.#levels = next;
    this.updateBorrowing();
    return updates;
  }

  #queuingConfig(pl: PriorityLevelDigest): QueuingConfig {
    const q = pl.limited?.queuing;
    return {
      name: pl.name,
      desiredNumQueues: q?.queues ?? 0,
      queueLengthLimit: q?.queueLengthLimit ?? 0,
      handSize: q?.handSize ?? 0,
      requestWaitLimit: this.#o.requestWaitLimit,
    };
  }

  #dealer(q: QueuingConfig): Dealer | undefined {
    return q.desiredNumQueues > 0 ? new Dealer(q.desiredNumQueues, q.handSize) : undefined;
  }

  /** Upstream presyncFlowSchemaStatus: the Dangling condition to write, when it differs. */
  #danglingUpdate(
    fs: FlowSchemaDigest,
    dangling: boolean,
  ): { name: string; condition: FlowSchemaCondition } | undefined {
    const status = dangling ? 'True' : 'False';
    const reason = dangling ? 'NotFound' : 'Found';
    const message = dangling
      ? `This FlowSchema references the PriorityLevelConfiguration object named "${fs.priorityLevel}" but there is no such object`
      : `This FlowSchema references the PriorityLevelConfiguration object named "${fs.priorityLevel}" and it exists`;
    const cur = fs.dangling;
    if (cur !== undefined && cur.status === status && cur.reason === reason && cur.message === message) {
      return undefined;
    }
    return {
      name: fs.name,
      condition: {
        type: 'Dangling',
        status,
        // metav1.Time: RFC 3339 in whole seconds.
        lastTransitionTime: new Date(Math.floor(Date.now() / 1000) * 1000)
          .toISOString()
          .replace('.000Z', 'Z'),
        reason,
        message,
      },
    };
  }

  /** Writes the conditions, at most 5 a minute per schema (then again in 30–75 s, as upstream). */
  #writeStatus(updates: readonly { name: string; condition: FlowSchemaCondition }[]): void {
    const source = this.#source;
    if (source === undefined || updates.length === 0) return;
    const now = this.#now();
    this.#recentUpdates = this.#recentUpdates.filter((u) => now - u.time <= 60);
    const written = new Set<string>();
    let delay = false;
    for (const u of updates) {
      const recent = this.#recentUpdates.filter((r) => r.names.has(u.name)).length;
      if (recent > 5) {
        delay = true;
        continue;
      }
      written.add(u.name);
      source.writeFlowSchemaCondition(u.name, u.condition).catch((err: unknown) => {
        this.#o.log.v(
          2,
          `failed to set a status.condition for FlowSchema ${u.name}: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    }
    this.#recentUpdates.unshift({ time: now, names: written });
    if (delay && this.#delayedDigest === undefined) {
      this.#delayedDigest = setTimeout(
        () => {
          this.#delayedDigest = undefined;
          this.digestObjects(this.#lastObjects.levels, this.#lastObjects.schemas);
        },
        (30 + Math.floor(Math.random() * 45)) * 1000,
      );
      this.#delayedDigest.unref();
    }
  }

  /** Upstream updateBorrowingLocked: current limits from the seat demand of the last period. */
  updateBorrowing(): void {
    const names: string[] = [];
    const items = [];
    for (const [name, s] of this.#levels) {
      if (s.pl.limited === undefined) continue;
      s.stats.update(s.seatDemand.reset());
      const minCurrent = Math.max(s.minCL, Math.min(s.nominalCL, s.stats.highWatermark));
      names.push(name);
      items.push({
        lowerBound: minCurrent,
        upperBound: s.maxCL,
        target: Math.max(minCurrent, s.stats.smoothed),
      });
    }
    if (items.length === 0) return;
    let allocs: number[];
    try {
      allocs = computeConcurrencyAllocation(this.#nominalCLSum, items).allocs;
    } catch (err) {
      this.#o.log.error(
        `Unable to derive new concurrency limits: ${err instanceof Error ? err.message : String(err)}`,
      );
      allocs = names.map((n) => this.#levels.get(n)!.currentCL);
    }
    names.forEach((name, idx) => {
      const s = this.#levels.get(name)!;
      s.currentCL = goRound(allocs[idx]!);
      currentLimitSeats.cell(name).set(s.currentCL);
      const qCfg = this.#queuingConfig(s.pl);
      s.queues?.setConfiguration(qCfg, this.#dealer(qCfg), s.currentCL);
    });
  }

  #classify(info: RequestInfo, user: UserInfo): { fs: FlowSchemaDigest; state: PriorityLevelState } {
    let selected: FlowSchemaDigest | undefined;
    let catchAll: FlowSchemaDigest | undefined;
    for (const fs of this.#schemas) {
      if (matchesFlowSchema(fs, info, user)) {
        selected = fs;
        break;
      }
      if (fs.name === catchAllName) catchAll = fs;
    }
    selected ??= catchAll;
    if (selected === undefined) throw new Error('no fallback catch-all flow schema found');
    const state = this.#levels.get(selected.priorityLevel);
    if (state === undefined) throw new Error(`priority level ${selected.priorityLevel} is not configured`);
    return { fs: selected, state };
  }

  /**
   * Classifies, queues and runs one request (upstream Handle). Resolves true when it executed,
   * false when it was rejected (queue full, concurrency limit, time-out) or cancelled while waiting.
   */
  async handle(h: HandleOptions): Promise<boolean> {
    const { fs, state } = this.#classify(h.info, h.user);
    const pl = state.pl;
    h.onClassified(fs, pl);
    const type = h.info.isResourceRequest && h.info.verb === 'watch' ? 'watch' : 'regular';
    const run = async (): Promise<void> => {
      dispatchedRequestsTotal.cell(pl.name, fs.name).inc();
      const started = this.#now();
      try {
        await h.execute();
      } finally {
        requestExecutionSeconds.cell(pl.name, fs.name, type).observe(this.#now() - started);
      }
    };
    const queues = state.queues;
    if (queues === undefined) {
      await run();
      return true;
    }
    const numQueues = pl.limited?.queuing?.queues ?? 0;
    let distinguisher = '';
    let hashValue = 0n;
    if (numQueues > 1) {
      distinguisher =
        fs.distinguisher === 'ByUser'
          ? h.user.name
          : fs.distinguisher === 'ByNamespace'
            ? h.info.namespace
            : '';
      hashValue = hashFlowID(fs.name, distinguisher);
    }
    const estimate: WorkEstimate = estimateWork(h.info, h.url, state.maxSeats, this.objectCounts);
    const startWaiting = this.#now();
    const req = queues.startRequest({
      signal: h.signal,
      workEstimate: estimate,
      hashValue,
      flowDistinguisher: distinguisher,
      fsName: fs.name,
      info: h.info,
      user: h.user,
      ...(h.onQueued !== undefined ? { onQueued: h.onQueued } : {}),
    });
    const observeWait = (execute: string): void =>
      requestWaitDurationSeconds.cell(pl.name, fs.name, execute).observe(this.#now() - startWaiting);
    if (req === undefined) {
      observeWait('false');
      this.#maybeReap(state);
      return false;
    }
    let executed = false;
    await req.finish(async () => {
      observeWait('true');
      queues.noteDispatched();
      executed = true;
      await run();
    });
    if (!executed) observeWait('true');
    this.#maybeReap(state);
    return executed;
  }

  /** A level no longer configured goes once it is idle (upstream maybeReap). */
  #maybeReap(state: PriorityLevelState): void {
    if (state.quiescing && state.queues?.isIdle() === true) {
      queueMicrotask(() => this.digestObjects(this.#lastObjects.levels, this.#lastObjects.schemas));
    }
  }
}
