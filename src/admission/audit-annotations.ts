/**
 * Audit annotations from admission (AM-17; upstream admission.Attributes.AddAnnotation and the
 * webhook dispatchers): a plugin annotates the request's audit event with a qualified key
 * (`<DNS subdomain>/<name>`); a webhook's `auditAnnotations` are added as `<webhook name>/<key>`,
 * and one that is refused is only logged, as upstream's dispatchers do.
 */
import { isQualifiedName } from '../machinery/validation/names.js';

/** What of the admission attributes (registry/generic/admission.ts) annotating needs. */
export interface AuditAnnotatable {
  readonly addAuditAnnotation?: (key: string, value: string) => void;
}

/** upstream checkKeyFormat: undefined when the key is valid, else the error text. */
export function auditAnnotationKeyError(key: string): string | undefined {
  if (key.split('/').length !== 2) {
    return "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')";
  }
  const msgs = isQualifiedName(key);
  if (msgs.length > 0) {
    return `annotation key has invalid format ${msgs.join(',')}. A qualified name like 'podsecuritypolicy.admission.k8s.io/admit-policy' is required.`;
  }
  return undefined;
}

/** Adds an annotation to the request's audit event; throws on a malformed key (a plugin bug). */
export function addAdmissionAuditAnnotation(attrs: AuditAnnotatable, key: string, value: string): void {
  const err = auditAnnotationKeyError(key);
  if (err !== undefined) throw new Error(err);
  attrs.addAuditAnnotation?.(key, value);
}

/**
 * A webhook's AdmissionReview `response.auditAnnotations`, each as `<webhook name>/<key>`; a key
 * that does not make a qualified name is reported to `warn` and left out.
 */
export function addWebhookAuditAnnotations(
  attrs: AuditAnnotatable,
  webhookName: string,
  annotations: Readonly<Record<string, string>>,
  warn: (message: string) => void,
): void {
  for (const [k, v] of Object.entries(annotations)) {
    const key = `${webhookName}/${k}`;
    const err = auditAnnotationKeyError(key);
    if (err !== undefined) {
      warn(`Failed to set admission audit annotation ${key} to ${v} for webhook ${webhookName}: ${err}`);
      continue;
    }
    attrs.addAuditAnnotation?.(key, v);
  }
}
