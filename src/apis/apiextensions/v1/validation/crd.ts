/**
 * CustomResourceDefinition validation as apiextensions-apiserver v0.27
 * pkg/apis/apiextensions/validation/validation.go, on v1 JSON seen through its internal shape
 * (./internal.ts). Each `openAPIV3Schema` is checked by ../../schema/crd-schema.ts (structural
 * schema, defaults, the OpenAPI rules); x-kubernetes-validations (CEL) are checked only through the
 * hooks the caller passes, since apis/ may not import cel/.
 */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { goStringSlice, invalidRendered } from '../../../../machinery/validation/gosyntax.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../../../machinery/validation/names.js';
import { fieldImmutableErrorMsg } from '../../../../machinery/validation/objectmeta.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import {
  createSchemaOptions,
  schemaHas,
  schemaHasKubernetesExtensions,
  updateSchemaOptions,
  validateCRDOpenAPISchema,
} from '../../schema/crd-schema.js';
import type { CRDSchemaOptions, ValidateRules } from '../../schema/crd-schema.js';
import type { ValidateDefaultRules } from '../../schema/default-validation.js';
import { num, obj, objArr, str, strArr } from '../../../core/v1/access.js';
import { goVersion, goVersions, toInternalSpec } from './internal.js';
import type { InternalConversion, InternalSpec, InternalVersion } from './internal.js';
import { validateWebhookService, validateWebhookURL } from './webhook.js';

const printerColumnDatatypes = ['boolean', 'date', 'integer', 'number', 'string'];
const columnFormats = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];
const acceptedConversionReviewVersions = ['v1', 'v1beta1'];
const approvalAnnotation = 'api-approved.kubernetes.io';

interface Options {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  schema: CRDSchemaOptions;
}

/** CEL seams for x-kubernetes-validations (the registry strategy passes them; apis/ has no CEL). */
export interface CRDValidationHooks {
  /** Compiles and cost-checks the rules of a structurally valid schema (path: …openAPIV3Schema). */
  readonly validateRules?: ValidateRules;
  /** Evaluates the rules of a schema node against its default value (path: ….default). */
  readonly validateDefaultRules?: ValidateDefaultRules;
}

function withHooks(opts: CRDSchemaOptions, hooks: CRDValidationHooks): CRDSchemaOptions {
  return {
    ...opts,
    ...(hooks.validateRules !== undefined ? { validateRules: hooks.validateRules } : {}),
    ...(hooks.validateDefaultRules !== undefined ? { validateDefaultRules: hooks.validateDefaultRules } : {}),
  };
}

// ---- names ----

/**
 * The part of the CRD name check the store's RFC 1123 subdomain check leaves out: the name (and a
 * generateName) must be `<spec.names.plural>.<spec.group>`.
 */
function validateCRDName(crd: KubeObject): FieldError[] {
  const spec = obj(crd, 'spec');
  const required = `${str(obj(spec, 'names'), 'plural') ?? ''}.${str(spec, 'group') ?? ''}`;
  const msg = 'must be spec.names.plural+"."+spec.group';
  const errs: FieldError[] = [];
  const generateName = crd.metadata.generateName ?? '';
  if (generateName !== '' && generateName !== required) {
    errs.push(fieldErrors.invalid(FieldPath.root('metadata', 'generateName'), generateName, msg));
  }
  const name = crd.metadata.name ?? '';
  if (name !== '' && name !== required) {
    errs.push(fieldErrors.invalid(FieldPath.root('metadata', 'name'), name, msg));
  }
  return errs;
}

