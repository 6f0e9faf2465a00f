/**
 * One priority level's queues and seats: upstream's fairqueuing/queueset (v1.27), a fair queuing
 * with virtual time measured in seat-seconds. A request is dealt a hand of queues by shuffle
 * sharding its flow's hash and joins the one with the least work waiting; the queue whose oldest
 * request would finish first in virtual time is dispatched next while seats are free. Requests
 * beyond the queue length limit while every seat is taken are rejected ("queue-full"); a request
 * waiting longer than the request wait limit is rejected ("time-out") when another arrives at its
 * queue; one whose client goes away is "cancelled". A level without queues (limitResponse Reject)
 * executes a request when seats are free and rejects it otherwise ("concurrency-limit").
 *
 * Virtual time is a float here (upstream's is fixed-point with epoch advances near 2^63).
 */
import type { Dealer } from '../../apis/flowcontrol/shufflesharding.js';
import type { UserInfo } from '../../machinery/user.js';
import type { RequestInfo } from '../request-info.js';
import { rejectedRequestsTotal, requestQueueLengthAfterEnqueue } from './metrics.js';
import type { FlowGauges } from './flow-gauges.js';

export interface WorkEstimate {
  readonly initialSeats: number;
  readonly finalSeats: number;
  /** Seconds the final seats stay taken after the request ends. */
  readonly additionalLatency: number;
}

export interface QueuingConfig {
  readonly name: string;
  /** 0: no queuing (limitResponse Reject). */
  readonly desiredNumQueues: number;
  readonly queueLengthLimit: number;
  readonly handSize: number;
  /** Seconds a request may wait in a queue (upstream: a quarter of --request-timeout). */
  readonly requestWaitLimit: number;
}

type Decision = 'execute' | 'reject' | 'cancel';

/** Upstream's estimatedServiceDuration: the work a request is charged with when dispatched. */
const estimatedServiceSeconds = 0.003;

export interface StartRequestOptions {
  readonly signal: AbortSignal;
  readonly workEstimate: WorkEstimate;
  readonly hashValue: bigint;
  readonly flowDistinguisher: string;
  readonly fsName: string;
  readonly info: RequestInfo;
  readonly user: UserInfo;
  /** Told when the request enters (true) and leaves (false) a queue. */
  readonly onQueued?: (inQueue: boolean) => void;
}

function maxSeats(w: WorkEstimate): number {
  return Math.max(w.initialSeats, w.finalSeats);
}

export class QueuedRequest {
  readonly qs: QueueSet;
  readonly o: StartRequestOptions;
  readonly arrivalTime: number;
  arrivalR: number;
  readonly totalWork: number;
  queue: Queue | undefined;
  startTime = 0;
  #decision: Decision | undefined;
  #decided: (d: Decision) => void = () => undefined;
  readonly #decisionPromise: Promise<Decision>;
  #waitStarted = false;
  #onAbort: (() => void) | undefined;

