/**
 * What the ValidatingAdmissionPolicy plugin reports about its decisions (upstream
 * apiserver_validating_admission_policy_check_total and _check_duration_seconds, labelled by
 * policy, binding, enforcement action and state); cmd/ backs it with prom-client.
 */
export type PolicyEnforcement = 'deny' | 'warn' | 'audit' | 'error';

export interface PolicyMetrics {
  observe(enforcement: PolicyEnforcement, policy: string, binding: string, elapsedMs: number): void;
}
