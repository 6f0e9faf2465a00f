import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultCustomResourceDefinition } from '../../../apis/apiextensions/v1/defaults.js';
import type { KubeObject } from '../../../machinery/object.js';
import type { StrategyContext } from '../../../machinery/validation-context.js';
import { cloneJson } from '../../../util/json.js';
import type { JsonObject } from '../../../util/json.js';
import { customResourceDefinitions } from './customresourcedefinitions.js';
import { apiextensionsV1Resources } from './index.js';

const ctx: StrategyContext = { namespace: '', features: { enabled: () => true } };
const strategy = customResourceDefinitions.strategy;
// The store loads CEL and RE2 before it validates a CRD; these tests call the strategy directly.
await strategy.loadValidation?.();
const messages = (errs: readonly { toString(): string }[]): string[] => errs.map((e) => e.toString());
const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } };
const dns1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

function crd(spec: JsonObject, name = 'widgets.example.com', extra: JsonObject = {}): KubeObject {
  const o: KubeObject = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name, ...extra },
    spec,
  };
  defaultCustomResourceDefinition(o);
  strategy.prepareForCreate(ctx, o);
  return o;
}

const widgetSpec = (more: JsonObject = {}): JsonObject => ({
  group: 'example.com',
  scope: 'Namespaced',
  names: { plural: 'widgets', kind: 'Widget' },
  versions: [{ name: 'v1', served: true, storage: true, schema }],
  ...more,
});

test('discovery facts of customresourcedefinitions', () => {
  assert.deepEqual(
    apiextensionsV1Resources.map((r) => [
      r.info.resource,
      r.info.namespaced,
      r.info.shortNames,
      r.info.categories,
      r.info.statusSubresource,
    ]),
    [['customresourcedefinitions', false, ['crd', 'crds'], ['api-extensions'], true]],
  );
  assert.equal(strategy.allowUnconditionalUpdate, false);
});

test('defaults and create: names, conversion, generation and the reset status', () => {
  const o = crd(widgetSpec(), 'widgets.example.com');
  assert.deepEqual((o['spec'] as JsonObject)['names'], {
    plural: 'widgets',
    kind: 'Widget',
    singular: 'widget',
    listKind: 'WidgetList',
  });
  assert.deepEqual((o['spec'] as JsonObject)['conversion'], { strategy: 'None' });
  assert.equal(o.metadata.generation, 1);
  assert.deepEqual(o['status'], {
    conditions: null,
    acceptedNames: { kind: '', plural: '' },
    storedVersions: ['v1'],
  });
  assert.deepEqual(messages(strategy.validate(ctx, o)), []);
  const hook = { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's' } } } };
  const w = crd(widgetSpec({ conversion: hook }));
  assert.equal(
    (((w['spec'] as JsonObject)['conversion'] as JsonObject)['webhook'] as JsonObject)['clientConfig'] !==
      undefined,
    true,
  );
  assert.deepEqual(messages(strategy.validate(ctx, w)), [
    'spec.conversion.conversionReviewVersions: Required value',
  ]);
});

test('name, group, scope and names rules', () => {
  const o = crd(
    {
      group: 'example',
      scope: 'Global',
      names: {
        plural: 'Widgets',
        kind: 'Widget',
        listKind: 'Widget',
        shortNames: ['W'],
        categories: ['a.b'],
      },
      versions: [{ name: 'v1', served: true, storage: true, schema }],
    },
    'widgets.example.com',
  );
  assert.deepEqual(messages(strategy.validate(ctx, o)), [
    'metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group',
    'spec.group: Invalid value: "example": should be a domain with at least one dot',
    'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    `spec.names.plural: Invalid value: "Widgets": ${dns1035}`,
    `spec.names.shortNames[0]: Invalid value: "W": ${dns1035}`,
    'spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same',
    `spec.names.categories[0]: Invalid value: "a.b": ${dns1035}`,
  ]);
  const missing = crd({ group: 'example.com', scope: 'Cluster', names: {}, versions: [] }, '.example.com');
  assert.deepEqual(messages(strategy.validate(ctx, missing)), [
    'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{}: must have exactly one version marked as storage version',
    'spec.names.plural: Required value',
    'spec.names.singular: Required value',
    'spec.names.kind: Required value',
    'spec.names.listKind: Required value',
    'status.storedVersions: Invalid value: []string(nil): must have at least one stored version',
  ]);
});

