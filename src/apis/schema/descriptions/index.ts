/**
 * Our own descriptions for `kubectl explain` (upstream's text is never copied): every served kind
 * and its top-level fields, list kinds, and the nested types people explain most (pod and
 * container specs, probes, volumes, resources, affinity, security, workload specs and strategies,
 * Service spec, object metadata). A definition or field without an entry has no description.
 */
import type { Definition } from '../types.js';
import { kindTexts } from './kinds.js';
import { listFieldTexts, listText, metaTexts, standardFieldTexts } from './meta.js';
import { podTexts } from './pods.js';
import { probeTexts } from './probes.js';
import { schedulingTexts } from './scheduling.js';
import { securityTexts } from './security.js';
import { serviceTexts } from './services.js';
import type { DefinitionText, DescriptionTable } from './table.js';
import { volumeTexts } from './volumes.js';
import { workloadTexts } from './workloads.js';

export type { DefinitionText, DescriptionTable } from './table.js';

const tables: readonly DescriptionTable[] = [
  kindTexts,
  metaTexts,
  podTexts,
  probeTexts,
  volumeTexts,
  schedulingTexts,
  securityTexts,
  workloadTexts,
  serviceTexts,
];

let merged: Map<string, DefinitionText> | undefined;

/** Every table in one map (a definition appears in at most one table). */
export function descriptionTable(): ReadonlyMap<string, DefinitionText> {
  if (merged !== undefined) return merged;
  const out = new Map<string, DefinitionText>();
  for (const t of tables)
    for (const [name, text] of Object.entries(t)) {
      if (out.has(name)) throw new Error(`two description entries for ${name}`);
      out.set(name, text);
    }
  merged = out;
  return out;
}

/**
 * The descriptions of one definition: its own text and its fields'. Kinds (definitions with a
 * group-version-kind) get the standard top-level field texts, list kinds a generated text.
 */
export function describeDefinition(def: Definition): DefinitionText | undefined {
  const entry = descriptionTable().get(def.name);
  const kinds = def.gvk ?? [];
  const listOf =
    kinds.length === 1 && kinds[0]!.kind.endsWith('List') ? kinds[0]!.kind.slice(0, -4) : undefined;
  if (listOf !== undefined) {
    return { text: entry?.text ?? listText(listOf), fields: { ...listFieldTexts, ...entry?.fields } };
  }
  if (kinds.length > 0) {
    const text = entry?.text;
    return { ...(text === undefined ? {} : { text }), fields: { ...standardFieldTexts, ...entry?.fields } };
  }
  return entry;
}

export { standardFieldTexts } from './meta.js';
