/**
 * The authorization contract (upstream authorizer.Attributes / Decision): who wants to do what to
 * which resource or path, and an allow, deny or no-opinion answer with a reason.
 */
import type { UserInfo } from '../machinery/user.js';

export interface AuthorizationAttributes {
  readonly user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection, impersonate…; a lower-cased HTTP method for paths. */
  readonly verb: string;
  readonly isResourceRequest: boolean;
  /** The request path (non-resource requests). */
  readonly path: string;
  readonly namespace: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface AuthorizationResult {
  readonly decision: Decision;
  readonly reason: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
}

export const noOpinion: AuthorizationResult = { decision: 'noOpinion', reason: '' };
