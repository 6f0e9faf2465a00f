/** The computed endpoints cmd/ wires: reviews, pod binding and eviction, the kubelet-facing connect subresources, serviceaccounts/token. */
import { selfSubjectReviewInfo, tokenReviewInfo } from '../../apis/authentication/resources.js';
import {
  localSubjectAccessReviewInfo,
  selfSubjectAccessReviewInfo,
  selfSubjectRulesReviewInfo,
  subjectAccessReviewInfo,
} from '../../apis/authorization/resources.js';
import {
  bindingsInfo,
  nodesInfo,
  podsInfo,
  proxyVerbs,
  serviceAccountsInfo,
  servicesInfo,
} from '../../apis/core/v1/resources.js';
import type { VirtualEndpoint } from '../../apiserver/virtual-endpoint.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { selfSubjectReview } from '../../auth/reviews/self-subject-review.js';
import { selfSubjectRulesReview } from '../../auth/reviews/self-subject-rules-review.js';
import { accessReview } from '../../auth/reviews/subject-access-review.js';
import { tokenReview } from '../../auth/reviews/token-review.js';
import type { TokenReviewOptions } from '../../auth/reviews/token-review.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { bindPod } from '../../registry/resources/core/pod-binding.js';
import { evictPod } from '../../registry/resources/core/pod-eviction.js';
import {
  nodeProxy,
  podLog,
  podProxy,
  podStream,
  serviceProxy,
} from '../../registry/resources/core/pod-connect.js';
import type { ContainerRelay, NodePortsRelay } from '../../registry/resources/core/pod-connect.js';
import { requestToken } from '../../registry/resources/core/serviceaccount-token.js';
import type { BoundTokenIssuer } from '../../registry/resources/core/serviceaccount-token.js';
import type { FeatureGateReader } from '../../registry/strategy.js';

export function reviewEndpoints(
  authorizer: Authorizer,
  tokens: Omit<TokenReviewOptions, 'warn'>,
): VirtualEndpoint[] {
  return [
    { info: tokenReviewInfo, create: ({ object, warn }) => tokenReview(object, { ...tokens, warn }) },
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
export function bindingEndpoints(pods: GenericStore, now?: () => Date): VirtualEndpoint[] {
  const create: VirtualEndpoint['create'] = ({ object, namespace, name, dryRun }) =>
    bindPod({ pods, namespace, name, binding: object, dryRun, ...(now !== undefined ? { now } : {}) });
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
  now?: () => Date,
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
        ...(now !== undefined ? { now } : {}),
      }),
  };
}

/**
 * The connect subresources, answered as upstream answers them without a reachable kubelet:
 * pods/{log,exec,attach,portforward,proxy}, nodes/proxy and services/proxy.
 */
export function connectEndpoints(stores: {
  readonly pods: GenericStore;
  readonly nodes: GenericStore;
  readonly services: GenericStore;
  readonly endpoints: GenericStore;
  /** The in-process simulated nodes' containers: their output for pods/log, exec and attach. */
  readonly output?: ContainerRelay;
  /** What the in-process simulated nodes serve on their ports, for nodes/proxy. */
  readonly nodePorts?: NodePortsRelay;
  /** The cluster's clock (default: the wall clock). */
  readonly now?: () => number;
  /** Told when a pods/log answer is generated lines. */
  readonly onGeneratedLogs?: (namespace: string, pod: string, container: string) => void;
}): VirtualEndpoint[] {
  const on = (
    info: typeof podsInfo,
    subresource: string,
    verbs: readonly string[],
    handle: NonNullable<VirtualEndpoint['connect']>['handle'],
  ): VirtualEndpoint => ({
    info: { ...info, singular: '', verbs, stored: false },
    subresource,
    connect: { verbs, handle },
  });
  const streams = ['create', 'get'];
  const sessionStores = {
    pods: stores.pods,
    nodes: stores.nodes,
    ...(stores.output !== undefined ? { containers: stores.output } : {}),
    ...(stores.now !== undefined ? { now: stores.now } : {}),
  };
  return [
    on(podsInfo, 'log', ['get'], (r) => podLog(stores, r)),
    on(podsInfo, 'exec', streams, (r) => podStream('exec', sessionStores, r)),
    on(podsInfo, 'attach', streams, (r) => podStream('attach', sessionStores, r)),
    on(podsInfo, 'portforward', streams, (r) => podStream('portforward', stores, r)),
    on(podsInfo, 'proxy', proxyVerbs, (r) => podProxy(sessionStores, r)),
    on(nodesInfo, 'proxy', proxyVerbs, (r) => nodeProxy(stores.nodes, r, stores.nodePorts)),
    on(servicesInfo, 'proxy', proxyVerbs, (r) => serviceProxy({ ...stores, ...sessionStores }, r)),
  ];
}

/** serviceaccounts/{name}/token: TokenRequest, answered with a token from `issuer`. */
export function tokenEndpoint(
  stores: { serviceAccounts: GenericStore; pods: GenericStore; secrets: GenericStore },
  issuer: BoundTokenIssuer,
  now?: () => number,
): VirtualEndpoint {
  return {
    info: {
      group: 'authentication.k8s.io',
      version: 'v1',
      kind: 'TokenRequest',
      resource: 'serviceaccounts',
      singular: '',
      namespaced: true,
      definition: 'io.k8s.api.authentication.v1.TokenRequest',
      verbs: ['create'],
      stored: false,
    },
    parent: {
      group: serviceAccountsInfo.group,
      version: serviceAccountsInfo.version,
      resource: 'serviceaccounts',
    },
    subresource: 'token',
    create: ({ object, namespace, name, warn }) =>
      requestToken({
        ...stores,
        issuer,
        namespace,
        name,
        request: object,
        warn,
        ...(now !== undefined ? { now } : {}),
      }),
  };
}
