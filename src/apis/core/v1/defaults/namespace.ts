/** Namespace defaults (upstream SetDefaults_Namespace, SetDefaults_NamespaceStatus). */
import type { JsonObject } from '../../../../util/json.js';
import { ensureObj, setDefaultStr, str } from '../access.js';

/** The label every namespace carries with its own name. */
export const namespaceNameLabel = 'kubernetes.io/metadata.name';

export function defaultNamespace(ns: JsonObject): void {
  const meta = ensureObj(ns, 'metadata');
  const name = str(meta, 'name') ?? '';
  if (name !== '') ensureObj(meta, 'labels')[namespaceNameLabel] = name;
  setDefaultStr(ensureObj(ns, 'status'), 'phase', 'Active');
}
