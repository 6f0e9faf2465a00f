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
  /**
   * Called on delete: returns true when the object must stay (marked deleting) instead of being
   * removed now, and may mutate it (namespaces become Terminating until emptied).
   */
  readonly keepOnDelete?: (obj: KubeObject) => boolean;
}
