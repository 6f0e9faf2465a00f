/**
 * Namespace and object selectors of webhooks and policies (apiserver v0.27
 * pkg/admission/plugin/webhook/predicates/namespace and object). A namespace selector does not
 * apply to cluster-scoped resources other than namespaces; for a namespace's own create or update
 * the labels are the object's, otherwise the namespace's as cached (then as stored, in case the
 * cache lags; a missing namespace is a 404). An object selector matches when the new or the old
 * object's labels match.
 */
import { apiErrors, StatusError } from '../../machinery/errors.js';
import { asSelector, type SelectorCheck } from '../../machinery/labels/metav1.js';
import type { KubeObject } from '../../machinery/object.js';
import type { JsonObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../attributes.js';
import type { ObjectLookup } from '../dependencies.js';

const namespaces = { group: '', resource: 'namespaces' };

/** A parsed selector; a malformed one (refused by validation, so rare) is an internal error when used. */
export type ParsedSelector = SelectorCheck;

export function parseSelector(selector: JsonObject | undefined): ParsedSelector {
  return asSelector(selector ?? {});
}

function invalidSelector(): StatusError {
  return apiErrors.internal(new Error('invalid label selector'));
}

async function namespaceLabels(
  a: AdmissionAttributes,
  lookup: ObjectLookup,
): Promise<Record<string, string> | undefined> {
  if (
    a.resource.group === '' &&
    a.resource.resource === 'namespaces' &&
    a.subresource === '' &&
    (a.operation === 'CREATE' || a.operation === 'UPDATE')
  ) {
    return a.object?.metadata.labels;
  }
  const ns =
    (await lookup.get(namespaces, '', a.namespace)) ?? (await lookup.getLive?.(namespaces, '', a.namespace));
  if (ns === undefined) throw apiErrors.notFound(namespaces, a.namespace);
  return ns.metadata.labels;
}

/** MatchNamespaceSelector: whether the request is in scope, or the error to report if it is. */
export async function matchNamespaceSelector(
  selector: ParsedSelector,
  a: AdmissionAttributes,
  lookup: ObjectLookup,
): Promise<{ readonly matches: boolean; readonly error?: StatusError }> {
  if (a.namespace === '' && !(a.resource.group === '' && a.resource.resource === 'namespaces')) {
    return { matches: true };
  }
  if (!selector.ok) return { matches: false, error: invalidSelector() };
  if (selector.empty) return { matches: true };
  try {
    return { matches: selector.matches(await namespaceLabels(a, lookup)) };
  } catch (err) {
    return { matches: false, error: err instanceof StatusError ? err : apiErrors.internal(err) };
  }
}

function labelsOf(o: KubeObject | undefined): Record<string, string> | undefined | null {
  return o === undefined ? null : (o.metadata?.labels ?? {});
}

/** MatchObjectSelector. */
export function matchObjectSelector(
  selector: ParsedSelector,
  a: AdmissionAttributes,
): { readonly matches: boolean; readonly error?: StatusError } {
  if (!selector.ok) return { matches: false, error: invalidSelector() };
  if (selector.empty) return { matches: true };
  const matches = [labelsOf(a.object), labelsOf(a.oldObject)].some(
    (l) => l !== null && selector.matches(l ?? {}),
  );
  return { matches };
}
