/** The namespace labels and audit annotation keys of Pod Security admission (upstream api/constants.go). */
export const labelPrefix = 'pod-security.kubernetes.io/';

export const enforceLevelLabel = `${labelPrefix}enforce`;
export const enforceVersionLabel = `${labelPrefix}enforce-version`;
export const auditLevelLabel = `${labelPrefix}audit`;
export const auditVersionLabel = `${labelPrefix}audit-version`;
export const warnLevelLabel = `${labelPrefix}warn`;
export const warnVersionLabel = `${labelPrefix}warn-version`;

/** Audit annotation keys, added to the audit event prefixed with {@link labelPrefix}. */
export const exemptionReasonAnnotationKey = 'exempt';
export const auditViolationsAnnotationKey = 'audit-violations';
export const enforcedPolicyAnnotationKey = 'enforce-policy';
export const errorAnnotationKey = 'error';
