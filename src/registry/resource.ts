/** Everything the generic store needs to serve one resource. */
import type { ResourceInfo } from '../apis/resource.js';
import type { FieldLabelConversion } from '../machinery/fields/selector.js';
import type { KubeObject } from '../machinery/object.js';
import type { TableConvertor } from '../machinery/table.js';
import type { GracefulDeleteStrategy, RESTStrategy } from './strategy.js';

/**
 * One served version of a stored resource: what discovery and the handlers see, and the conversion
 * between its objects and the storage version's (upstream's external ⇄ internal ⇄ storage codecs,
 * collapsed: the storage version is the hub). Conversions return new objects and set
 * apiVersion/kind; they never fail on an object the other side produced.
 */
export interface ServedVersion {
  readonly info: ResourceInfo;
  /** A request object of this version (decoded, defaulted) as the storage version. */
  toStorage(obj: KubeObject): KubeObject;
  /** A stored object as this version. */
  fromStorage(obj: KubeObject): KubeObject;
  /**
   * This version's field label conversion: a field-selector label as the storage version's, or
   * upstream's error for it (default: the resource's `fieldLabels`, else metadata.name/namespace).
   */
  readonly fieldLabel?: FieldLabelConversion;
  /**
   * Convert even at the storage version (custom resources: objects read from storage are
   * defaulted by the version's schema).
   */
  readonly alwaysConvert?: boolean;
  /** This version's own columns, on objects of this version (custom resources' printer columns). */
  readonly table?: TableConvertor;
  /**
   * A conversion that needs I/O (a CRD's conversion webhook), used wherever the caller can wait
   * (every store operation and watch events); `toStorage`/`fromStorage` stay the synchronous
   * stand-ins (apiVersion only) for the few places that cannot (other versions' managedFields).
   * Both take objects of any version and return them at the target, in order; they reject with
   * the conversion's error.
   */
  readonly convertAsync?: {
    toStorage(objects: readonly KubeObject[]): Promise<KubeObject[]>;
    fromStorage(objects: readonly KubeObject[]): Promise<KubeObject[]>;
  };
}

export interface RegistryResource {
  /**
   * The storage version: the group/version/kind objects are kept (and strategies see) in; its
   * group/resource name the key space and its GVK the `storageVersionHash` of every served version.
   */
  readonly info: ResourceInfo;
  /**
   * The versions served from this storage (default: just `info`, without conversion). Several
   * entries may name other groups (core and events.k8s.io Events share one key space).
   */
  readonly servedVersions?: readonly ServedVersion[];
  /** Served only while this feature gate is on (alpha kinds; their group-version also needs --runtime-config). */
  readonly featureGate?: string;
  readonly strategy: RESTStrategy;
  /** Strategy of the `/status` subresource. */
  readonly statusStrategy?: RESTStrategy;
  readonly graceful?: GracefulDeleteStrategy;
  /** Columns for `kubectl get`; the default is Name + Created At. */
  readonly table?: TableConvertor;
  /**
   * Field-selector attributes beyond metadata.name/metadata.namespace (added generically), e.g.
   * `spec.nodeName` for pods. Which labels a request may use is `fieldLabels`.
   */
  readonly selectableFields?: (obj: KubeObject) => Record<string, string>;
  /**
   * The storage version's field label conversion (upstream's per-kind conversion func, with its
   * own message); without one, upstream's default: metadata.name and metadata.namespace only.
   */
  readonly fieldLabels?: FieldLabelConversion;
  /** DELETE answers with the deleted object instead of a Success Status (upstream ReturnDeletedObject). */
  readonly returnDeletedObject?: boolean;
  /**
   * The published (OpenAPI) DELETE response stays a Status although returnDeletedObject is set:
   * upstream's REST wrapper does not implement rest.MayReturnFullObjectDeleter (namespaces).
   */
  readonly openAPIDeleteReturnsStatus?: boolean;
  /** Objects expire this long after creation (events: kube-apiserver's --event-ttl, 1h). */
  readonly ttlSeconds?: number;
  /** Strategies of subresources other than status (e.g. namespaces/finalize). */
  readonly subresourceStrategies?: Readonly<Record<string, RESTStrategy>>;
  /**
   * True while the resource's own finalization keeps a deleted object (namespaces: until
   * spec.finalizers is empty); metadata.finalizers are handled generically.
   */
  readonly deletionPending?: (obj: KubeObject) => boolean;
  /** Mutates an object as it is marked for deletion (namespaces become Terminating). */
  readonly beforeDelete?: (obj: KubeObject) => void;
}

/** Whether the published DELETE of the resource answers with the object (upstream's installer). */
export function publishesDeletedObject(resource: RegistryResource): boolean {
  return resource.returnDeletedObject === true && resource.openAPIDeleteReturnsStatus !== true;
}
