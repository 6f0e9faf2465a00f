/** What the API says about one served resource: names, scope, schema and subresources. */
import type { JsonObject } from '../util/json.js';

export interface ScaleSubresource {
  /** JSON paths into the main object (as CRD scale subresources spell them). */
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** A subresource beyond status and scale, as discovery lists it. */
export interface ExtraSubresource {
  readonly name: string;
  readonly verbs: readonly string[];
  /** The kind it takes and returns (default: the resource's own kind), e.g. Binding for pods/binding. */
  readonly kind?: string;
  /** For a kind of another group-version (pods/eviction takes policy/v1 Eviction). */
  readonly group?: string;
  readonly version?: string;
  /** Answered by a computed create (a virtual endpoint), not by the resource's store. */
  readonly computed?: boolean;
}

export interface ResourceInfo {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Plural resource name: `pods`. */
  readonly resource: string;
  /** Singular name: `pod`. */
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** Schema definition name of the kind, e.g. `io.k8s.api.core.v1.Pod`. */
  readonly definition: string;
  /** Verbs served on the main resource, as discovery lists them. */
  readonly verbs: readonly string[];
  readonly statusSubresource?: boolean;
  /** Other subresources answering with the kind itself, e.g. namespaces/finalize (update). */
  readonly extraSubresources?: readonly ExtraSubresource[];
  readonly scale?: ScaleSubresource;
  /**
   * The version objects of this resource are stored in, when it is not this one (discovery's
   * `storageVersionHash` is derived from it, so every served version shows the same hash).
   */
  readonly storageVersion?: { readonly group: string; readonly version: string; readonly kind: string };
  /** False for computed, never-stored kinds (reviews): discovery shows no storageVersionHash. */
  readonly stored?: boolean;
  /** Sent as a Warning with every answer of this version (a deprecated version). */
  readonly deprecationWarning?: string;
  /** Definition name of the list kind (default: `definition` + "List"). */
  readonly listDefinition?: string;
  /**
   * Fields server-side apply resets (rest.ResetFieldsStrategy) on the main resource and on
   * `/status`, for resources not in the built-in table (custom resources).
   */
  readonly resetFields?: { readonly main: readonly string[]; readonly status?: readonly string[] };
  /** Sets defaults on a decoded object of this kind (upstream SetDefaults_*), in place. */
  readonly defaulter?: (obj: JsonObject) => void;
  /**
   * Objects of this resource are unstructured (custom resources): list items keep their
   * apiVersion and kind, as upstream's UnstructuredList writes them (typed lists of built-in kinds
   * leave them out).
   */
  readonly unstructured?: boolean;
}

/** Every verb a full resource serves, in discovery's order. */
export const allVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
] as const;

export function apiVersionOf(info: { readonly group: string; readonly version: string }): string {
  return info.group === '' ? info.version : `${info.group}/${info.version}`;
}
