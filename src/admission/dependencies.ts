/**
 * What built-in plugins need from the rest of the server, as narrow interfaces cmd/ implements
 * (admission/ imports neither registry/ nor auth/): reads of stored objects (served from the
 * watch caches, as upstream's plugins read informer listers), the authorizer, feature gates, the
 * clock, and each plugin's configuration from `--admission-control-config-file`.
 */
import type { CelAuthorizer } from '../cel/runtime/index.js';
import type { KubeObject } from '../machinery/object.js';
import type { UserInfo } from '../machinery/user.js';
import type { JsonObject, JsonValue } from '../util/json.js';

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** Reads of stored objects at the storage version (a cached, possibly slightly stale state). */
export interface ObjectLookup {
  /** undefined when absent (or the resource is not served). */
  get(gr: GroupResource, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Every object of a namespace ('' for all namespaces, or a cluster-scoped resource). */
  list(gr: GroupResource, namespace: string): Promise<readonly KubeObject[]>;
  /** Reads storage itself, not the cache (upstream's live lookups after a cache miss). */
  getLive?(gr: GroupResource, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** Lists storage itself, not the cache. */
  listLive?(gr: GroupResource, namespace: string): Promise<readonly KubeObject[]>;
}

/** The subset of authorizer.Attributes admission plugins ask about. */
export interface AdmissionAuthorizationRequest {
  readonly user: UserInfo;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly name: string;
  readonly namespace?: string;
  readonly subresource?: string;
}

/** The server's authorizer: true when the request is allowed. */
export type AdmissionAuthorizer = (request: AdmissionAuthorizationRequest) => Promise<boolean>;

/** One served version of a resource. */
export interface ServedResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/** The served resources (upstream's RESTMapper and EquivalentResourceMapper) and conversion. */
export interface ResourceMapper {
  /** The resource serving this group/version/kind, custom resources included. */
  forKind(group: string, version: string, kind: string): ServedResource | undefined;
  /** Every served version of a resource (the storage version first). */
  versions(group: string, resource: string): readonly ServedResource[];
  /** A stored object (storage version) as another served version of its resource. */
  convert(gr: GroupResource, object: KubeObject, version: string): Promise<KubeObject>;
  /** An object of another served version as the storage version. */
  toStorage(gr: GroupResource, object: KubeObject): Promise<KubeObject>;
  /**
   * Applies the defaults of the object's version in place (built-ins' SetDefaults, custom
   * resources' schema defaults), as upstream's ObjectDefaulter after a webhook's patch.
   */
  defaults(gr: GroupResource, object: KubeObject): void;
}

/** Posts an AdmissionReview to a webhook (`url` or `service` clientConfig, verified against its caBundle). */
export interface WebhookTransport {
  post(
    clientConfig: JsonObject,
    body: JsonObject,
    call: { readonly key: string; readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<unknown>;
  /** Closes the connections kept for a key whose webhook is gone. */
  forget(key: string): void;
}

export interface AdmissionDependencies {
  readonly lookup: ObjectLookup;
  readonly authorize: AdmissionAuthorizer;
  readonly features: { enabled(name: string): boolean };
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /**
   * The plugin's configuration from the admission configuration file, decoded from JSON or YAML
   * (undefined when the file names none for it).
   */
  readonly pluginConfig: (pluginName: string) => JsonValue | undefined;
  readonly log: (message: string) => void;
  /**
   * Writes an object's status (ResourceQuota's, as upstream's quota admission updates it) with
   * its metadata.resourceVersion as the precondition: resolves to the stored object, rejects with
   * a 409 StatusError when another write came first.
   */
  readonly updateStatus: (gr: GroupResource, object: KubeObject) => Promise<KubeObject>;
  /** Served resources and conversion (ValidatingAdmissionPolicy's params, webhooks' versions). */
  readonly resources?: ResourceMapper;
  /** The server's authorizer as CEL's `authorizer` sees it, answering for `user` (AM-06). */
  readonly celAuthorizer?: (user: UserInfo) => CelAuthorizer;
  /** Calls admission webhooks (absent: the webhook plugins refuse requests they would send). */
  readonly webhooks?: WebhookTransport;
}