/** Upstream ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
export function validateNames(names: JsonObject | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const label = (key: string, value: string, prefix = ''): void => {
    const msgs = isDNS1035Label(prefix === '' ? value : value.toLowerCase());
    if (value !== '' && msgs.length > 0) {
      errs.push(fieldErrors.invalid(path.child(key), value, prefix + msgs.join(',')));
    }
  };
  const mixed = 'may have mixed case, but should otherwise match: ';
  const kind = str(names, 'kind') ?? '';
  const listKind = str(names, 'listKind') ?? '';
  label('plural', str(names, 'plural') ?? '');
  label('singular', str(names, 'singular') ?? '');
  label('kind', kind, mixed);
  label('listKind', listKind, mixed);
  strArr(names, 'shortNames').forEach((s, i) => {
    const msgs = isDNS1035Label(s);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(path.child('shortNames').index(i), s, msgs.join(',')));
  });
  if (kind !== '' && kind === listKind) {
    errs.push(fieldErrors.invalid(path.child('listKind'), listKind, 'kind and listKind may not be the same'));
  }
  strArr(names, 'categories').forEach((c, i) => {
    const msgs = isDNS1035Label(c);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(path.child('categories').index(i), c, msgs.join(',')));
  });
  return errs;
}

// ---- versions ----

/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isGoPrint(ch: string): boolean {
  return ch === ' ' || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch);
}

function deprecationWarningErrors(deprecated: boolean, warning: string | undefined): string[] {
  if (!deprecated && warning !== undefined) return ['can only be set for deprecated versions'];
  if (warning === undefined) return [];
  const errs: string[] = [];
  if (Buffer.byteLength(warning, 'utf8') > 256) errs.push('must be <= 256 characters long');
  if (warning.length === 0) errs.push('must not be an empty string');
  let offset = 0;
  for (const ch of warning) {
    if (!isGoPrint(ch)) {
      errs.push(
        `must only contain printable UTF-8 characters; non-printable character found at index ${offset}`,
      );
      break;
    }
    offset += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

function validateSimpleJSONPath(s: string, path: FieldPath): FieldError[] {
  if (s.length === 0) return [fieldErrors.invalid(path, s, 'must not be empty')];
  if (!s.startsWith('.')) return [fieldErrors.invalid(path, s, 'must be a simple json path starting with .')];
  return [];
}

/** Upstream ValidateCustomResourceColumnDefinition. */
function validateColumn(col: JsonObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((str(col, 'name') ?? '') === '') errs.push(fieldErrors.required(path.child('name'), ''));
  const type = str(col, 'type') ?? '';
  const types = `must be one of ${printerColumnDatatypes.join(',')}`;
  if (type === '') errs.push(fieldErrors.required(path.child('type'), types));
  else if (!printerColumnDatatypes.includes(type))
    errs.push(fieldErrors.invalid(path.child('type'), type, types));
  const format = str(col, 'format') ?? '';
  if (format !== '' && !columnFormats.includes(format)) {
    errs.push(fieldErrors.invalid(path.child('format'), format, `must be one of ${columnFormats.join(',')}`));
  }
  const jsonPath = str(col, 'jsonPath') ?? '';
  if (jsonPath === '') errs.push(fieldErrors.required(path.child('JSONPath'), ''));
  else errs.push(...validateSimpleJSONPath(jsonPath, path.child('JSONPath')));
  return errs;
}

