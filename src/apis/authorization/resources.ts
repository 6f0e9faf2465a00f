/** authorization.k8s.io/v1 review kinds (created, never stored) as discovery lists them. */
import type { ResourceInfo } from '../resource.js';

const review = (kind: string, resource: string, namespaced: boolean): ResourceInfo => ({
  group: 'authorization.k8s.io',
  version: 'v1',
  kind,
  resource,
  singular: resource.slice(0, -1),
  namespaced,
  definition: `io.k8s.api.authorization.v1.${kind}`,
  verbs: ['create'],
  stored: false,
});

export const localSubjectAccessReviewInfo = review(
  'LocalSubjectAccessReview',
  'localsubjectaccessreviews',
  true,
);
export const selfSubjectAccessReviewInfo = review(
  'SelfSubjectAccessReview',
  'selfsubjectaccessreviews',
  false,
);
export const selfSubjectRulesReviewInfo = review('SelfSubjectRulesReview', 'selfsubjectrulesreviews', false);
export const subjectAccessReviewInfo = review('SubjectAccessReview', 'subjectaccessreviews', false);