test('versions: schemas required, names, uniqueness, one storage version, deprecation warnings', () => {
  const o = crd(
    widgetSpec({
      versions: [
        { name: 'v1', served: true, storage: true, schema },
        { name: 'v1', served: true, storage: true, deprecationWarning: 'x' },
        { name: 'V2', served: false, storage: false, deprecated: true, deprecationWarning: '' },
      ],
    }),
  );
  const v = (name: string, storage: boolean, schemaPtr: boolean, warning: boolean): string =>
    `apiextensions.CustomResourceDefinitionVersion{Name:"${name}", Served:${name !== 'V2'}, Storage:${storage}, Deprecated:${name === 'V2'}, DeprecationWarning:(*string)(${warning ? '0xc000010000' : 'nil'}), Schema:(*apiextensions.CustomResourceValidation)(${schemaPtr ? '0xc000010000' : 'nil'}), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}`;
  const all = `[]apiextensions.CustomResourceDefinitionVersion{${v('v1', true, true, false)}, ${v('v1', true, false, true)}, ${v('V2', false, false, true)}}`;
  assert.deepEqual(messages(strategy.validate(ctx, o)), [
    'spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required',
    'spec.versions[2].schema.openAPIV3Schema: Required value: schemas are required',
    'spec.versions[1].deprecationWarning: Invalid value: "x": can only be set for deprecated versions',
    `spec.versions[2].name: Invalid value: "V2": ${dns1035}`,
    'spec.versions[2].deprecationWarning: Invalid value: "": must not be an empty string',
    `spec.versions: Invalid value: ${all}: must contain unique version names`,
    `spec.versions: Invalid value: ${all}: must have exactly one version marked as storage version`,
    // The second "v1" no longer finds its name among the stored versions (upstream's map walk).
    `status.storedVersions: Invalid value: ${v('v1', true, false, true)}: must have the storage version v1`,
  ]);
});

test('identical per-version schema and subresources are checked at the top level, as upstream reports', () => {
  const sub = { status: {}, scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'x' } };
  const root = { openAPIV3Schema: { type: 'object', nullable: true, additionalProperties: true } };
  const o = crd(
    widgetSpec({
      versions: [
        { name: 'v1', served: true, storage: true, schema: root, subresources: sub },
        { name: 'v2', served: true, storage: false, schema: root, subresources: sub },
      ],
    }),
  );
  assert.deepEqual(messages(strategy.validate(ctx, o)), [
    'spec.validation.openAPIV3Schema: Invalid value: {"type":"object","nullable":true,"additionalProperties":true}: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
    'spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root',
    'spec.validation.openAPIV3Schema.additionalProperties: Forbidden: must not be used at the root',
    'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
    'spec.subresources.scale.statusReplicasPath: Invalid value: "x": must be a simple json path starting with .',
  ]);
});

test('printer columns are validated per version when they differ', () => {
  const o = crd(
    widgetSpec({
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema,
          additionalPrinterColumns: [{ name: '', type: 'text', format: 'uuid', jsonPath: 'spec' }],
        },
        { name: 'v2', served: true, storage: false, schema },
      ],
    }),
  );
  assert.deepEqual(messages(strategy.validate(ctx, o)), [
    'spec.versions[0].additionalPrinterColumns[0].name: Required value',
    'spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "text": must be one of boolean,date,integer,number,string',
    'spec.versions[0].additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
    'spec.versions[0].additionalPrinterColumns[0].JSONPath: Invalid value: "spec": must be a simple json path starting with .',
  ]);
});