/** Upstream ValidateCustomResourceDefinitionSubresources (the scale paths). */
function validateSubresources(sub: JsonObject | undefined, path: FieldPath): FieldError[] {
  const scale = obj(sub, 'scale');
  if (scale === undefined) return [];
  const errs: FieldError[] = [];
  const check = (key: string, prefix: string, msg: string): void => {
    const p = path.child(`scale.${key}`);
    const value = str(scale, key) ?? '';
    if (value === '') {
      errs.push(fieldErrors.required(p, ''));
      return;
    }
    const pathErrs = validateSimpleJSONPath(value, p);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!value.startsWith(prefix)) errs.push(fieldErrors.invalid(p, value, msg));
  };
  check('specReplicasPath', '.spec.', 'should be a json path under .spec');
  check('statusReplicasPath', '.status.', 'should be a json path under .status');
  const selector = str(scale, 'labelSelectorPath');
  if (selector !== undefined && selector !== '') {
    const p = path.child('scale.labelSelectorPath');
    const pathErrs = validateSimpleJSONPath(selector, p);
    if (pathErrs.length > 0) errs.push(...pathErrs);
    else if (!selector.startsWith('.spec.') && !selector.startsWith('.status.')) {
      errs.push(fieldErrors.invalid(p, selector, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

// ---- schemas (root only) ----

/** Internal JSONSchemaProps fields in Go order, with their v1 JSON names. */
const schemaFields: readonly (readonly [string, string])[] = [
  ['ID', 'id'],
  ['Schema', '$schema'],
  ['Ref', '$ref'],
  ['Description', 'description'],
  ['Type', 'type'],
  ['Nullable', 'nullable'],
  ['Format', 'format'],
  ['Title', 'title'],
  ['Default', 'default'],
  ['Maximum', 'maximum'],
  ['ExclusiveMaximum', 'exclusiveMaximum'],
  ['Minimum', 'minimum'],
  ['ExclusiveMinimum', 'exclusiveMinimum'],
  ['MaxLength', 'maxLength'],
  ['MinLength', 'minLength'],
  ['Pattern', 'pattern'],
  ['MaxItems', 'maxItems'],
  ['MinItems', 'minItems'],
  ['UniqueItems', 'uniqueItems'],
  ['MultipleOf', 'multipleOf'],
  ['Enum', 'enum'],
  ['MaxProperties', 'maxProperties'],
  ['MinProperties', 'minProperties'],
  ['Required', 'required'],
  ['Items', 'items'],
  ['AllOf', 'allOf'],
  ['OneOf', 'oneOf'],
  ['AnyOf', 'anyOf'],
  ['Not', 'not'],
  ['Properties', 'properties'],
  ['AdditionalProperties', 'additionalProperties'],
  ['PatternProperties', 'patternProperties'],
  ['Dependencies', 'dependencies'],
  ['AdditionalItems', 'additionalItems'],
  ['Definitions', 'definitions'],
  ['ExternalDocs', 'externalDocs'],
  ['Example', 'example'],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields'],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource'],
  ['XIntOrString', 'x-kubernetes-int-or-string'],
  ['XListMapKeys', 'x-kubernetes-list-map-keys'],
  ['XListType', 'x-kubernetes-list-type'],
  ['XMapType', 'x-kubernetes-map-type'],
  ['XValidations', 'x-kubernetes-validations'],
];

const allowedAtRoot = [
  'Description',
  'Type',
  'Format',
  'Title',
  'Maximum',
  'ExclusiveMaximum',
  'Minimum',
  'ExclusiveMinimum',
  'MaxLength',
  'MinLength',
  'Pattern',
  'MaxItems',
  'MinItems',
  'UniqueItems',
  'MultipleOf',
  'Required',
  'Items',
  'Properties',
  'ExternalDocs',
  'Example',
  'XPreserveUnknownFields',
  'XValidations',
];

/** Fields of value type (string, bool) in Go: "" and false are their zero values. */
const valueTypeFields = new Set([
  'ID',
  'Schema',
  'Description',
  'Type',
  'Nullable',
  'Format',
  'Title',
  'ExclusiveMaximum',
  'ExclusiveMinimum',
  'Pattern',
  'UniqueItems',
  'XEmbeddedResource',
  'XIntOrString',
]);

/** Go's zero value (reflect.Zero) of the field as decoded from the JSON value. */
function isZero(goName: string, value: JsonValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  return valueTypeFields.has(goName) && (value === '' || value === false);
}

/**
 * The root checks of upstream validateCustomResourceDefinitionValidation: with a status
 * subresource only some keywords may appear at the root and the type must be object; the root may
 * not be nullable.
 */
function validateValidation(
  validation: JsonObject | undefined,
  statusEnabled: boolean,
  schemaOpts: CRDSchemaOptions,
  path: FieldPath,
): FieldError[] {
  const schema = obj(validation, 'openAPIV3Schema');
  if (schema === undefined) return [];
  const errs: FieldError[] = [];
  if (statusEnabled) {
    for (const [goName, jsonName] of schemaFields) {
      const value = schema[jsonName];
      if (isZero(goName, value)) continue;
      if (goName === 'Type') {
        if (value !== 'object') {
          errs.push(
            fieldErrors.invalid(
              path.child('openAPIV3Schema.type'),
              value,
              'only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
            ),
          );
          break;
        }
        continue;
      }
      if (!allowedAtRoot.includes(goName)) {
        // Upstream prints the whole Go struct here; the JSON stands in for it.
        errs.push(
          fieldErrors.invalid(
            path.child('openAPIV3Schema'),
            schema,
            `only [${allowedAtRoot.join(' ')}] fields are allowed at the root of the schema if the status subresource is enabled`,
          ),
        );
        break;
      }
    }
  }
  if (schema['nullable'] === true) {
    errs.push(
      fieldErrors.forbidden(path.child('openAPIV3Schema.nullable'), 'nullable cannot be true at the root'),
    );
  }
  errs.push(...validateCRDOpenAPISchema(schema, path.child('openAPIV3Schema'), schemaOpts));
  return errs;
}

function specHasSchemaWith(spec: InternalSpec, pred: (s: JsonObject) => boolean): boolean {
  const has = (v: JsonObject | undefined): boolean => {
    const schema = obj(v, 'openAPIV3Schema');
    return schema !== undefined && schemaHas(schema, pred);
  };
  return has(spec.validation) || (spec.versions ?? []).some((v) => has(v.schema));
}

function specHasKubernetesExtensions(spec: InternalSpec): boolean {
  const has = (v: JsonObject | undefined): boolean => {
    const schema = obj(v, 'openAPIV3Schema');
    return schema !== undefined && schemaHasKubernetesExtensions(schema);
  };
  return has(spec.validation) || (spec.versions ?? []).some((v) => has(v.schema));
}

/** Every `openAPIV3Schema` of the spec (top-level and per version). */
function specSchemas(spec: InternalSpec): JsonObject[] {
  const out: JsonObject[] = [];
  for (const v of [spec.validation, ...(spec.versions ?? []).map((x) => x.schema)]) {
    const schema = obj(v, 'openAPIV3Schema');
    if (schema !== undefined) out.push(schema);
  }
  return out;
}

function allVersionsSpecifyOpenAPISchema(spec: InternalSpec): boolean {
  if (obj(spec.validation, 'openAPIV3Schema') !== undefined) return true;
  return (spec.versions ?? []).every((v) => obj(v.schema, 'openAPIV3Schema') !== undefined);
}

// ---- conversion ----

function validateConversionReviewVersions(
  versions: readonly string[] | undefined,
  requireRecognized: boolean,
  path: FieldPath,
): FieldError[] {
  if (versions === undefined || versions.length === 0) return [fieldErrors.required(path, '')];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErrors.invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(fieldErrors.invalid(path.index(i), v, m));
    if (acceptedConversionReviewVersions.includes(v)) accepted = true;
  });
  if (requireRecognized && !accepted) {
    errs.push(
      invalidRendered(
        path,
        goStringSlice(versions),
        `must include at least one of ${acceptedConversionReviewVersions.join(', ')}`,
      ),
    );
  }
  return errs;
}

function validateConversion(
  conversion: InternalConversion | undefined,
  requireRecognized: boolean,
  path: FieldPath,
): FieldError[] {
  if (conversion === undefined) return [];
  const errs = validateEnum(path.child('strategy'), conversion.strategy, ['None', 'Webhook']);
  const ccPath = path.child('webhookClientConfig');
  const cc = conversion.webhookClientConfig;
  if (conversion.strategy === 'Webhook') {
    if (cc === undefined) {
      errs.push(fieldErrors.required(ccPath, 'required when strategy is set to Webhook'));
    } else {
      const url = str(cc, 'url');
      const service = obj(cc, 'service');
      if ((url === undefined) === (service === undefined)) {
        errs.push(fieldErrors.required(ccPath, 'exactly one of url or service is required'));
      } else if (url !== undefined) {
        errs.push(...validateWebhookURL(ccPath.child('url'), url, true));
      } else {
        errs.push(
          ...validateWebhookService(
            ccPath.child('service'),
            str(service, 'namespace') ?? '',
            str(service, 'name') ?? '',
            str(service, 'path'),
            num(service, 'port') ?? 443,
          ),
        );
      }
    }
    errs.push(
      ...validateConversionReviewVersions(
        conversion.conversionReviewVersions,
        requireRecognized,
        path.child('conversionReviewVersions'),
      ),
    );
  } else {
    const forbidden = 'should not be set when strategy is not set to Webhook';
    if (cc !== undefined) errs.push(fieldErrors.forbidden(ccPath, forbidden));
    if ((conversion.conversionReviewVersions ?? []).length > 0) {
      errs.push(fieldErrors.forbidden(path.child('conversionReviewVersions'), forbidden));
    }
  }
  return errs;
}

function validateEnum(path: FieldPath, value: string, accepted: readonly string[]): FieldError[] {
  if (value === '') return [fieldErrors.required(path, '')];
  return accepted.includes(value) ? [] : [fieldErrors.notSupported(path, value, accepted)];
}

// ---- spec ----

function subresourcesFor(spec: InternalSpec, v: InternalVersion): JsonObject | undefined {
  const perVersion = (spec.versions ?? []).some((x) => x.subresources !== undefined);
  return perVersion ? v.subresources : spec.subresources;
}

function hasStatus(sub: JsonObject | undefined): boolean {
  return obj(sub, 'status') !== undefined;
}

function validateSpec(spec: InternalSpec, opts: Options, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const group = spec.group;
  const groupPath = path.child('group');
  if (group === '') errs.push(fieldErrors.required(groupPath, ''));
  else {
    const msgs = isDNS1123Subdomain(group);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(groupPath, group, msgs.join(',')));
    else if (group.split('.').length < 2) {
      errs.push(fieldErrors.invalid(groupPath, group, 'should be a domain with at least one dot'));
    }
  }
  errs.push(...validateEnum(path.child('scope'), spec.scope, ['Cluster', 'Namespaced']));

  const versions = spec.versions ?? [];
  const versionsPath = path.child('versions');
  const topSchema = obj(spec.validation, 'openAPIV3Schema');
  if (opts.requireOpenAPISchema) {
    if (topSchema === undefined) {
      versions.forEach((v, i) => {
        if (obj(v.schema, 'openAPIV3Schema') === undefined) {
          errs.push(
            fieldErrors.required(
              versionsPath.index(i).child('schema', 'openAPIV3Schema'),
              'schemas are required',
            ),
          );
        }
      });
    }
  } else if (!spec.preserveUnknownFields && topSchema === undefined) {
    versions.forEach((v, i) => {
      if (v.served && obj(v.schema, 'openAPIV3Schema') === undefined) {
        errs.push(
          fieldErrors.required(
            versionsPath.index(i).child('schema', 'openAPIV3Schema'),
            'because otherwise all fields are pruned',
          ),
        );
      }
    });
  }
  // Pruning, defaults and x-kubernetes-* extensions all need structural schemas.
  const hasDefaults = specHasSchemaWith(spec, (s) => s['default'] !== undefined);
  const schemaOpts: CRDSchemaOptions =
    !spec.preserveUnknownFields || hasDefaults || specHasKubernetesExtensions(spec)
      ? { ...opts.schema, requireStructuralSchema: true }
      : opts.schema;
  if (spec.preserveUnknownFields && hasDefaults) {
    errs.push(
      fieldErrors.invalid(
        path.child('preserveUnknownFields'),
        true,
        'must be false in order to use defaults in the schema',
      ),
    );
  }

  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const vPath = versionsPath.index(i);
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    else seen.add(v.name);
    const msgs = isDNS1035Label(v.name);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(vPath.child('name'), v.name, msgs.join(',')));
    for (const m of deprecationWarningErrors(v.deprecated, v.deprecationWarning)) {
      errs.push(fieldErrors.invalid(vPath.child('deprecationWarning'), v.deprecationWarning ?? null, m));
    }
    errs.push(
      ...validateValidation(v.schema, hasStatus(subresourcesFor(spec, v)), schemaOpts, vPath.child('schema')),
    );
    errs.push(...validateSubresources(v.subresources, vPath.child('subresources')));
    (v.columns ?? []).forEach((c, j) => {
      errs.push(...validateColumn(c, vPath.child('additionalPrinterColumns').index(j)));
    });
  });
  if (!unique) {
    errs.push(invalidRendered(versionsPath, goVersions(spec.versions), 'must contain unique version names'));
  }
  if (storageCount !== 1) {
    errs.push(
      invalidRendered(
        versionsPath,
        goVersions(spec.versions),
        'must have exactly one version marked as storage version',
      ),
    );
  }
  // The internal spec.version is the first version's name.
  const first = versions[0];
  if (first !== undefined && first.name !== '') {
    const msgs = isDNS1035Label(first.name);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(path.child('version'), first.name, msgs.join(',')));
  }

  const namesPath = path.child('names');
  for (const key of ['plural', 'singular', 'kind', 'listKind']) {
    if ((str(spec.names, key) ?? '') === '') errs.push(fieldErrors.required(namesPath.child(key), ''));
  }
  errs.push(...validateNames(spec.names, namesPath));
  const anyStatus = hasStatus(spec.subresources) || versions.some((v) => hasStatus(v.subresources));
  errs.push(...validateValidation(spec.validation, anyStatus, schemaOpts, path.child('validation')));
  errs.push(...validateSubresources(spec.subresources, path.child('subresources')));
  (spec.columns ?? []).forEach((c, j) => {
    errs.push(...validateColumn(c, path.child('additionalPrinterColumns').index(j)));
  });

  if (spec.conversion !== undefined && spec.conversion.strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(
      fieldErrors.invalid(
        path.child('conversion', 'strategy'),
        spec.conversion.strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    );
  }
  errs.push(
    ...validateConversion(
      spec.conversion,
      opts.requireRecognizedConversionReviewVersion,
      path.child('conversion'),
    ),
  );
  return errs;
}

