/** ReplicationController and PodTemplate defaults (upstream SetDefaults_ReplicationController). */
import { isJsonObject } from '../../../../util/json.js';
import type { JsonObject } from '../../../../util/json.js';
import { ensureObj, obj, setDefault } from '../access.js';
import { defaultPodTemplateSpec } from './pod.js';

function nonEmpty(v: unknown): boolean {
  return isJsonObject(v) && Object.keys(v).length > 0;
}

/**
 * The selector and the object's labels default to the template's labels when empty; replicas
 * default to 1; a given template gets the pod spec defaults.
 */
export function defaultReplicationController(rc: JsonObject): void {
  const spec = ensureObj(rc, 'spec');
  const template = obj(spec, 'template');
  const labels = obj(obj(template, 'metadata'), 'labels');
  if (labels !== undefined && Object.keys(labels).length > 0) {
    if (!nonEmpty(spec['selector'])) spec['selector'] = { ...labels };
    const meta = ensureObj(rc, 'metadata');
    if (!nonEmpty(meta['labels'])) meta['labels'] = { ...labels };
  }
  setDefault(spec, 'replicas', 1);
  if (template !== undefined) defaultPodTemplateSpec(template);
}

/** A PodTemplate's template is a value upstream, so its pod spec is always defaulted. */
export function defaultPodTemplate(pt: JsonObject): void {
  defaultPodTemplateSpec(ensureObj(pt, 'template'));
}
