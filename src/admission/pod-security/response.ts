/**
 * What one evaluation decides (upstream admissionv1.AdmissionResponse as the plugin uses it):
 * allowed or an error, warnings for the client, and audit annotations (keys without the
 * `pod-security.kubernetes.io/` prefix the plugin adds).
 */
import type { StatusError } from '../../machinery/errors.js';
import { enforcedPolicyAnnotationKey, errorAnnotationKey, exemptionReasonAnnotationKey } from './labels.js';

export interface PodSecurityResponse {
  readonly allowed: boolean;
  readonly error?: StatusError;
  readonly warnings?: readonly string[];
  readonly auditAnnotations?: Readonly<Record<string, string>>;
}

export const allowedResponse: PodSecurityResponse = Object.freeze({ allowed: true });

/** A fully privileged namespace: upstream always reports `privileged:latest`. */
export const allowedPrivilegedResponse: PodSecurityResponse = Object.freeze({
  allowed: true,
  auditAnnotations: Object.freeze({ [enforcedPolicyAnnotationKey]: 'privileged:latest' }),
});

function exempt(reason: string): PodSecurityResponse {
  return Object.freeze({
    allowed: true,
    auditAnnotations: Object.freeze({ [exemptionReasonAnnotationKey]: reason }),
  });
}
export const allowedByUserExemptionResponse = exempt('user');
export const allowedByNamespaceExemptionResponse = exempt('namespace');
export const allowedByRuntimeClassExemptionResponse = exempt('runtimeClass');

/** upstream errorResponse: the error, and its message (with the cause, if any) as audit annotation. */
export function errorResponse(error: StatusError, cause?: string): PodSecurityResponse {
  const detail = cause === undefined ? error.message : `${error.message}: ${cause}`;
  return { allowed: false, error, auditAnnotations: { [errorAnnotationKey]: detail } };
}