  constructor(qs: QueueSet, o: StartRequestOptions, now: number, r: number, decision?: Decision) {
    this.qs = qs;
    this.o = o;
    this.arrivalTime = now;
    this.arrivalR = r;
    const w = o.workEstimate;
    this.totalWork = w.initialSeats * estimatedServiceSeconds + w.finalSeats * w.additionalLatency;
    if (decision !== undefined) {
      this.#decision = decision;
      this.#decisionPromise = Promise.resolve(decision);
      return;
    }
    this.#decisionPromise = new Promise<Decision>((resolve) => {
      this.#decided = resolve;
    });
    if (o.signal.aborted) this.setDecision('cancel');
    else {
      this.#onAbort = () => this.setDecision('cancel');
      o.signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  get maxSeats(): number {
    return maxSeats(this.o.workEstimate);
  }

  get workEstimate(): WorkEstimate {
    return this.o.workEstimate;
  }

  /** Write-once: false when a decision was already made. */
  setDecision(d: Decision): boolean {
    if (this.#decision !== undefined) return false;
    this.#decision = d;
    if (this.#onAbort !== undefined) this.o.signal.removeEventListener('abort', this.#onAbort);
    this.#decided(d);
    return true;
  }

  /**
   * Waits for the decision and runs `execute` when it is to execute (upstream Request.Finish).
   * Returns whether the request executed.
   */
  async finish(execute: () => Promise<void>): Promise<boolean> {
    const decision = await this.#decisionPromise;
    if (!this.qs.noteWaitEnded(this, decision)) return false;
    try {
      await execute();
    } finally {
      this.qs.finishRequest(this);
    }
    return true;
  }

  /** Marks the start of waiting; false when it had already started. */
  startWait(): boolean {
    if (this.#waitStarted) return false;
    this.#waitStarted = true;
    return true;
  }
}

export class Queue {
  index: number;
  readonly requests: QueuedRequest[] = [];
  nextDispatchR = 0;
  requestsExecuting = 0;
  seatsInUse = 0;

  constructor(index: number) {
    this.index = index;
  }

  sums(): { initialSeats: number; maxSeats: number; totalWork: number } {
    let initialSeats = 0;
    let max = 0;
    let totalWork = 0;
    for (const r of this.requests) {
      initialSeats += r.workEstimate.initialSeats;
      max += r.maxSeats;
      totalWork += r.totalWork;
    }
    return { initialSeats, maxSeats: max, totalWork };
  }

  remove(r: QueuedRequest): boolean {
    const i = this.requests.indexOf(r);
    if (i < 0) return false;
    this.requests.splice(i, 1);
    return true;
  }
}

export interface QueueSetDump {
  readonly queues: readonly {
    readonly requests: readonly QueuedRequest[];
    readonly nextDispatchR: number;
    readonly executingRequests: number;
    readonly seatsInUse: number;
    readonly sums: { initialSeats: number; maxSeats: number; totalWork: number };
  }[];
  readonly waiting: number;
  readonly executing: number;
  readonly seatsInUse: number;
  readonly seatsWaiting: number;
  readonly dispatched: number;
  readonly rejected: number;
  readonly timedout: number;
  readonly cancelled: number;
}

export interface QueueSetOptions {
  /** Seconds (monotonic). */
  readonly now: () => number;
  /** Told the seat demand (seats in use plus waiting) whenever it changes. */
  readonly seatDemand: (seats: number) => void;
  /** Executing and waiting requests per flow schema (the APF gauges). */
  readonly gauges: FlowGauges;
}

export class QueueSet {
  readonly #o: QueueSetOptions;
  qCfg: QueuingConfig;
  concurrencyLimit = 0;
  #dealer: Dealer | undefined;
  queues: Queue[] = [];
  #currentR = 0;
  #lastRealTime: number;
  #robinIndex = -1;
  #enqueues = 0;
  totRequestsWaiting = 0;
  totRequestsExecuting = 0;
  totSeatsInUse = 0;
  totSeatsWaiting = 0;
  totRequestsDispatched = 0;
  totRequestsRejected = 0;
  totRequestsTimedout = 0;
  totRequestsCancelled = 0;

  constructor(o: QueueSetOptions, qCfg: QueuingConfig) {
    this.#o = o;
    this.qCfg = qCfg;
    this.#lastRealTime = o.now();
  }

  get currentR(): number {
    return this.#currentR;
  }

  /** Upstream setConfiguration: more queues are added at once, extra ones go when empty. */
  setConfiguration(qCfg: QueuingConfig, dealer: Dealer | undefined, concurrencyLimit: number): void {
    this.#syncTime();
    let cfg = qCfg;
    if (cfg.desiredNumQueues > 0) {
      while (this.queues.length < cfg.desiredNumQueues) this.queues.push(new Queue(this.queues.length));
    } else {
      cfg = {
        ...cfg,
        queueLengthLimit: this.qCfg.queueLengthLimit,
        handSize: this.qCfg.handSize,
        requestWaitLimit: this.qCfg.requestWaitLimit,
      };
    }
    this.qCfg = cfg;
    this.concurrencyLimit = concurrencyLimit;
    this.#dealer = dealer;
    this.#dispatchAsMuchAsPossible();
  }

  isIdle(): boolean {
    return this.totRequestsWaiting === 0 && this.totRequestsExecuting === 0;
  }

  /** A request to wait for, or undefined when it is rejected at once (counted and reported). */
  startRequest(o: StartRequestOptions): QueuedRequest | undefined {
    this.#syncTime();
    if (this.qCfg.desiredNumQueues < 1) {
      if (!this.#canAccommodate(maxSeats(o.workEstimate))) {
        this.totRequestsRejected++;
        rejectedRequestsTotal.cell(this.qCfg.name, o.fsName, 'concurrency-limit').inc();
        return undefined;
      }
      return this.#dispatchSansQueue(o);
    }
    const req = this.#timeoutOldRequestsAndRejectOrEnqueue(o);
    if (req === undefined) {
      this.totRequestsRejected++;
      rejectedRequestsTotal.cell(this.qCfg.name, o.fsName, 'queue-full').inc();
      return undefined;
    }
    this.#dispatchAsMuchAsPossible();
    return req;
  }

  /** After the decision: counts a time-out or a cancellation; true when the request is to execute. */
  noteWaitEnded(req: QueuedRequest, decision: Decision): boolean {
    this.#syncTime();
    if (!req.startWait()) return false;
    if (decision === 'execute') return true;
    if (decision === 'reject') {
      this.totRequestsRejected++;
      this.totRequestsTimedout++;
      rejectedRequestsTotal.cell(this.qCfg.name, req.o.fsName, 'time-out').inc();
      return false;
    }
    const queue = req.queue;
    if (queue !== undefined && queue.remove(req)) {
      this.totRequestsWaiting--;
      this.totSeatsWaiting -= req.maxSeats;
      this.totRequestsRejected++;
      this.totRequestsCancelled++;
      rejectedRequestsTotal.cell(this.qCfg.name, req.o.fsName, 'cancelled').inc();
      this.#o.gauges.waiting(this.qCfg.name, req.o.fsName, -1);
      req.o.onQueued?.(false);
      this.#seatDemand();
      this.#boundNextDispatch(queue);
    }
    return false;
  }

  noteDispatched(): void {
    this.totRequestsDispatched++;
  }

  #syncTime(): void {
    const now = this.#o.now();
    const dt = now - this.#lastRealTime;
    this.#lastRealTime = now;
    if (dt > 0) this.#currentR += this.#virtualTimeRatio() * dt;
  }

  #virtualTimeRatio(): number {
    let active = 0;
    let seatsRequested = 0;
    for (const q of this.queues) {
      let waitingSeats = 0;
      for (const r of q.requests) waitingSeats += r.maxSeats;
      seatsRequested += q.seatsInUse + waitingSeats;
      if (q.requests.length > 0 || q.requestsExecuting > 0) active++;
    }
    if (active === 0) return 0;
    return Math.min(seatsRequested, this.concurrencyLimit) / active;
  }

  #seatDemand(): void {
    this.#o.seatDemand(this.totSeatsInUse + this.totSeatsWaiting);
  }

  #timeoutOldRequestsAndRejectOrEnqueue(o: StartRequestOptions): QueuedRequest | undefined {
    const queue = this.queues[this.#shuffleShard(o.hashValue)]!;
    this.#removeTimedOutRequests(queue);
    const req = new QueuedRequest(this, o, this.#o.now(), this.#currentR);
    req.queue = queue;
    try {
      if (
        this.totSeatsInUse >= this.concurrencyLimit &&
        queue.requests.length >= this.qCfg.queueLengthLimit
      ) {
        req.setDecision('reject');
        return undefined;
      }
      if (queue.requests.length === 0 && queue.requestsExecuting === 0) queue.nextDispatchR = this.#currentR;
      queue.requests.push(req);
      this.totRequestsWaiting++;
      this.totSeatsWaiting += req.maxSeats;
      this.#o.gauges.waiting(this.qCfg.name, o.fsName, 1);
      o.onQueued?.(true);
      this.#seatDemand();
      requestQueueLengthAfterEnqueue.cell(this.qCfg.name, o.fsName).observe(queue.requests.length);
      return req;
    } finally {
      this.#boundNextDispatch(queue);
    }
  }

  #shuffleShard(hashValue: bigint): number {
    const hand = this.#dealer!.dealIntoHand(hashValue);
    const offset = this.#enqueues % hand.length;
    this.#enqueues++;
    let best = -1;
    let minWork = Number.POSITIVE_INFINITY;
    for (let i = 0; i < hand.length; i++) {
      const idx = hand[(offset + i) % hand.length]!;
      const work = this.queues[idx]!.sums().totalWork;
      if (work < minWork) {
        minWork = work;
        best = idx;
      }
    }
    return best;
  }

  #removeTimedOutRequests(queue: Queue): void {
    const arrivalLimit = this.#o.now() - this.qCfg.requestWaitLimit;
    let count = 0;
    let seats = 0;
    // Oldest first; one already cancelled stays for its own wait to remove.
    for (const r of [...queue.requests]) {
      if (!(arrivalLimit > r.arrivalTime)) break;
      if (r.setDecision('reject')) {
        queue.remove(r);
        count++;
        seats += r.maxSeats;
        r.o.onQueued?.(false);
        this.#o.gauges.waiting(this.qCfg.name, r.o.fsName, -1);
      }
    }
    if (count > 0) {
      this.totRequestsWaiting -= count;
      this.totSeatsWaiting -= seats;
      this.#seatDemand();
    }
  }

  #dispatchAsMuchAsPossible(): void {
    while (this.totRequestsWaiting !== 0 && this.totSeatsInUse < this.concurrencyLimit && this.#dispatch()) {
      // dispatched one
    }
  }

  #dispatchSansQueue(o: StartRequestOptions): QueuedRequest {
    const now = this.#o.now();
    const req = new QueuedRequest(this, o, now, this.#currentR, 'execute');
    req.startTime = now;
    this.totRequestsExecuting++;
    this.totSeatsInUse += req.maxSeats;
    this.#o.gauges.executing(this.qCfg.name, o.fsName, 1, req.maxSeats);
    this.#seatDemand();
    return req;
  }

  #dispatch(): boolean {
    const found = this.#findDispatchQueue();
    if (found === undefined) return false;
    const [queue, req] = found;
    this.totRequestsWaiting--;
    this.totSeatsWaiting -= req.maxSeats;
    this.#o.gauges.waiting(this.qCfg.name, req.o.fsName, -1);
    req.o.onQueued?.(false);
    try {
      if (!req.setDecision('execute')) {
        this.#seatDemand();
        return true;
      }
      req.startTime = this.#o.now();
      this.totRequestsExecuting++;
      this.totSeatsInUse += req.maxSeats;
      queue.requestsExecuting++;
      queue.seatsInUse += req.maxSeats;
      this.#o.gauges.executing(this.qCfg.name, req.o.fsName, 1, req.maxSeats);
      this.#seatDemand();
      queue.nextDispatchR += req.totalWork;
      return true;
    } finally {
      this.#boundNextDispatch(queue);
    }
  }

  #canAccommodate(seats: number): boolean {
    if (seats > this.concurrencyLimit) return this.totRequestsExecuting === 0;
    return this.totSeatsInUse + seats <= this.concurrencyLimit;
  }

  #findDispatchQueue(): [Queue, QueuedRequest] | undefined {
    let minVirtualFinish = Number.POSITIVE_INFINITY;
    let minQueue: Queue | undefined;
    let minIndex = -1;
    const nq = this.queues.length;
    for (let i = 0; i < nq; i++) {
      this.#robinIndex = (this.#robinIndex + 1) % nq;
      const queue = this.queues[this.#robinIndex]!;
      const oldest = queue.requests[0];
      if (oldest === undefined) continue;
      const finish = queue.nextDispatchR + oldest.totalWork;
      if (finish < minVirtualFinish) {
        minVirtualFinish = finish;
        minQueue = queue;
        minIndex = this.#robinIndex;
      }
    }
    const oldest = minQueue?.requests[0];
    if (minQueue === undefined || oldest === undefined) return undefined;
    if (!this.#canAccommodate(oldest.maxSeats)) return undefined;
    minQueue.requests.shift();
    this.#robinIndex = minIndex;
    return [minQueue, oldest];
  }

  /** The request ended: its seats are released and waiting requests dispatched; true when idle. */
  finishRequest(r: QueuedRequest): boolean {
    this.#syncTime();
    const now = this.#o.now();
    this.totRequestsExecuting--;
    this.totSeatsInUse -= r.maxSeats;
    this.#o.gauges.executing(this.qCfg.name, r.o.fsName, -1, -r.maxSeats);
    this.#seatDemand();
    const queue = r.queue;
    if (queue !== undefined) {
      queue.seatsInUse -= r.maxSeats;
      queue.requestsExecuting--;
      // Charge the queue for the service actually used instead of the estimate.
      queue.nextDispatchR -= r.workEstimate.initialSeats * (estimatedServiceSeconds - (now - r.startTime));
      this.#boundNextDispatch(queue);
      this.#removeQueueIfEmpty(queue);
    }
    this.#dispatchAsMuchAsPossible();
    return this.isIdle();
  }

  #boundNextDispatch(queue: Queue): void {
    const oldest = queue.requests[0];
    if (oldest === undefined) return;
    if (queue.nextDispatchR < oldest.arrivalR) queue.nextDispatchR = oldest.arrivalR;
  }

  #removeQueueIfEmpty(queue: Queue): void {
    if (
      this.queues.length > this.qCfg.desiredNumQueues &&
      queue.requests.length === 0 &&
      queue.requestsExecuting === 0
    ) {
      const index = this.queues.indexOf(queue);
      if (index < 0) return;
      this.queues.splice(index, 1);
      for (let i = index; i < this.queues.length; i++) this.queues[i]!.index = i;
      if (this.#robinIndex >= index) this.#robinIndex--;
    }
  }

  dump(): QueueSetDump {
    return {
      queues: this.queues.map((q) => ({
        requests: [...q.requests],
        nextDispatchR: q.nextDispatchR,
        executingRequests: q.requestsExecuting,
        seatsInUse: q.seatsInUse,
        sums: q.sums(),
      })),
      waiting: this.totRequestsWaiting,
      executing: this.totRequestsExecuting,
      seatsInUse: this.totSeatsInUse,
      seatsWaiting: this.totSeatsWaiting,
      dispatched: this.totRequestsDispatched,
      rejected: this.totRequestsRejected,
      timedout: this.totRequestsTimedout,
      cancelled: this.totRequestsCancelled,
    };
  }
}