// ---- status ----

/** Upstream ValidateCustomResourceDefinitionStatus: the accepted names follow the names rules. */
function validateStatus(crd: KubeObject): FieldError[] {
  return validateNames(obj(obj(crd, 'status'), 'acceptedNames'), FieldPath.root('status', 'acceptedNames'));
}

/** Upstream ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(crd: KubeObject, spec: InternalSpec): FieldError[] {
  const path = FieldPath.root('status', 'storedVersions');
  const raw = obj(crd, 'status')?.['storedVersions'];
  const stored = strArr(obj(crd, 'status'), 'storedVersions');
  if (stored.length === 0) {
    const rendered = Array.isArray(raw) ? '[]string{}' : '[]string(nil)';
    return [invalidRendered(path, rendered, 'must have at least one stored version')];
  }
  const errs: FieldError[] = [];
  const index = new Map<string, number>();
  stored.forEach((v, i) => index.set(v, i));
  for (const v of spec.versions ?? []) {
    const known = index.has(v.name);
    if (v.storage && !known)
      errs.push(invalidRendered(path, goVersion(v), `must have the storage version ${v.name}`));
    if (known) index.delete(v.name);
  }
  // Upstream walks a Go map here (random order); index order is used instead.
  for (const [v, i] of [...index.entries()].sort((a, b) => a[1] - b[1])) {
    errs.push(fieldErrors.invalid(path.index(i), v, 'must appear in spec.versions'));
  }
  return errs;
}

// ---- metadata.annotations[api-approved.kubernetes.io] ----

function isProtectedCommunityGroup(group: string): boolean {
  return (
    group === 'k8s.io' ||
    group.endsWith('.k8s.io') ||
    group === 'kubernetes.io' ||
    group.endsWith('.kubernetes.io')
  );
}

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** Go's url.ParseRequestURI accepting the value with a scheme and a host. */
function isApprovalURL(value: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s]+/.test(value) && !/[\s\x00-\x1f]/.test(value);
}

