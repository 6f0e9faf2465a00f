/**
 * Resources whose answers are computed, never stored (upstream's create-only REST storage for
 * reviews: TokenReview, SubjectAccessReview…): a POST returns the request object with its status
 * filled in. They are discovered and published like any resource.
 */
import type { ResourceInfo } from '../apis/resource.js';
import type { KubeObject } from '../machinery/object.js';
import type { TableConvertor } from '../machinery/table.js';
import type { UserInfo } from '../machinery/user.js';
import type { StreamSession } from '../machinery/stream-session.js';

export interface VirtualCreate {
  /** The decoded, defaulted request object. */
  readonly object: KubeObject;
  /** Who asks (after impersonation). */
  readonly user: UserInfo;
  /** The request's namespace ('' for cluster-scoped). */
  readonly namespace: string;
  /** The object named in the path (subresources: `pods/{name}/binding`); '' for a collection. */
  readonly name: string;
  readonly dryRun: boolean;
  readonly signal: AbortSignal;
  /** Adds a warning to the answer (upstream warning.AddWarning on the request's context). */
  readonly warn: (message: string) => void;
}

/** A request to a connect subresource (pods/log, exec, attach, portforward, the proxies). */
export interface VirtualConnect {
  readonly namespace: string;
  /** The object named in the path. */
  readonly name: string;
  readonly query: URLSearchParams;
  /** The request asks to switch protocols (`Connection: Upgrade`), as SPDY and WebSocket clients do. */
  readonly upgrade: boolean;
  /** A proxy subresource's path after `proxy` (`/healthz` of `nodes/n:10256/proxy/healthz`; '' when none). */
  readonly path: string;
  /** Who asks (after impersonation); CONNECT admission sees it. */
  readonly user: UserInfo;
  readonly signal: AbortSignal;
  /** The HTTP request itself, which the proxy subresources forward. */
  readonly http: {
    readonly method: string;
    /** The path asked for (`/api/v1/namespaces/ns/pods/web/proxy/x`). */
    readonly requestPath: string;
    readonly rawQuery: string;
    /** Header values by lower-case name (repeated headers joined with `, `). */
    readonly headers: Readonly<Record<string, string>>;
    /** The body (read on demand, within the API server's request size limit). */
    readonly body: () => Promise<string>;
  };
}

/** A connect's answer: a status, and for pods/log of a simulated pod a streamed text body. */
export interface VirtualConnectAnswer {
  readonly status: number;
  readonly contentType?: string;
  /** Further headers (a proxied server's own). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Chunks written as they come; the stream ends when it does or the request's signal aborts. */
  readonly body?: AsyncIterable<string> | Iterable<string>;
  /**
   * A command session (pods/exec, attach) to serve over the protocol the client upgrades to
   * (SPDY/3.1 or WebSocket, apiserver/streaming/): `status` is then 101.
   */
  readonly session?: StreamSession;
}

export interface VirtualConnectEndpoint {
  /** The verbs served, as discovery lists them (e.g. get and create for pods/exec). */
  readonly verbs: readonly string[];
  /** Answers with a bodiless status (204) or throws the Status to send. */
  readonly handle: (request: VirtualConnect) => Promise<VirtualConnectAnswer>;
}

export interface VirtualEndpoint {
  /** For a subresource: the parent's group/version/resource with the body's kind and definition. */
  readonly info: ResourceInfo;
  /** Set for a computed subresource of `info.resource` (e.g. 'binding' of pods). */
  readonly subresource?: string;
  /**
   * Where it is served when the body is of another group-version than the path (pods/eviction
   * takes policy/v1 Eviction under /api/v1): the path's group/version/resource.
   */
  readonly parent?: { readonly group: string; readonly version: string; readonly resource: string };
  /** Answers a create (201): the object (or Status) to send back. */
  readonly create?: (request: VirtualCreate) => Promise<KubeObject>;
  /** Serves a connect subresource of `info.resource` (upstream rest.Connecter, GetterWithOptions). */
  readonly connect?: VirtualConnectEndpoint;
  /** Computes the collection (read-only kinds such as componentstatuses). */
  readonly list?: (request: { readonly signal: AbortSignal }) => Promise<KubeObject[]>;
  /** Table columns for `kubectl get` (default: name and age). */
  readonly table?: TableConvertor;
  /** Warnings sent with every answer (e.g. a deprecated kind). */
  readonly warnings?: readonly string[];
}
