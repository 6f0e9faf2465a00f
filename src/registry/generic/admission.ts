/**
 * Validating admission arrives in the registry as a callback (the registry does not import
 * admission/): it runs after validation, right before the write, and throws a StatusError to deny.
 */
import type { ResourceInfo } from '../../apis/resource.js';
import type { KubeObject } from '../../machinery/object.js';

export interface AdmissionAttributes {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly resource: ResourceInfo;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
  readonly object?: KubeObject;
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
}

export type ValidatingAdmission = (attrs: AdmissionAttributes) => Promise<void>;
