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

/** Rules a user has in a namespace (SelfSubjectRulesReview), as authorization.k8s.io/v1 spells them. */
export interface UserRules {
  readonly resourceRules: readonly {
    readonly verbs: readonly string[];
    readonly apiGroups: readonly string[];
    readonly resources: readonly string[];
    readonly resourceNames?: readonly string[];
  }[];
  readonly nonResourceRules: readonly {
    readonly verbs: readonly string[];
    readonly nonResourceURLs: readonly string[];
  }[];
  /** True when the authorizer cannot list everything it would allow. */
  readonly incomplete: boolean;
  /** What went wrong while listing (upstream status.evaluationError), e.g. a binding's missing role. */
  readonly evaluationError?: string;
}

export interface Authorizer {
  authorize(attributes: AuthorizationAttributes): AuthorizationResult | Promise<AuthorizationResult>;
  /** What `user` may do in `namespace` (upstream's RuleResolver); absent: this authorizer cannot tell. */
  rulesFor?(user: UserInfo, namespace: string): UserRules | Promise<UserRules>;
}

/** Every verb on everything: what an authorizer that allows a user outright reports for it. */
export const allRules: UserRules = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
};

export const noRules: UserRules = { resourceRules: [], nonResourceRules: [], incomplete: false };

export const noOpinion: AuthorizationResult = { decision: 'noOpinion', reason: '' };
