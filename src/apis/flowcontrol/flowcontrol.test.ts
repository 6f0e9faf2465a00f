import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import { priorityLevelConfigurationToV1beta2, priorityLevelConfigurationToV1beta3 } from './conversion.js';
import {
  defaultFlowSchema,
  defaultPriorityLevelConfigurationV1beta2,
  defaultPriorityLevelConfigurationV1beta3,
} from './defaults.js';
import { mandatoryFlowSchemaSpec, mandatoryPriorityLevelConfigurationSpec } from './mandatory.js';
import { requiredEntropyBits } from './shufflesharding.js';
import { validateFlowSchema, validatePriorityLevelConfiguration } from './validation.js';

const messages = (errs: readonly { toString(): string }[]): string[] => errs.map(String);

function fs(name: string, spec: JsonObject, status?: JsonObject): KubeObject {
  const o: KubeObject = {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
    kind: 'FlowSchema',
    metadata: { name },
    spec,
  };
  if (status !== undefined) o['status'] = status;
  return o;
}

function plc(name: string, spec: JsonObject, version = 'v1beta3'): KubeObject {
  return {
    apiVersion: `flowcontrol.apiserver.k8s.io/${version}`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec,
  };
}

const rule = (extra: JsonObject = {}): JsonObject => ({
  subjects: [{ kind: 'User', user: { name: 'alice' } }],
  resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] }],
  ...extra,
});

const goodSpec = (extra: JsonObject = {}): JsonObject => ({
  priorityLevelConfiguration: { name: 'pl' },
  matchingPrecedence: 500,
  rules: [rule()],
  ...extra,
});

describe('defaults', () => {
  test('FlowSchema: matchingPrecedence 0 becomes 1000; a distinguisher is not defaulted', () => {
    const o: JsonObject = { spec: { matchingPrecedence: 0 } };
    defaultFlowSchema(o);
    assert.deepEqual(o['spec'], { matchingPrecedence: 1000 });
    const kept: JsonObject = { spec: { matchingPrecedence: 7 } };
    defaultFlowSchema(kept);
    assert.deepEqual(kept['spec'], { matchingPrecedence: 7 });
  });

  test('PriorityLevelConfiguration: shares 30, lendablePercent 0, queuing 64/8/50 per version', () => {
    const v3: JsonObject = {
      spec: {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Queue', queuing: { handSize: 4 } } },
      },
    };
    defaultPriorityLevelConfigurationV1beta3(v3);
    assert.deepEqual(v3['spec'], {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { handSize: 4, queues: 64, queueLengthLimit: 50 } },
      },
    });
    const v2: JsonObject = {
      spec: {
        type: 'Limited',
        limited: { assuredConcurrencyShares: 0, lendablePercent: 20, limitResponse: { type: 'Reject' } },
      },
    };
    defaultPriorityLevelConfigurationV1beta2(v2);
    assert.deepEqual(v2['spec'], {
      type: 'Limited',
      limited: { assuredConcurrencyShares: 30, lendablePercent: 20, limitResponse: { type: 'Reject' } },
    });
    const exempt: JsonObject = { spec: { type: 'Exempt' } };
    defaultPriorityLevelConfigurationV1beta3(exempt);
    assert.deepEqual(exempt['spec'], { type: 'Exempt' });
  });
});

describe('conversion', () => {
  test('assuredConcurrencyShares (v1beta2) ⇄ nominalConcurrencyShares (v1beta3), nothing else changes', () => {
    const v2 = plc(
      'p',
      {
        type: 'Limited',
        limited: {
          assuredConcurrencyShares: 12,
          limitResponse: { type: 'Reject' },
          lendablePercent: 10,
          borrowingLimitPercent: 200,
        },
      },
      'v1beta2',
    );
    const v3 = priorityLevelConfigurationToV1beta3(v2);
    assert.equal(v3.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta3');
    assert.deepEqual(v3['spec'], {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 12,
        limitResponse: { type: 'Reject' },
        lendablePercent: 10,
        borrowingLimitPercent: 200,
      },
    });
    assert.equal(v2.apiVersion, 'flowcontrol.apiserver.k8s.io/v1beta2', 'the input is left alone');
    assert.deepEqual(priorityLevelConfigurationToV1beta2(v3), v2);
    const exempt = plc('exempt', { type: 'Exempt' });
    assert.deepEqual(priorityLevelConfigurationToV1beta2(exempt)['spec'], { type: 'Exempt' });
  });
});

