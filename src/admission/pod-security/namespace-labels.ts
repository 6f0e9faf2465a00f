/** A namespace's labels as the policy reads them (non-string values, which validation refuses, ignored). */
import type { KubeObject } from '../../machinery/object.js';
import { isJsonObject } from '../../util/json.js';

export function namespaceLabels(ns: KubeObject | undefined): Readonly<Record<string, string>> | undefined {
  const labels: unknown = ns?.metadata.labels;
  return isJsonObject(labels) ? (labels as Record<string, string>) : undefined;
}
