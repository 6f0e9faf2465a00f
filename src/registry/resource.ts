/** Everything the generic store needs to serve one resource. */
import type { ResourceInfo } from '../apis/resource.js';
import type { KubeObject } from '../machinery/object.js';
import type { TableConvertor } from '../machinery/table.js';
import type { GracefulDeleteStrategy, RESTStrategy } from './strategy.js';

export interface RegistryResource {
  readonly info: ResourceInfo;
  readonly strategy: RESTStrategy;
  /** Strategy of the `/status` subresource. */
  readonly statusStrategy?: RESTStrategy;
  readonly graceful?: GracefulDeleteStrategy;
  /** Columns for `kubectl get`; the default is Name + Created At. */
  readonly table?: TableConvertor;
  /**
   * Field-selector attributes beyond metadata.name/metadata.namespace (added generically), e.g.
   * `spec.nodeName` for pods. Selecting on anything else is rejected.
   */
  readonly selectableFields?: (obj: KubeObject) => Record<string, string>;
  /** DELETE answers with the deleted object instead of a Success Status (upstream ReturnDeletedObject). */
  readonly returnDeletedObject?: boolean;
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