function approvalState(annotations: Record<string, string> | undefined): [ApprovalState, string] {
  const value = annotations?.[approvalAnnotation] ?? '';
  const q = JSON.stringify(approvalAnnotation);
  if (value === '') {
    return [
      'Missing',
      `protected groups must have approval annotation ${q}, see https://github.com/kubernetes/enhancements/pull/1111`,
    ];
  }
  if (value.startsWith('unapproved')) return ['Bypassed', `not approved: ${JSON.stringify(value)}`];
  if (isApprovalURL(value)) return ['Approved', `approved in ${value}`];
  return [
    'Invalid',
    `protected groups must have approval annotation ${q} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  ];
}

/** Upstream validateAPIApproval: *.k8s.io and *.kubernetes.io groups need the approval annotation. */
function validateAPIApproval(crd: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (!isProtectedCommunityGroup(str(obj(crd, 'spec'), 'group') ?? '')) return [];
  const [state, reason] = approvalState(crd.metadata.annotations);
  if (old !== undefined && approvalState(old.metadata.annotations)[0] === state) return [];
  const path = FieldPath.root('metadata', 'annotations').key(approvalAnnotation);
  if (state === 'Missing') return [fieldErrors.required(path, reason)];
  if (state === 'Invalid') {
    return [fieldErrors.invalid(path, crd.metadata.annotations?.[approvalAnnotation] ?? '', reason)];
  }
  return [];
}

/** Upstream validatePreserveUnknownFields: v1 may not turn it on (unless it already was). */
function validatePreserveUnknownFields(crd: KubeObject, old: KubeObject | undefined): FieldError[] {
  if (old !== undefined && obj(old, 'spec')?.['preserveUnknownFields'] === true) return [];
  if (obj(crd, 'spec')?.['preserveUnknownFields'] !== true) return [];
  return [
    fieldErrors.invalid(
      FieldPath.root('spec', 'preserveUnknownFields'),
      true,
      'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
    ),
  ];
}

// ---- entry points ----

/** Upstream ValidateCustomResourceDefinition (metadata beyond the name is checked by the store). */
export function validateCustomResourceDefinition(
  crd: KubeObject,
  hooks: CRDValidationHooks = {},
): FieldError[] {
  const spec = toInternalSpec(obj(crd, 'spec'));
  const opts: Options = {
    requireRecognizedConversionReviewVersion: true,
    requireImmutableNames: false,
    requireOpenAPISchema: true,
    schema: withHooks(createSchemaOptions, hooks),
  };
  return [
    ...validateCRDName(crd),
    ...validateSpec(spec, opts, FieldPath.root('spec')),
    ...validateStatus(crd),
    ...validateStoredVersions(crd, spec),
    ...validateAPIApproval(crd, undefined),
    ...validatePreserveUnknownFields(crd, undefined),
  ];
}

function isEstablished(crd: KubeObject): boolean {
  return objArr(obj(crd, 'status'), 'conditions').some(
    (c) => c['type'] === 'Established' && c['status'] === 'True',
  );
}

function immutable(path: FieldPath, value: string, old: string): FieldError[] {
  return value === old ? [] : [fieldErrors.invalid(path, value, fieldImmutableErrorMsg)];
}

/** Upstream ValidateCustomResourceDefinitionUpdate. */
export function validateCustomResourceDefinitionUpdate(
  crd: KubeObject,
  old: KubeObject,
  hooks: CRDValidationHooks = {},
): FieldError[] {
  const spec = toInternalSpec(obj(crd, 'spec'));
  const oldSpec = toInternalSpec(obj(old, 'spec'));
  const oldReview = oldSpec.conversion?.conversionReviewVersions ?? [];
  const opts: Options = {
    requireRecognizedConversionReviewVersion:
      oldSpec.conversion === undefined ||
      oldReview.length === 0 ||
      oldReview.some((v) => acceptedConversionReviewVersions.includes(v)),
    requireImmutableNames: isEstablished(old),
    requireOpenAPISchema: allVersionsSpecifyOpenAPISchema(oldSpec),
    schema: withHooks(updateSchemaOptions(specSchemas(oldSpec)), hooks),
  };
  const path = FieldPath.root('spec');
  const errs = validateSpec(spec, opts, path);
  if (opts.requireImmutableNames) {
    errs.push(...immutable(path.child('scope'), spec.scope, oldSpec.scope));
    errs.push(
      ...immutable(
        path.child('names', 'kind'),
        str(spec.names, 'kind') ?? '',
        str(oldSpec.names, 'kind') ?? '',
      ),
    );
  }
  errs.push(...immutable(path.child('group'), spec.group, oldSpec.group));
  errs.push(
    ...immutable(
      path.child('names', 'plural'),
      str(spec.names, 'plural') ?? '',
      str(oldSpec.names, 'plural') ?? '',
    ),
  );
  return [
    ...errs,
    ...validateStatus(crd),
    ...validateStoredVersions(crd, spec),
    ...validateAPIApproval(crd, old),
    ...validatePreserveUnknownFields(crd, old),
  ];
}

/** Upstream ValidateUpdateCustomResourceDefinitionStatus (metadata is checked by the store). */
export function validateCustomResourceDefinitionStatusUpdate(crd: KubeObject): FieldError[] {
  return validateStatus(crd);
}
