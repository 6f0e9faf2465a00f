/**
 * The READY, STATUS and RESTARTS cells of a pod, following the v1.27 pod printer: the phase
 * (or status.reason) refined by init container progress, container waiting/terminated reasons,
 * and deletion.
 */
import { humanDuration, parseTimestamp } from './age.js';
import type { JsonObject } from '../../util/json.js';
import { arrayAt, booleanAt, numberAt, objectAt, stringAt, valueAt } from './read.js';

/** status.reason the node lifecycle controller sets on pods of an unreachable node. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

export interface PodStatusCells {
  readonly ready: string;
  readonly status: string;
  readonly restarts: string;
}

/** Tracks the latest lastState.terminated.finishedAt seen across container statuses. */
class LastRestart {
  #ms: number | undefined;

  observe(containerStatus: unknown): void {
    const terminated = objectAt(containerStatus, 'lastState', 'terminated');
    if (terminated === undefined) return;
    const finished = parseTimestamp(terminated['finishedAt']);
    if (finished !== undefined && (this.#ms === undefined || this.#ms < finished)) this.#ms = finished;
  }

  get ms(): number | undefined {
    return this.#ms;
  }
}

function terminatedText(terminated: JsonObject, prefix: string): string {
  const reason = stringAt(terminated, 'reason');
  if (reason !== '') return prefix + reason;
  const signal = numberAt(terminated, 'signal');
  if (signal !== 0) return `${prefix}Signal:${signal}`;
  return `${prefix}ExitCode:${numberAt(terminated, 'exitCode')}`;
}

/** Restarts of init containers, and the Init:... status text while initialization is unfinished. */
function initStatus(pod: unknown, lastRestart: LastRestart): { reason?: string; restarts: number } {
  let restarts = 0;
  const statuses = arrayAt(pod, 'status', 'initContainerStatuses');
  const total = arrayAt(pod, 'spec', 'initContainers').length;
  for (let i = 0; i < statuses.length; i++) {
    const cs = statuses[i];
    restarts += numberAt(cs, 'restartCount');
    lastRestart.observe(cs);
    const terminated = objectAt(cs, 'state', 'terminated');
    if (terminated !== undefined && numberAt(terminated, 'exitCode') === 0) continue;
    if (terminated !== undefined) return { reason: terminatedText(terminated, 'Init:'), restarts };
    const waitingReason = stringAt(cs, 'state', 'waiting', 'reason');
    if (
      objectAt(cs, 'state', 'waiting') !== undefined &&
      waitingReason !== '' &&
      waitingReason !== 'PodInitializing'
    ) {
      return { reason: `Init:${waitingReason}`, restarts };
    }
    return { reason: `Init:${i}/${total}`, restarts };
  }
  return { restarts };
}

function hasTrueCondition(pod: unknown, type: string): boolean {
  return arrayAt(pod, 'status', 'conditions').some(
    (c) => stringAt(c, 'type') === type && stringAt(c, 'status') === 'True',
  );
}

export function podStatusCells(pod: unknown, now: Date): PodStatusCells {
  const totalContainers = arrayAt(pod, 'spec', 'containers').length;
  let readyContainers = 0;
  const lastRestart = new LastRestart();

  let reason = stringAt(pod, 'status', 'phase');
  const statusReason = stringAt(pod, 'status', 'reason');
  if (statusReason !== '') reason = statusReason;
  for (const c of arrayAt(pod, 'status', 'conditions')) {
    if (stringAt(c, 'type') === 'PodScheduled' && stringAt(c, 'reason') === 'SchedulingGated') {
      reason = 'SchedulingGated';
    }
  }

  const init = initStatus(pod, lastRestart);
  let restarts = init.restarts;
  if (init.reason !== undefined) {
    reason = init.reason;
  } else {
    restarts = 0;
    let hasRunning = false;
    const statuses = arrayAt(pod, 'status', 'containerStatuses');
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i];
      restarts += numberAt(cs, 'restartCount');
      lastRestart.observe(cs);
      const waiting = objectAt(cs, 'state', 'waiting');
      const terminated = objectAt(cs, 'state', 'terminated');
      if (waiting !== undefined && stringAt(waiting, 'reason') !== '') {
        reason = stringAt(waiting, 'reason');
      } else if (terminated !== undefined) {
        reason = terminatedText(terminated, '');
      } else if (booleanAt(cs, 'ready') && objectAt(cs, 'state', 'running') !== undefined) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = hasTrueCondition(pod, 'Ready') ? 'Running' : 'NotReady';
    }
  }

  if (valueAt(pod, 'metadata', 'deletionTimestamp') != null) {
    reason = statusReason === NODE_UNREACHABLE_REASON ? 'Unknown' : 'Terminating';
  }

  let restartsText = String(restarts);
  if (lastRestart.ms !== undefined) {
    restartsText = `${restarts} (${humanDuration(now.getTime() - lastRestart.ms)} ago)`;
  }
  return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartsText };
}
