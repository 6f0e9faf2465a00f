/**
 * What admission sees of one request (upstream k8s.io/apiserver/pkg/admission.Attributes): the
 * operation, the resource and subresource addressed, the object (which mutating plugins may
 * change in place) and the stored one, who asks, dry run, and the seams to add audit annotations
 * and warnings. One type for both sides of the seam: the registry calls admission with it
 * (registry/generic/admission.ts) and the plugins read it (admission/), neither importing the other.
 */
import type { KubeObject } from './object.js';
import type { UserInfo } from './user.js';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** The resource a request addresses (the storage version's names). */
export interface AdmissionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  readonly resource: AdmissionResource;
  /** '' for the main resource. */
  readonly subresource: string;
  readonly namespace: string;
  /** '' when a create has only a generateName. */
  readonly name: string;
  /** The object written (creates and updates; a subresource's body, e.g. a Binding or Eviction). */
  readonly object?: KubeObject;
  /** The stored object (updates and deletes). */
  readonly oldObject?: KubeObject;
  readonly dryRun: boolean;
  readonly user: UserInfo;
  readonly addAuditAnnotation?: (key: string, value: string) => void;
  readonly addWarning?: (message: string) => void;
  /** The group and version the client addressed, when not the storage version's (`resource`). */
  readonly requestVersion?: { readonly group: string; readonly version: string };
  /** The request's signal (its deadline, the client going away): calls made for it stop with it. */
  readonly signal?: AbortSignal;
}

/** The kind and resource as the client addressed them (upstream's GetKind and GetResource). */
export function requestedResource(a: AdmissionAttributes): {
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
} {
  const group = a.requestVersion?.group ?? a.resource.group;
  const version = a.requestVersion?.version ?? a.resource.version;
  return {
    kind: { group, version, kind: a.resource.kind },
    resource: { group, version, resource: a.resource.resource },
  };
}

/** Attributes of a write that carries an object (what mutating plugins get). */
export type ObjectAttributes = AdmissionAttributes & { readonly object: KubeObject };
