/** Request options the generic store understands (decoded from query parameters by the handlers). */
import type { UserInfo } from '../machinery/user.js';

export interface ListRequest {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: string;
}

export interface WatchRequest extends ListRequest {
  readonly allowWatchBookmarks?: boolean;
  readonly sendInitialEvents?: boolean;
  /** Ends the watch (client gone, timeout, shutdown). */
  readonly signal: AbortSignal;
  /** Called when storage closed the watch because its consumer fell too far behind. */
  readonly onStalled?: () => void;
}

export interface DeleteRequest {
  readonly gracePeriodSeconds?: number;
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly orphanDependents?: boolean;
  readonly dryRun: boolean;
  /** Who asks (admission sees it). */
  readonly user: UserInfo;
  /** Adds an audit annotation to the request's event (upstream admission Attributes.AddAnnotation). */
  readonly addAuditAnnotation?: (key: string, value: string) => void;
  /** Aborts when the request is gone (client left, deadline passed): admission webhooks stop waiting. */
  readonly signal?: AbortSignal;
}

export interface WriteRequest {
  readonly dryRun: boolean;
  /** Who asks (admission sees it). */
  readonly user: UserInfo;
  /** The served group/version of the request, when not the storage version (strategies see it). */
  readonly requestVersion?: { readonly group: string; readonly version: string };
  /** Adds an audit annotation to the request's event (upstream admission Attributes.AddAnnotation). */
  readonly addAuditAnnotation?: (key: string, value: string) => void;
  /** Aborts when the request is gone (client left, deadline passed): admission webhooks stop waiting. */
  readonly signal?: AbortSignal;
}
