/**
 * What a typed client knows about its resource: the descriptor the generated clientset
 * (./types/clientset.ts) gives it, carrying the object, list and subresource types along.
 */
import type { ListMeta, ObjectMeta } from './types/meta.v1.js';

/** What every built-in kind has (the generated interfaces all fit). */
export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

/** What every built-in list kind has (`items` is required in all but two upstream schemas). */
export interface ListLike<T> {
  apiVersion?: string;
  kind?: string;
  metadata?: ListMeta;
  items?: T[];
}

/** The subresource map of a resource without any (`keyof` is never). */
export type NoSubresources = object;

export interface ResourceDescription {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  /** Plural resource name: `deployments`. */
  readonly resource: string;
  readonly kind: string;
  /** Absent for create-only resources (reviews). */
  readonly listKind?: string;
  readonly namespaced: boolean;
  /** Subresources taking and returning JSON objects: name -> the kind they answer with. */
  readonly subresources: Readonly<Record<string, string>>;
}

/**
 * A descriptor with its types: `T` the kind, `L` its list, `S` subresource name -> the type it
 * takes and returns. `types` is never set; it only carries the type parameters.
 */
export interface ResourceType<T, L, S> extends ResourceDescription {
  readonly types?: { readonly object: T; readonly list: L; readonly subresources: S };
}
