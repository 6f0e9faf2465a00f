/** The review endpoints (create-only, computed by the server's authenticator and authorizer). */
import { selfSubjectReviewInfo, tokenReviewInfo } from '../../apis/authentication/resources.js';
import {
  localSubjectAccessReviewInfo,
  selfSubjectAccessReviewInfo,
  selfSubjectRulesReviewInfo,
  subjectAccessReviewInfo,
} from '../../apis/authorization/resources.js';
import type { VirtualEndpoint } from '../../apiserver/virtual-endpoint.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { selfSubjectReview } from '../../auth/reviews/self-subject-review.js';
import { selfSubjectRulesReview } from '../../auth/reviews/self-subject-rules-review.js';
import { accessReview } from '../../auth/reviews/subject-access-review.js';
import { tokenReview } from '../../auth/reviews/token-review.js';

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
