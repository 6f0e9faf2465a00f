/**
 * The audit metrics (upstream k8s.io/apiserver pkg/audit/metrics.go, v1.27; AM-17), subsystem
 * `apiserver_audit`, in the process registry: events handed to the backend, events a backend
 * failed to record (by plugin), the policy's level per request, and requests rejected because
 * an event could not be stored (none: nanokube has no blocking-strict mode).
 */
import { CounterFamily, metricsRegistry } from '../../util/metrics.js';
import type { CounterCell } from '../../util/metrics.js';
import type { AuditLevel } from './policy.js';

const events = new CounterFamily({
  name: 'apiserver_audit_event_total',
  help: '[ALPHA] Counter of audit events generated and sent to the audit backend.',
  labelNames: [],
  registry: metricsRegistry,
});
const errors = new CounterFamily({
  name: 'apiserver_audit_error_total',
  help: '[ALPHA] Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
  labelNames: ['plugin'],
  registry: metricsRegistry,
});
const levels = new CounterFamily({
  name: 'apiserver_audit_level_total',
  help: '[ALPHA] Counter of policy levels for audit events (1 per request).',
  labelNames: ['level'],
  registry: metricsRegistry,
});
const rejected = new CounterFamily({
  name: 'apiserver_audit_requests_rejected_total',
  help: '[ALPHA] Counter of apiserver requests rejected due to an error in audit logging backend.',
  labelNames: [],
  registry: metricsRegistry,
});

const eventCell: CounterCell = events.cell();
rejected.cell();

/** upstream ObserveEvent: an event of a kept stage went to the backend. */
export function observeAuditEvent(): void {
  eventCell.inc();
}

/** upstream ObservePolicyLevel: the level the policy gave a request. */
export function observeAuditLevel(level: AuditLevel): void {
  levels.cell(level).inc();
}

/** upstream HandlePluginError: `n` events a plugin (`log`, `buffered`) failed to record. */
export function observeAuditPluginError(plugin: string, n = 1): void {
  errors.cell(plugin).inc(n);
}
