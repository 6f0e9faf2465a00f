/**
 * The per priority level and flow schema gauges upstream's queueset keeps
 * (`apiserver_flowcontrol_current_inqueue_requests`, `current_executing_requests`,
 * `request_concurrency_in_use`): counts kept here, published as each changes.
 */
import { currentExecutingRequests, currentInqueueRequests, requestConcurrencyInUse } from './metrics.js';

export class FlowGauges {
  readonly #values = new Map<string, number>();

  #add(family: 'w' | 'e' | 's', level: string, fs: string, delta: number): number {
    const key = `${family}\u0000${level}\u0000${fs}`;
    const v = (this.#values.get(key) ?? 0) + delta;
    this.#values.set(key, v);
    return v;
  }

  waiting(level: string, fs: string, delta: number): void {
    currentInqueueRequests.cell(level, fs).set(this.#add('w', level, fs, delta));
  }

  executing(level: string, fs: string, delta: number, seats: number): void {
    currentExecutingRequests.cell(level, fs).set(this.#add('e', level, fs, delta));
    requestConcurrencyInUse.cell(level, fs).set(this.#add('s', level, fs, seats));
  }
}
