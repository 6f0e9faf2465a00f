/**
 * The strategies of one custom resource (apiextensions-apiserver v0.27
 * pkg/registry/customresource/strategy.go, status_strategy.go, validator.go): status dropped on
 * create and kept on update when the status subresource is on, generation bumped when anything but
 * metadata changes, kind/apiVersion checked, the scale paths checked, then the version's schema
 * (through a `CustomResourceValidation`) — CEL rules only when nothing blocking was found.
 * Objects reach the strategy as the storage version; they are validated as the version the
 * request was made at (what upstream's per-version storages see).
 */
import { StatusError } from '../../machinery/errors.js';
import { fieldErrors } from '../../machinery/field/errors.js';
import type { FieldError } from '../../machinery/field/errors.js';
import { blockingError } from '../../cel/validation/blocking.js';
import type { KubeObject } from '../../machinery/object.js';
import { jsonEqual } from '../../util/json.js';
import type { RESTStrategy, StrategyContext } from '../strategy.js';
import type { CrdScale } from './crd-view.js';

/** Checks one object of one served version; the schema pieces plug in here. */
export interface CustomResourceValidation {
  /** RESTStrategy.loadValidation: what the checks below need loaded (RE2, CEL) before they run. */
  load(): Promise<void> | undefined;
  /** Schema errors: types, formats, bounds, list sets/maps, embedded resources' metadata. */
  schema(version: string, obj: KubeObject, old: KubeObject | undefined): FieldError[];
  /** Whether the version's schema has x-kubernetes-validations (a CEL validator). */
  hasRules(version: string): boolean;
  /** x-kubernetes-validations (CEL), only run when `schema` found nothing blocking. */
  rules(version: string, obj: KubeObject, old: KubeObject | undefined): FieldError[];
}

export const noValidation: CustomResourceValidation = {
  load: () => undefined,
  schema: () => [],
  hasRules: () => false,
  rules: () => [],
};

export interface CustomResourceStrategyOptions {
  readonly group: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** The storage version's name. */
  readonly storageVersion: string;
  readonly status: boolean;
  /** Scale subresource paths, per version. */
  readonly scale: (version: string) => CrdScale | undefined;
  readonly validation: CustomResourceValidation;
  /** Prunes an object at the storage version (before it is written). */
  readonly prune?: (version: string, obj: KubeObject) => void;
  /** The CRD is terminating: creates are refused. */
  readonly terminating?: boolean;
  /** Validate at the storage version (objects converted by a webhook cannot be brought back). */
  readonly validateAtStorage?: boolean;
  /** The resource (plural) for the refusal's details. */
  readonly plural?: string;
}

/** The version the request was made at (the storage version when not said). */
function versionOf(ctx: StrategyContext, o: CustomResourceStrategyOptions): string {
  if (o.validateAtStorage === true) return o.storageVersion;
  return ctx.requestVersion?.version ?? o.storageVersion;
}

/** The object as the request's version sees it (None conversion: only apiVersion differs). */
function asVersion(obj: KubeObject, group: string, version: string): KubeObject {
  const apiVersion = `${group}/${version}`;
  return obj.apiVersion === apiVersion ? obj : { ...obj, apiVersion };
}

/** unstructured.NestedInt64 over a scale path: its error text, or the number. */
function nestedInt64(obj: KubeObject, path: string): { value: number } | { error: string } | undefined {
  const parts = path.replace(/^\./, '').split('.');
  let v: unknown = obj;
  for (const [i, p] of parts.entries()) {
    if (v === null || v === undefined) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) {
      return {
        error: `.${parts.slice(0, i + 1).join('.')} accessor error: ${goPrint(v)} is of the type ${goTypeOf(v)}, expected map[string]interface{}`,
      };
    }
    v = (v as Record<string, unknown>)[p];
  }
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'number' && Number.isInteger(v)) return { value: v };
  return {
    error: `.${parts.join('.')} accessor error: ${goPrint(v)} is of the type ${goTypeOf(v)}, expected int64`,
  };
}

