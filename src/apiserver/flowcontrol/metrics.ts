/**
 * The `apiserver_flowcontrol_*` metrics of kube-apiserver v1.27 (k8s.io/apiserver
 * pkg/util/flowcontrol/metrics) that nanokube feeds: names, help texts (with component-base's
 * `[ALPHA]` prefix), labels and buckets as upstream's.
 */
import { CounterFamily, GaugeFamily, HistogramFamily, metricsRegistry } from '../../util/metrics.js';

const registry = metricsRegistry;
const requestDurationSecondsBuckets = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
const queueLengthBuckets = [0, 10, 25, 50, 100, 250, 500, 1000];

export const rejectedRequestsTotal = new CounterFamily({
  name: 'apiserver_flowcontrol_rejected_requests_total',
  help: '[ALPHA] Number of requests rejected by API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema', 'reason'],
  registry,
});

export const dispatchedRequestsTotal = new CounterFamily({
  name: 'apiserver_flowcontrol_dispatched_requests_total',
  help: '[ALPHA] Number of requests executed by API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema'],
  registry,
});

export const currentInqueueRequests = new GaugeFamily({
  name: 'apiserver_flowcontrol_current_inqueue_requests',
  help: '[ALPHA] Number of requests currently pending in queues of the API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema'],
  registry,
});

export const requestQueueLengthAfterEnqueue = new HistogramFamily({
  name: 'apiserver_flowcontrol_request_queue_length_after_enqueue',
  help: '[ALPHA] Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
  labelNames: ['priority_level', 'flow_schema'],
  buckets: queueLengthBuckets,
  registry,
});

export const requestConcurrencyLimit = new GaugeFamily({
  name: 'apiserver_flowcontrol_request_concurrency_limit',
  help: '[ALPHA] Shared concurrency limit in the API Priority and Fairness subsystem',
  labelNames: ['priority_level'],
  registry,
});

export const currentExecutingRequests = new GaugeFamily({
  name: 'apiserver_flowcontrol_current_executing_requests',
  help: '[ALPHA] Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema'],
  registry,
});

export const requestConcurrencyInUse = new GaugeFamily({
  name: 'apiserver_flowcontrol_request_concurrency_in_use',
  help: '[ALPHA] Concurrency (number of seats) occupied by the currently executing (initial stage for a WATCH, any stage otherwise) requests in the API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema'],
  registry,
});

export const requestWaitDurationSeconds = new HistogramFamily({
  name: 'apiserver_flowcontrol_request_wait_duration_seconds',
  help: '[ALPHA] Length of time a request spent waiting in its queue',
  labelNames: ['priority_level', 'flow_schema', 'execute'],
  buckets: requestDurationSecondsBuckets,
  registry,
});

export const requestExecutionSeconds = new HistogramFamily({
  name: 'apiserver_flowcontrol_request_execution_seconds',
  help: '[ALPHA] Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
  labelNames: ['priority_level', 'flow_schema', 'type'],
  buckets: requestDurationSecondsBuckets,
  registry,
});

export const nominalLimitSeats = new GaugeFamily({
  name: 'apiserver_flowcontrol_nominal_limit_seats',
  help: '[ALPHA] Nominal number of execution seats configured for each priority level',
  labelNames: ['priority_level'],
  registry,
});

export const lowerLimitSeats = new GaugeFamily({
  name: 'apiserver_flowcontrol_lower_limit_seats',
  help: '[ALPHA] Configured lower bound on number of execution seats available to each priority level',
  labelNames: ['priority_level'],
  registry,
});

export const upperLimitSeats = new GaugeFamily({
  name: 'apiserver_flowcontrol_upper_limit_seats',
  help: '[ALPHA] Configured upper bound on number of execution seats available to each priority level',
  labelNames: ['priority_level'],
  registry,
});

export const currentLimitSeats = new GaugeFamily({
  name: 'apiserver_flowcontrol_current_limit_seats',
  help: '[ALPHA] current derived number of execution seats available to each priority level',
  labelNames: ['priority_level'],
  registry,
});

/** Upstream SetPriorityLevelConfiguration. */
export function setPriorityLevelConfiguration(
  level: string,
  nominal: number,
  min: number,
  max: number,
): void {
  requestConcurrencyLimit.cell(level).set(nominal);
  nominalLimitSeats.cell(level).set(nominal);
  lowerLimitSeats.cell(level).set(min);
  upperLimitSeats.cell(level).set(max);
}
