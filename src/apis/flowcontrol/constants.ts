/**
 * flowcontrol.apiserver.k8s.io facts shared by both served versions (v1beta2, v1beta3) as
 * kube-apiserver v1.27 has them (k8s.io/api/flowcontrol/v1beta3 and pkg/apis/flowcontrol).
 */

export const flowcontrolGroup = 'flowcontrol.apiserver.k8s.io';

/** The wildcard of rules: every verb, group, resource, namespace, URL or service account name. */
export const wildcard = '*';

/** Names of the mandatory objects (the priority levels and the flow schemas share them). */
export const exemptName = 'exempt';
export const catchAllName = 'catch-all';

/** The largest matchingPrecedence a FlowSchema may have. */
export const flowSchemaMaxMatchingPrecedence = 10000;

/** Defaults of upstream's SetDefaults_* (the same values in v1beta2 and v1beta3). */
export const defaultMatchingPrecedence = 1000;
export const defaultConcurrencyShares = 30;
export const defaultLendablePercent = 0;
export const defaultQueues = 64;
export const defaultHandSize = 8;
export const defaultQueueLengthLimit = 50;

/** Status condition types the APF controller maintains (FlowSchema's drives MISSINGPL). */
export const flowSchemaConditionDangling = 'Dangling';