describe('FlowSchema validation', () => {
  test('a good schema and the mandatory ones pass', () => {
    assert.deepEqual(validateFlowSchema(fs('mine', goodSpec())), []);
    assert.deepEqual(validateFlowSchema(fs('exempt', mandatoryFlowSchemaSpec('exempt')!)), []);
    assert.deepEqual(validateFlowSchema(fs('catch-all', mandatoryFlowSchemaSpec('catch-all')!)), []);
  });

  test('matchingPrecedence, distinguisher and priority level reference', () => {
    assert.deepEqual(
      messages(
        validateFlowSchema(
          fs('mine', goodSpec({ matchingPrecedence: 1, distinguisherMethod: { type: 'ByPod' } })),
        ),
      ),
      [
        "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
        'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByPod"}: supported values: "ByNamespace", "ByUser"',
      ],
    );
    assert.deepEqual(
      messages(
        validateFlowSchema(
          fs(
            'mine',
            goodSpec({ matchingPrecedence: 10001, priorityLevelConfiguration: { name: 'Bad_Name' } }),
          ),
        ),
      ),
      [
        'spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000',
        `spec.priorityLevelConfiguration.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    );
    assert.deepEqual(
      messages(
        validateFlowSchema(fs('mine', goodSpec({ matchingPrecedence: -3, priorityLevelConfiguration: {} }))),
      ),
      [
        'spec.matchingPrecedence: Invalid value: -3: must be a positive value',
        'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
      ],
    );
  });

  test('subjects', () => {
    const subjects = [
      { kind: 'ServiceAccount', serviceAccount: { name: '*' }, user: { name: 'x' } },
      { kind: 'ServiceAccount' },
      { kind: 'User', user: { name: '' }, group: { name: 'g' } },
      { kind: 'Group' },
      { kind: 'Robot' },
      { kind: 'ServiceAccount', serviceAccount: { name: 'a_b', namespace: 'Kube' } },
    ];
    assert.deepEqual(messages(validateFlowSchema(fs('mine', goodSpec({ rules: [rule({ subjects })] })))), [
      'spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account',
      "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User'",
      "spec.rules[0].subjects[1].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'",
      'spec.rules[0].subjects[2].user.name: Required value',
      "spec.rules[0].subjects[2].group: Forbidden: group is forbidden when subject kind is not 'Group'",
      "spec.rules[0].subjects[3].group: Required value: group is required when subject kind is 'Group'",
      'spec.rules[0].subjects[4].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
      `spec.rules[0].subjects[5].serviceAccount.name: Invalid value: "a_b": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      `spec.rules[0].subjects[5].serviceAccount.namespace: Invalid value: "Kube": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    ]);
    assert.deepEqual(messages(validateFlowSchema(fs('mine', goodSpec({ rules: [{ subjects: [] }] })))), [
      'spec.rules[0].subjects: Required value: subjects must contain at least one value',
      'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
    ]);
  });

  test('resource and non-resource rules', () => {
    const resourceRules = [
      { verbs: ['*', 'get'], apiGroups: ['*', 'apps'], resources: ['*', 'pods'], namespaces: ['*', 'a'] },
      { verbs: ['get', 'fly'], apiGroups: [], resources: [], namespaces: ['Bad'] },
      { verbs: [], apiGroups: ['*'], resources: ['*'], clusterScope: true },
      { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
    ];
    const nonResourceRules = [
      {
        verbs: ['get'],
        nonResourceURLs: ['/healthz', 'metrics', '/a b', '//x', '/a*', '/x/*/y/*', '', '/', '/apis/*'],
      },
      { verbs: ['*'], nonResourceURLs: ['*', '/x'] },
      { verbs: ['get'], nonResourceURLs: [] },
    ];
    const got = messages(
      validateFlowSchema(fs('mine', goodSpec({ rules: [rule({ resourceRules, nonResourceRules })] }))),
    );
    const p = 'spec.rules[0]';
    assert.deepEqual(got, [
      `${p}.resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`,
      `${p}.resourceRules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`,
      `${p}.resourceRules[0].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources`,
      `${p}.resourceRules[0].namespaces: Invalid value: []string{"*", "a"}: if '*' is present, must not specify other namespaces`,
      `${p}.resourceRules[1].verbs: Unsupported value: []string{"get", "fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"`,
      `${p}.resourceRules[1].apiGroups: Required value: resource rules must supply at least one api group`,
      `${p}.resourceRules[1].resources: Required value: resource rules must supply at least one resource`,
      `${p}.resourceRules[1].namespaces[0]: Invalid value: "Bad": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      `${p}.resourceRules[2].verbs: Required value: verbs must contain at least one value`,
      `${p}.resourceRules[3].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`,
      `${p}.nonResourceRules[0].nonResourceURLs[1]: Invalid value: "metrics": must start with slash`,
      `${p}.nonResourceRules[0].nonResourceURLs[2]: Invalid value: "/a b": must not contain white-space`,
      `${p}.nonResourceRules[0].nonResourceURLs[3]: Invalid value: "//x": must not contain double slash`,
      `${p}.nonResourceRules[0].nonResourceURLs[4]: Invalid value: "/a*": wildcard can only do suffix matching`,
      `${p}.nonResourceRules[0].nonResourceURLs[5]: Invalid value: "/x/*/y/*": wildcard can only do suffix matching`,
      `${p}.nonResourceRules[0].nonResourceURLs[6]: Invalid value: "": must not be empty`,
      `${p}.nonResourceRules[1].nonResourceURLs: Invalid value: []string{"*", "/x"}: if '*' is present, must not specify other non-resource URLs`,
      `${p}.nonResourceRules[2].nonResourceURLs: Required value: nonResourceURLs must contain at least one value`,
    ]);
  });

  test('mandatory schemas must keep their fixed spec; status conditions need unique types', () => {
    const spec = { ...mandatoryFlowSchemaSpec('catch-all')!, matchingPrecedence: 9000 };
    const got = messages(validateFlowSchema(fs('catch-all', spec)));
    assert.equal(got.length, 1);
    assert.match(
      got[0]!,
      /^spec: Invalid value: flowcontrol\.FlowSchemaSpec\{PriorityLevelConfiguration:flowcontrol\.PriorityLevelConfigurationReference\{Name:"catch-all"\}, MatchingPrecedence:9000, DistinguisherMethod:\(\*flowcontrol\.FlowDistinguisherMethod\)\(0x[0-9a-f]+\), Rules:\[\]flowcontrol\.PolicyRulesWithSubjects\{.*\}: spec of 'catch-all' must equal the fixed value$/,
    );
    // Empty and absent lists are the same to upstream's semantic comparison.
    const exempt = mandatoryFlowSchemaSpec('exempt')!;
    assert.deepEqual(validateFlowSchema(fs('exempt', { ...exempt, distinguisherMethod: null })), []);
    assert.deepEqual(
      messages(
        validateFlowSchema(
          fs('mine', goodSpec(), {
            conditions: [{ type: 'Dangling', status: 'False' }, { type: 'Dangling' }, {}],
          }),
        ),
      ),
      [
        'status.conditions[1].type: Duplicate value: "Dangling"',
        'status.conditions[2].type: Required value: must not be empty',
      ],
    );
  });
});

describe('PriorityLevelConfiguration validation', () => {
  const limited = (l: JsonObject): JsonObject => ({ type: 'Limited', limited: l });
  const queue = (q: JsonObject): JsonObject => ({ type: 'Queue', queuing: q });

  test('good levels and the mandatory ones pass', () => {
    assert.deepEqual(
      validatePriorityLevelConfiguration(
        plc(
          'p',
          limited({
            nominalConcurrencyShares: 5,
            lendablePercent: 100,
            limitResponse: queue({ queues: 64, handSize: 8, queueLengthLimit: 50 }),
          }),
        ),
      ),
      [],
    );
    assert.deepEqual(
      validatePriorityLevelConfiguration(plc('exempt', mandatoryPriorityLevelConfigurationSpec('exempt')!)),
      [],
    );
    assert.deepEqual(
      validatePriorityLevelConfiguration(
        plc('catch-all', mandatoryPriorityLevelConfigurationSpec('catch-all')!),
      ),
      [],
    );
  });

  test('type, limited and the exempt name', () => {
    assert.deepEqual(
      messages(validatePriorityLevelConfiguration(plc('p', { type: 'Exempt', limited: {} }))),
      [
        `spec.type: Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt'`,
        'spec.limited: Forbidden: must be nil if the type is not Limited',
      ],
    );
    assert.deepEqual(messages(validatePriorityLevelConfiguration(plc('p', { type: 'Limited' }))), [
      'spec.limited: Required value: must not be empty when type is Limited',
    ]);
    assert.deepEqual(messages(validatePriorityLevelConfiguration(plc('p', { type: 'Sometimes' }))), [
      'spec.type: Unsupported value: "Sometimes": supported values: "Exempt", "Limited"',
    ]);
    const got = messages(
      validatePriorityLevelConfiguration(
        plc('exempt', {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } },
        }),
      ),
    );
    assert.deepEqual(got, [
      `spec.type: Invalid value: "Limited": type must be 'Exempt' if and only if name is 'exempt'`,
      `spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000010000)}: spec of 'exempt' must equal the fixed value`,
    ]);
  });

  test('shares are named as the request version spells them; percents and limit responses', () => {
    const spec = limited({
      nominalConcurrencyShares: 0,
      lendablePercent: 101,
      borrowingLimitPercent: -1,
      limitResponse: { type: 'Reject', queuing: {} },
    });
    const tail = [
      'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
      'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
      'spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer',
    ];
    assert.deepEqual(messages(validatePriorityLevelConfiguration(plc('p', spec))), [
      'spec.limited.nominalConcurrencyShares: Invalid value: 0: must be positive',
      ...tail,
    ]);
    assert.deepEqual(messages(validatePriorityLevelConfiguration(plc('p', spec), 'v1beta2')), [
      'spec.limited.assuredConcurrencyShares: Invalid value: 0: must be positive',
      ...tail,
    ]);
    assert.deepEqual(
      messages(
        validatePriorityLevelConfiguration(
          plc('p', limited({ nominalConcurrencyShares: 1, limitResponse: { type: 'Queue' } })),
        ),
      ),
      [
        'spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited',
      ],
    );
    assert.deepEqual(
      messages(
        validatePriorityLevelConfiguration(
          plc('p', limited({ nominalConcurrencyShares: 1, limitResponse: { type: '' } })),
        ),
      ),
      ['spec.limited.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"'],
    );
  });

  test('queuing parameters and the shuffle-sharding entropy limit', () => {
    const check = (q: JsonObject): string[] =>
      messages(
        validatePriorityLevelConfiguration(
          plc('p', limited({ nominalConcurrencyShares: 1, limitResponse: queue(q) })),
        ),
      );
    const p = 'spec.limited.limitResponse.queuing';
    assert.deepEqual(check({ queues: 0, handSize: 0, queueLengthLimit: 0 }), [
      `${p}.queueLengthLimit: Invalid value: 0: must be positive`,
      `${p}.queues: Invalid value: 0: must be positive`,
      `${p}.handSize: Invalid value: 0: must be positive`,
    ]);
    assert.deepEqual(check({ queues: 10000001, handSize: 1, queueLengthLimit: 1 }), [
      `${p}.queues: Invalid value: 10000001: must not be greater than 10000000`,
    ]);
    assert.deepEqual(check({ queues: 4, handSize: 5, queueLengthLimit: 1 }), [
      `${p}.handSize: Invalid value: 5: should not be greater than queues (4)`,
    ]);
    // 2^10 queues: 10 bits per card, so 6 cards fit in 60 bits and 7 do not.
    assert.deepEqual(check({ queues: 1024, handSize: 6, queueLengthLimit: 1 }), []);
    assert.deepEqual(check({ queues: 1024, handSize: 7, queueLengthLimit: 1 }), [
      `${p}.handSize: Invalid value: 7: required entropy bits of deckSize 1024 and handSize 7 should not be greater than 60`,
    ]);
    assert.equal(requiredEntropyBits(64, 8), 48);
    assert.equal(requiredEntropyBits(128, 6), 42);
    assert.equal(requiredEntropyBits(100, 9), 60);
  });
});