/** Go's %v of a decoded JSON value (strings bare, maps as map[k:v], lists as [a b]). */
function goPrint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goPrint).join(' ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `map[${Object.keys(o)
      .sort()
      .map((k) => `${k}:${goPrint(o[k])}`)
      .join(' ')}]`;
  }
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function goTypeOf(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (v === null || v === undefined) return '<nil>';
  return 'map[string]interface {}';
}

function replicasErrors(obj: KubeObject, path: string): FieldError[] {
  const r = nestedInt64(obj, path);
  const at = path;
  if (r === undefined) return [];
  if ('error' in r) return [fieldErrors.invalid(at, 0, r.error)];
  if (r.value < 0) return [fieldErrors.invalid(at, r.value, 'should be a non-negative integer')];
  if (r.value > 2147483647)
    return [fieldErrors.invalid(at, r.value, 'should be less than or equal to 2147483647')];
  return [];
}

function scaleStatusErrors(obj: KubeObject, scale: CrdScale | undefined): FieldError[] {
  if (scale === undefined) return [];
  const errs = replicasErrors(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const parts = scale.labelSelectorPath.replace(/^\./, '').split('.');
    let v: unknown = obj;
    for (const p of parts)
      v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[p] : undefined;
    if (v !== undefined && typeof v !== 'string') {
      errs.push(
        fieldErrors.invalid(
          scale.labelSelectorPath,
          '',
          `.${parts.join('.')} accessor error: ${goPrint(v)} is of the type ${goTypeOf(v)}, expected string`,
        ),
      );
    }
  }
  return errs;
}

function typeMetaErrors(obj: KubeObject, o: CustomResourceStrategyOptions, version: string): FieldError[] {
  const errs: FieldError[] = [];
  if (obj.kind !== o.kind) errs.push(fieldErrors.invalid('kind', obj.kind, `must be ${o.kind}`));
  const apiVersion = `${o.group}/${version}`;
  if (obj.apiVersion !== apiVersion)
    errs.push(fieldErrors.invalid('apiVersion', obj.apiVersion, `must be ${apiVersion}`));
  return errs;
}

/** hasBlockingErr: CEL rules are not run over an object with these errors. */
function withRules(errs: FieldError[], run: () => FieldError[]): FieldError[] {
  const blocking = blockingError(errs);
  return blocking !== undefined ? [...errs, blocking] : [...errs, ...run()];
}

function validateFull(
  o: CustomResourceStrategyOptions,
  ctx: StrategyContext,
  stored: KubeObject,
  storedOld: KubeObject | undefined,
  statusOnly: boolean,
): FieldError[] {
  const version = versionOf(ctx, o);
  const obj = asVersion(stored, o.group, version);
  const old = storedOld === undefined ? undefined : asVersion(storedOld, o.group, version);
  const typeErrs = typeMetaErrors(obj, o, version);
  if (typeErrs.length > 0) return typeErrs;
  const scale = o.scale(version);
  const errs = [
    ...o.validation.schema(version, obj, old),
    ...(statusOnly || scale === undefined ? [] : replicasErrors(obj, scale.specReplicasPath)),
    ...scaleStatusErrors(obj, scale),
  ];
  if (!o.validation.hasRules(version)) return errs;
  return withRules(errs, () => o.validation.rules(version, obj, old));
}

function withoutMetadata(obj: KubeObject): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...obj };
  delete rest['metadata'];
  return rest;
}

export function customResourceStrategy(o: CustomResourceStrategyOptions): RESTStrategy {
  return {
    namespaced: o.namespaced,
    nameValidation: 'dns1123Subdomain',
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    loadValidation: () => o.validation.load(),
    prepareForCreate(_ctx, obj) {
      if (o.terminating === true) {
        throw new StatusError(
          405,
          'MethodNotAllowed',
          'create not allowed while custom resource definition is terminating',
          { group: o.group, kind: o.plural ?? '' },
        );
      }
      if (o.status) delete obj['status'];
      obj.metadata.generation = 1;
      o.prune?.(o.storageVersion, obj);
    },
    validate: (ctx, obj) => validateFull(o, ctx, obj, undefined, false),
    warningsOnCreate: () => [],
    canonicalize: () => {},
    prepareForUpdate(_ctx, obj, old) {
      if (o.status) {
        if (old['status'] !== undefined) obj['status'] = old['status'];
        else delete obj['status'];
      }
      o.prune?.(o.storageVersion, obj);
      if (!jsonEqual(withoutMetadata(obj) as never, withoutMetadata(old) as never)) {
        obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
      } else {
        obj.metadata.generation = old.metadata.generation ?? 0;
      }
    },
    validateUpdate: (ctx, obj, old) => validateFull(o, ctx, obj, old, false),
    warningsOnUpdate: () => [],
  };
}

/** `/status`: everything but status (and managedFields) comes from the stored object. */
export function customResourceStatusStrategy(o: CustomResourceStrategyOptions): RESTStrategy {
  const main = customResourceStrategy(o);
  return {
    ...main,
    prepareForUpdate(_ctx, obj, old) {
      const status = obj['status'];
      const managedFields = obj.metadata.managedFields;
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, structuredClone(old));
      if (managedFields === undefined) delete obj.metadata.managedFields;
      else obj.metadata.managedFields = managedFields;
      if (status !== undefined) obj['status'] = status;
      else delete obj['status'];
      o.prune?.(o.storageVersion, obj);
    },
    validateUpdate: (ctx, obj, old) => validateFull(o, ctx, obj, old, true),
  };
}
