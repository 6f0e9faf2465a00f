/** The shape every stored API object has: TypeMeta, ObjectMeta, and the rest as JSON. */
import type { JsonObject, JsonValue } from '../util/json.js';

export interface OwnerReference extends JsonObject {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

export interface ObjectMeta extends JsonObject {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string | null;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: JsonValue[];
}

export interface KubeObject extends JsonObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
}

export interface ListMeta extends JsonObject {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** ObjectMeta's JSON field names in Go's declaration order (the order json.Marshal prints them in). */
export const objectMetaFieldOrder = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
] as const;
