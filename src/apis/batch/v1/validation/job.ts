/** Job validation as pkg/apis/batch/validation (release-1.27), on batch/v1 JSON. */
import { FieldPath, fieldErrors } from '../../../../machinery/field/errors.js';
import type { FieldError } from '../../../../machinery/field/errors.js';
import type { KubeObject } from '../../../../machinery/object.js';
import { isDNS1123Label } from '../../../../machinery/validation/names.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import { cloneJson } from '../../../../util/json.js';
import type { JsonObject, JsonValue } from '../../../../util/json.js';
import { bool, ensureObj, num, obj, str, strArr, strMap } from '../../../core/v1/access.js';
import { immutableMsg, immutableSelector, nonNegative } from '../../../apps/v1/validation/common.js';
import { asSelector } from '../../../../machinery/labels/metav1.js';
import { goLabelSelector, goStringMap, invalidGo } from '../../../apps/v1/validation/gorender.js';
import { semanticEqual } from '../../../apps/v1/validation/semantic.js';
import { validateJobSpec } from './jobspec.js';

export const legacyJobNameLabel = 'job-name';
export const legacyControllerUidLabel = 'controller-uid';
export const jobNameLabel = 'batch.kubernetes.io/job-name';
export const controllerUidLabel = 'batch.kubernetes.io/controller-uid';

export interface JobValidationOptions {
  /** Template scheduling directives may change (the old Job is suspended and never started). */
  readonly allowMutableSchedulingDirectives: boolean;
  /** ElasticIndexedJob (beta, on in 1.27): Indexed completions may change with parallelism. */
  readonly allowElasticIndexedJobs: boolean;
  /** The batch.kubernetes.io/ labels must be on the template too. */
  readonly requirePrefixedLabels: boolean;
}

const specPath = FieldPath.root('spec');
const templateMetaPath = FieldPath.root('spec', 'template', 'metadata');

/** Upstream ValidateHasLabel. */
function hasLabel(labels: Record<string, string> | undefined, key: string, expected: string): FieldError[] {
  const path = templateMetaPath.child('labels').key(key);
  const actual = labels?.[key];
  if (actual === undefined) return [fieldErrors.required(path, `must be '${expected}'`)];
  if (actual !== expected) return [invalidGo(path, goStringMap(labels), `must be '${expected}'`)];
  return [];
}

function validateGeneratedSelector(job: KubeObject, requirePrefixed: boolean): FieldError[] {
  const spec = obj(job, 'spec');
  if (bool(spec, 'manualSelector') === true) return [];
  const sel = obj(spec, 'selector');
  if (sel === undefined) return [];
  const errs: FieldError[] = [];
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  if (uid === '') errs.push(fieldErrors.required(FieldPath.root('metadata', 'uid'), ''));
  const labels = strMap(obj(obj(spec, 'template'), 'metadata'), 'labels');
  errs.push(...hasLabel(labels, legacyControllerUidLabel, uid));
  errs.push(...hasLabel(labels, legacyJobNameLabel, name));
  const expected: Record<string, string> = {};
  if (requirePrefixed) {
    errs.push(...hasLabel(labels, controllerUidLabel, uid));
    errs.push(...hasLabel(labels, jobNameLabel, name));
    expected[controllerUidLabel] = uid;
    expected[jobNameLabel] = name;
  }
  expected[legacyControllerUidLabel] = uid;
  expected[legacyJobNameLabel] = name;
  const selector = asSelector(sel);
  if (selector.ok && !selector.matches(expected)) {
    errs.push(invalidGo(specPath.child('selector'), goLabelSelector(sel), '`selector` not auto-generated'));
  }
  return errs;
}

/** Upstream ValidateJob (object metadata is validated by the store). */
export function validateJob(ctx: StrategyContext, job: KubeObject, opts: JobValidationOptions): FieldError[] {
  const spec = obj(job, 'spec') ?? {};
  const errs = validateGeneratedSelector(job, opts.requirePrefixedLabels);
  errs.push(...validateJobSpec(spec, specPath, ctx));
  const completions = num(spec, 'completions');
  if (str(spec, 'completionMode') === 'Indexed' && completions !== undefined && completions > 0) {
    const name = job.metadata.name ?? '';
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0) {
      errs.push(
        fieldErrors.invalid(
          FieldPath.root('metadata', 'name'),
          name,
          `will not able to create pod with invalid DNS label: ${hostname}`,
        ),
      );
    }
  }
  return errs;
}

function immutable(
  newVal: JsonValue | undefined,
  oldVal: JsonValue | undefined,
  path: FieldPath,
): FieldError[] {
  if (semanticEqual(newVal, oldVal)) return [];
  return [fieldErrors.invalid(path, newVal ?? null, immutableMsg)];
}

