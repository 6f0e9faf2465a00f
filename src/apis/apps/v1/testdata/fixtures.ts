/** Small workload objects and a request context shared by the apps/batch tests. */
import type { KubeObject } from '../../../../machinery/object.js';
import type { StrategyContext } from '../../../../machinery/validation-context.js';
import type { JsonObject } from '../../../../util/json.js';

export const ctx: StrategyContext = { namespace: 'default', features: { enabled: () => true } };

export function podTemplate(labels: Record<string, string>, restartPolicy?: string): JsonObject {
  const spec: JsonObject = { containers: [{ name: 'c', image: 'nginx' }] };
  if (restartPolicy !== undefined) spec['restartPolicy'] = restartPolicy;
  return { metadata: { labels }, spec };
}

export function workload(kind: string, apiVersion: string, spec: JsonObject, name = 'web'): KubeObject {
  return {
    apiVersion,
    kind,
    metadata: {
      name,
      namespace: 'default',
      uid: '11111111-2222-3333-4444-555555555555',
      resourceVersion: '1',
    },
    spec,
  };
}

/** The field error strings, as a Status message lists them. */
export function messages(errs: readonly { toString(): string }[]): string[] {
  return errs.map((e) => e.toString());
}