test('conversion webhooks, preserveUnknownFields and the API approval annotation', () => {
  const o = crd(
    widgetSpec({
      preserveUnknownFields: true,
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: { type: 'object', properties: { a: { type: 'string', default: 'x' } } },
          },
        },
      ],
      conversion: {
        strategy: 'Webhook',
        webhook: {
          clientConfig: { url: 'http://me@hooks.example.com/convert?x=1#top' },
          conversionReviewVersions: ['v3', 'v3'],
        },
      },
    }),
  );
  assert.deepEqual(messages(strategy.validate(ctx, o)), [
    'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
    'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
    'spec.conversion.webhookClientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
    'spec.conversion.webhookClientConfig.url: Invalid value: "me": user information is not permitted in the URL',
    'spec.conversion.webhookClientConfig.url: Invalid value: "top": fragments are not permitted in the URL',
    'spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
    'spec.conversion.conversionReviewVersions[1]: Invalid value: "v3": duplicate version',
    'spec.conversion.conversionReviewVersions: Invalid value: []string{"v3", "v3"}: must include at least one of v1, v1beta1',
    'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
  ]);
  const service = crd(
    widgetSpec({
      conversion: {
        strategy: 'None',
        webhook: {
          clientConfig: { service: { namespace: 'n', name: 's', port: 0, path: 'a//B' } },
          conversionReviewVersions: ['v1'],
        },
      },
    }),
  );
  assert.deepEqual(messages(strategy.validate(ctx, service)), [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
  const badService = cloneJson(service);
  (((badService['spec'] as JsonObject)['conversion'] as JsonObject)['strategy'] as string) = 'Webhook';
  assert.deepEqual(messages(strategy.validate(ctx, badService)), [
    'spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": must start with a \'/\'',
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[0] may not be empty',
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "a//B": segment[1] may not be empty',
    "spec.conversion.webhookClientConfig.service.path: Invalid value: \"a//B\": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  ]);
  const protectedSpec = widgetSpec({ group: 'widgets.k8s.io' });
  const missing = crd(protectedSpec, 'widgets.widgets.k8s.io');
  assert.deepEqual(messages(strategy.validate(ctx, missing)), [
    'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
  ]);
  const invalid = crd(protectedSpec, 'widgets.widgets.k8s.io', {
    annotations: { 'api-approved.kubernetes.io': 'yes' },
  });
  assert.deepEqual(messages(strategy.validate(ctx, invalid)), [
    'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
  ]);
  for (const value of ['unapproved, testing', 'https://github.com/kubernetes/kubernetes/pull/1']) {
    const ok = crd(protectedSpec, 'widgets.widgets.k8s.io', {
      annotations: { 'api-approved.kubernetes.io': value },
    });
    assert.deepEqual(messages(strategy.validate(ctx, ok)), [], value);
  }
});

test('updates: group and plural immutable, generation, stored versions, status kept', () => {
  const old = crd(widgetSpec());
  old.metadata.resourceVersion = '5';
  const upd = cloneJson(old);
  const spec = upd['spec'] as JsonObject;
  spec['group'] = 'example.org';
  (spec['names'] as JsonObject)['plural'] = 'gadgets';
  spec['versions'] = [
    { name: 'v1', served: true, storage: false, schema },
    { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
  ];
  upd['status'] = { storedVersions: ['v9'] };
  strategy.prepareForUpdate(ctx, upd, old);
  assert.equal(upd.metadata.generation, 2);
  assert.deepEqual(upd['status']['storedVersions'], ['v1', 'v2']);
  assert.deepEqual(messages(strategy.validateUpdate(ctx, upd, old)), [
    'spec.group: Invalid value: "example.org": field is immutable',
    'spec.names.plural: Invalid value: "gadgets": field is immutable',
  ]);
  // Once Established, scope and kind are frozen too.
  const established = cloneJson(old);
  established['status'] = {
    ...(old['status'] as JsonObject),
    conditions: [{ type: 'Established', status: 'True' }],
  };
  const scoped = cloneJson(established);
  (scoped['spec'] as JsonObject)['scope'] = 'Cluster';
  ((scoped['spec'] as JsonObject)['names'] as JsonObject)['kind'] = 'Gadget';
  strategy.prepareForUpdate(ctx, scoped, established);
  assert.deepEqual(messages(strategy.validateUpdate(ctx, scoped, established)), [
    'spec.scope: Invalid value: "Cluster": field is immutable',
    'spec.names.kind: Invalid value: "Gadget": field is immutable',
  ]);
  // A stored version must stay in spec.versions.
  const dropped = cloneJson(upd);
  (dropped['spec'] as JsonObject)['group'] = 'example.com';
  ((dropped['spec'] as JsonObject)['names'] as JsonObject)['plural'] = 'widgets';
  (dropped['spec'] as JsonObject)['versions'] = [
    { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
  ];
  assert.deepEqual(messages(strategy.validateUpdate(ctx, dropped, old)), [
    'status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions',
  ]);
});

test('status subresource: spec put back, metadata and status kept, accepted names validated', () => {
  const status = customResourceDefinitions.statusStrategy!;
  const old = crd(widgetSpec());
  const upd = cloneJson(old);
  (upd['spec'] as JsonObject)['scope'] = 'Cluster';
  upd.metadata.labels = { a: 'b' };
  upd['status'] = {
    conditions: [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: '' }],
    acceptedNames: { plural: 'widgets', kind: 'Widget', listKind: 'Widget' },
    storedVersions: ['v1'],
  };
  status.prepareForUpdate(ctx, upd, old);
  assert.equal((upd['spec'] as JsonObject)['scope'], 'Namespaced');
  assert.deepEqual(upd.metadata.labels, { a: 'b' });
  assert.deepEqual(messages(status.validateUpdate(ctx, upd, old)), [
    'status.acceptedNames.listKind: Invalid value: "Widget": kind and listKind may not be the same',
  ]);
});
