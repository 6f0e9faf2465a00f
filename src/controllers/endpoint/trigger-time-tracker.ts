/**
 * The last-change trigger time of a Service's endpoints (upstream v1.27
 * pkg/controller/util/endpoint/trigger_time_tracker.go): for a Service seen for the first time,
 * its creationTimestamp; afterwards the earliest of the changes since the previous sync — a pod's
 * Ready condition lastTransitionTime that moved forward, or the Service's creation time when that
 * moved (a re-created Service). Undefined when nothing changed (the annotation is then removed).
 *
 * Divergence: upstream records the new state whatever happens to the write; here a sync records
 * it (`commit`) only once its writes succeeded, so a retried sync (say after a conflict) still
 * carries the trigger time instead of dropping the annotation.
 */
import type { JsonObject } from '../../util/json.js';
import { isJsonObject } from '../../util/json.js';
import { arr, meta, name, obj, timeOf } from '../util/objects.js';

interface ServiceState {
  readonly podTimes: Map<string, number>;
  readonly serviceTime: number;
}

function podTriggerTime(pod: JsonObject): number | undefined {
  for (const c of arr(obj(pod['status'])['conditions'])) {
    if (isJsonObject(c) && c['type'] === 'Ready') return timeOf(c['lastTransitionTime']);
  }
  return undefined;
}

export class TriggerTimeTracker {
  readonly #states = new Map<string, ServiceState>();

  /**
   * The trigger time for this sync of Service `key` (ms since the epoch), and `commit` to remember
   * the state it was computed from.
   */
  compute(
    key: string,
    service: JsonObject,
    pods: readonly JsonObject[],
  ): { readonly time: number | undefined; commit(): void } {
    const previous = this.#states.get(key);
    let min: number | undefined;
    const podTimes = new Map<string, number>();
    for (const pod of pods) {
      const t = podTriggerTime(pod);
      if (t === undefined) continue;
      podTimes.set(name(pod), t);
      if (t > (previous?.podTimes.get(name(pod)) ?? -Infinity)) min = Math.min(min ?? t, t);
    }
    const serviceTime = timeOf(meta(service)['creationTimestamp']) ?? 0;
    if (serviceTime > (previous?.serviceTime ?? -Infinity)) min = Math.min(min ?? serviceTime, serviceTime);
    const commit = (): void => void this.#states.set(key, { podTimes, serviceTime });
    if (previous === undefined) return { time: serviceTime === 0 ? undefined : serviceTime, commit };
    return { time: min, commit };
  }

  delete(key: string): void {
    this.#states.delete(key);
  }
}
