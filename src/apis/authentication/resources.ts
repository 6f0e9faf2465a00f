/** authentication.k8s.io review kinds (created, never stored) as discovery lists them. */
import type { ResourceInfo } from '../resource.js';

const review = (version: string, kind: string, resource: string): ResourceInfo => ({
  group: 'authentication.k8s.io',
  version,
  kind,
  resource,
  singular: resource.slice(0, -1),
  namespaced: false,
  definition: `io.k8s.api.authentication.${version}.${kind}`,
  verbs: ['create'],
  stored: false,
});

export const tokenReviewInfo = review('v1', 'TokenReview', 'tokenreviews');
/** Beta in v1.27 (APISelfSubjectReview, on by default); GA as v1 only from v1.28. */
export const selfSubjectReviewInfo = review('v1beta1', 'SelfSubjectReview', 'selfsubjectreviews');
