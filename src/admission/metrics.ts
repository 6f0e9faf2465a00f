/**
 * Admission metrics with kube-apiserver v1.27's names, labels and buckets (apiserver
 * pkg/admission/metrics and pkg/admission/cel/metrics.go), in the process registry the API
 * server's /metrics renders: webhook latency, requests, rejections and fail-opens, match condition
 * evaluation errors, and ValidatingAdmissionPolicy checks.
 */
import { CounterFamily, HistogramFamily, metricsRegistry } from '../util/metrics.js';

const webhookDuration = new HistogramFamily({
  name: 'apiserver_admission_webhook_admission_duration_seconds',
  help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
  labelNames: ['name', 'type', 'operation', 'rejected'],
  registry: metricsRegistry,
  buckets: [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25],
});
const webhookRejections = new CounterFamily({
  name: 'apiserver_admission_webhook_rejection_count',
  help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
  registry: metricsRegistry,
});
const webhookFailOpen = new CounterFamily({
  name: 'apiserver_admission_webhook_fail_open_count',
  help: 'Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).',
  labelNames: ['name', 'type'],
  registry: metricsRegistry,
});
const webhookRequests = new CounterFamily({
  name: 'apiserver_admission_webhook_request_total',
  help: 'Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
  labelNames: ['name', 'type', 'operation', 'code', 'rejected'],
  registry: metricsRegistry,
});
const matchConditionErrors = new CounterFamily({
  name: 'apiserver_admission_match_condition_evaluation_errors_total',
  help: 'Admission match condition evaluation errors count, identified by name of resource containing the match condition and broken out for each admission type (validating or mutating).',
  labelNames: ['name', 'type'],
  registry: metricsRegistry,
});
const policyChecks = new CounterFamily({
  name: 'apiserver_validating_admission_policy_check_total',
  help: 'Validation admission policy check total, labeled by policy and further identified by binding, enforcement action taken, and state.',
  labelNames: ['policy', 'policy_binding', 'enforcement_action', 'state'],
  registry: metricsRegistry,
});
const policyLatency = new HistogramFamily({
  name: 'apiserver_validating_admission_policy_check_duration_seconds',
  help: 'Validation admission latency for individual validation expressions in seconds, labeled by policy and further including binding, state and enforcement action taken.',
  labelNames: ['policy', 'policy_binding', 'enforcement_action', 'state'],
  registry: metricsRegistry,
  buckets: [0.0000005, 0.001, 0.01, 0.1, 1.0],
});

/** The `type` label: upstream says `admit` for mutating and `validating` for validating webhooks. */
export type WebhookType = 'admit' | 'validating';
export type RejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

function code(n: number): string {
  return String(Math.min(n, 600));
}

export const admissionMetrics = {
  /** ObserveWebhook: one call's latency and its request count. */
  webhook(
    name: string,
    type: WebhookType,
    operation: string,
    rejected: boolean,
    elapsedMs: number,
    status: number,
  ): void {
    webhookDuration.cell(name, type, operation, String(rejected)).observe(elapsedMs / 1000);
    webhookRequests.cell(name, type, operation, code(status), String(rejected)).inc();
  },
  webhookRejection(
    name: string,
    type: WebhookType,
    operation: string,
    errorType: RejectionErrorType,
    status: number,
  ): void {
    webhookRejections.cell(name, type, operation, errorType, code(status)).inc();
  },
  /** The failing-open type label is `admit` or `validating` as the dispatcher names itself. */
  webhookFailOpen(name: string, type: WebhookType): void {
    webhookFailOpen.cell(name, type).inc();
  },
  matchConditionError(name: string, type: string): void {
    matchConditionErrors.cell(name, type).inc();
  },
  /** A ValidatingAdmissionPolicy decision: enforcement `deny`, `warn`, `audit`, or `allow` for an evaluation error let through. */
  policyCheck(
    enforcement: 'deny' | 'warn' | 'audit' | 'allow',
    policy: string,
    binding: string,
    elapsedMs: number,
  ): void {
    policyChecks.cell(policy, binding, enforcement, 'active').inc();
    policyLatency.cell(policy, binding, enforcement, 'active').observe(elapsedMs / 1000);
  },
};
