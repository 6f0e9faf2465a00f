/** The metav1.Status wire shape and the StatusReason vocabulary of kube-apiserver. */

export type StatusReason =
  | ''
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}