function validateCompletions(
  spec: JsonObject,
  oldSpec: JsonObject,
  opts: JobValidationOptions,
): FieldError[] {
  const path = specPath.child('completions');
  if (!opts.allowElasticIndexedJobs || str(spec, 'completionMode') !== 'Indexed') {
    return immutable(spec['completions'], oldSpec['completions'], path);
  }
  const completions = num(spec, 'completions');
  if (completions === num(oldSpec, 'completions') || completions === undefined) return [];
  if (completions !== num(spec, 'parallelism')) {
    return [fieldErrors.invalid(path, completions, 'can only be modified in tandem with spec.parallelism')];
  }
  return [];
}

/** The template, except what a suspended never-started Job may change, must be unchanged. */
function validateTemplateUpdate(
  spec: JsonObject,
  oldSpec: JsonObject,
  opts: JobValidationOptions,
): FieldError[] {
  const template = obj(spec, 'template') ?? {};
  let oldTemplate = obj(oldSpec, 'template') ?? {};
  if (opts.allowMutableSchedulingDirectives) {
    oldTemplate = cloneJson(oldTemplate);
    const podSpec = obj(template, 'spec');
    const oldPodSpec = ensureObj(oldTemplate, 'spec');
    const affinity = obj(podSpec, 'affinity');
    const oldAffinity = obj(oldPodSpec, 'affinity');
    if (affinity === undefined && oldAffinity !== undefined) {
      delete oldAffinity['nodeAffinity'];
      if (Object.keys(oldAffinity).length === 0) delete oldPodSpec['affinity'];
    } else if (affinity !== undefined && oldAffinity === undefined) {
      oldPodSpec['affinity'] =
        affinity['nodeAffinity'] === undefined ? {} : { nodeAffinity: affinity['nodeAffinity'] };
    } else if (affinity !== undefined && oldAffinity !== undefined) {
      if (affinity['nodeAffinity'] === undefined) delete oldAffinity['nodeAffinity'];
      else oldAffinity['nodeAffinity'] = affinity['nodeAffinity'];
    }
    for (const k of ['nodeSelector', 'tolerations', 'schedulingGates']) copyField(podSpec, oldPodSpec, k);
    const meta = obj(template, 'metadata');
    const oldMeta = ensureObj(oldTemplate, 'metadata');
    for (const k of ['annotations', 'labels']) copyField(meta, oldMeta, k);
  }
  if (semanticEqual(template, oldTemplate)) return [];
  // Upstream prints the whole internal core.PodTemplateSpec here; the JSON form stands in for it.
  return [fieldErrors.invalid(specPath.child('template'), template, immutableMsg)];
}

function copyField(from: JsonObject | undefined, to: JsonObject, key: string): void {
  const v = from?.[key];
  if (v === undefined) delete to[key];
  else to[key] = v;
}

/** Upstream ValidateJobUpdate's spec part (ValidateJobSpecUpdate). */
export function validateJobSpecUpdate(
  ctx: StrategyContext,
  job: KubeObject,
  old: KubeObject,
  opts: JobValidationOptions,
): FieldError[] {
  const spec = obj(job, 'spec') ?? {};
  const oldSpec = obj(old, 'spec') ?? {};
  const errs = validateJobSpec(spec, specPath, ctx);
  errs.push(...validateCompletions(spec, oldSpec, opts));
  errs.push(...immutableSelector(spec['selector'], oldSpec['selector'], specPath.child('selector')));
  errs.push(...validateTemplateUpdate(spec, oldSpec, opts));
  errs.push(
    ...immutable(spec['completionMode'], oldSpec['completionMode'], specPath.child('completionMode')),
  );
  errs.push(
    ...immutable(spec['podFailurePolicy'], oldSpec['podFailurePolicy'], specPath.child('podFailurePolicy')),
  );
  return errs;
}

/** Upstream ValidateJobStatusUpdate's status checks. */
export function validateJobStatus(job: KubeObject): FieldError[] {
  const path = FieldPath.root('status');
  const status = obj(job, 'status') ?? {};
  const errs: FieldError[] = [];
  for (const f of ['active', 'succeeded', 'failed'])
    errs.push(...nonNegative(num(status, f) ?? 0, path.child(f)));
  errs.push(...nonNegative(num(status, 'ready'), path.child('ready')));
  const uncounted = obj(status, 'uncountedTerminatedPods');
  if (uncounted !== undefined) {
    const p = path.child('uncountedTerminatedPods');
    const seen = new Set<string>();
    for (const list of ['succeeded', 'failed']) {
      strArr(uncounted, list).forEach((uid, i) => {
        const ip = p.child(list).index(i);
        if (uid === '') errs.push(fieldErrors.invalid(ip, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(fieldErrors.duplicate(ip, uid));
        else seen.add(uid);
      });
    }
  }
  return errs;
}
