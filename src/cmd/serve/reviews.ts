/** The create-only computed endpoints: reviews (answered by the authorizer) and pod bindings. */
import { selfSubjectReviewInfo, tokenReviewInfo } from '../../apis/authentication/resources.js';
import {
  localSubjectAccessReviewInfo,
  selfSubjectAccessReviewInfo,
  selfSubjectRulesReviewInfo,
  subjectAccessReviewInfo,
} from '../../apis/authorization/resources.js';
import { bindingsInfo } from '../../apis/core/v1/resources.js';
import type { VirtualEndpoint } from '../../apiserver/virtual-endpoint.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { selfSubjectReview } from '../../auth/reviews/self-subject-review.js';
import { selfSubjectRulesReview } from '../../auth/reviews/self-subject-rules-review.js';
import { accessReview } from '../../auth/reviews/subject-access-review.js';
import { tokenReview } from '../../auth/reviews/token-review.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { bindPod } from '../../registry/resources/core/pod-binding.js';
import { evictPod } from '../../registry/resources/core/pod-eviction.js';
import type { FeatureGateReader } from '../../registry/strategy.js';

export function reviewEndpoints(authorizer: Authorizer): VirtualEndpoint[] {
  return [
    { info: tokenReviewInfo, create: ({ object }) => Promise.resolve(tokenReview(object)) },
    {
      info: selfSubjectReviewInfo,
      create: ({ object, user }) => Promise.resolve(selfSubjectReview(object, user)),
    },
    {
      info: subjectAccessReviewInfo,
      create: ({ object, user, namespace }) =>
        accessReview({ kind: 'SubjectAccessReview', review: object, requester: user, namespace, authorizer }),
    },
    {
      info: selfSubjectAccessReviewInfo,
      create: ({ object, user, namespace }) =>
        accessReview({
          kind: 'SelfSubjectAccessReview',
          review: object,
          requester: user,
          namespace,
          authorizer,
        }),
    },
    {
      info: localSubjectAccessReviewInfo,
      create: ({ object, user, namespace }) =>
        accessReview({
          kind: 'LocalSubjectAccessReview',
          review: object,
          requester: user,
          namespace,
          authorizer,
        }),
    },
    {
      info: selfSubjectRulesReviewInfo,
      create: ({ object, user }) => selfSubjectRulesReview(object, user, authorizer),
    },
  ];
}

/** pods/{name}/binding and the bindings collection: the scheduler's way to place a pod. */
export function bindingEndpoints(pods: GenericStore): VirtualEndpoint[] {
  const create: VirtualEndpoint['create'] = ({ object, namespace, name, dryRun }) =>
    bindPod({ pods, namespace, name, binding: object, dryRun });
  return [
    { info: bindingsInfo, create },
    { info: { ...bindingsInfo, resource: 'pods', singular: '' }, subresource: 'binding', create },
  ];
}

/** pods/{name}/eviction: a policy/v1 Eviction deletes the pod if its disruption budget allows. */
export function evictionEndpoint(
  pods: GenericStore,
  budgets: GenericStore,
  features: FeatureGateReader,
): VirtualEndpoint {
  return {
    info: {
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      resource: 'pods',
      singular: '',
      namespaced: true,
      definition: 'io.k8s.api.policy.v1.Eviction',
      verbs: ['create'],
      stored: false,
    },
    parent: { group: '', version: 'v1', resource: 'pods' },
    subresource: 'eviction',
    create: ({ object, namespace, name, dryRun, user }) =>
      evictPod({
        pods,
        budgets,
        namespace,
        name,
        eviction: object,
        dryRun,
        user,
        disruptionConditions: features.enabled('PodDisruptionConditions'),
      }),
  };
}
