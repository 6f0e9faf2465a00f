/**
 * Admission arrives in the registry as callbacks (the registry does not import admission/):
 * mutating admission runs before the strategy prepares and validates an object and may change it;
 * validating admission runs after validation, right before the write. Both throw a StatusError to
 * deny.
 */
import type { ResourceInfo } from '../../apis/resource.js';
import type { KubeObject } from '../../machinery/object.js';
import type { UserInfo } from '../../machinery/user.js';

export interface AdmissionAttributes {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly resource: ResourceInfo;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
  /** Who asks. */
  readonly user: UserInfo;
  /**
   * Adds an annotation to the request's audit event (upstream Attributes.AddAnnotation; see
   * admission/audit-annotations.ts for the key checks). Absent when the request is not audited.
   */
  readonly addAuditAnnotation?: (key: string, value: string) => void;
}

export type ValidatingAdmission = (attrs: AdmissionAttributes) => Promise<void>;

/** May change `attrs.object` in place (creates and updates). */
export type MutatingAdmission = (
  attrs: AdmissionAttributes & { readonly object: KubeObject },
) => Promise<void>;
