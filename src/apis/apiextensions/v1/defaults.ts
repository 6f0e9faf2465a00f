/**
 * apiextensions.k8s.io/v1 defaults (upstream apiextensions-apiserver pkg/apis/apiextensions/v1
 * defaults.go, v0.27), in place on a decoded CustomResourceDefinition.
 */
import type { JsonObject } from '../../../util/json.js';
import { ensureObj, obj, objArr, setDefault, str, strArr } from '../../core/v1/access.js';

/**
 * SetDefaults_CustomResourceDefinition: the spec's names and conversion, the webhook service
 * port, and — when none are given — the stored versions (the storage version).
 */
export function defaultCustomResourceDefinition(o: JsonObject): void {
  const spec = ensureObj(o, 'spec');
  const names = ensureObj(spec, 'names');
  const kind = str(names, 'kind') ?? '';
  if ((str(names, 'singular') ?? '') === '') names['singular'] = kind.toLowerCase();
  if ((str(names, 'listKind') ?? '') === '' && kind !== '') names['listKind'] = `${kind}List`;
  if (obj(spec, 'conversion') === undefined) spec['conversion'] = { strategy: 'None' };
  // SetDefaults_ServiceReference on the conversion webhook's service.
  const service = obj(obj(obj(obj(spec, 'conversion'), 'webhook'), 'clientConfig'), 'service');
  if (service !== undefined) setDefault(service, 'port', 443);
  const status = obj(o, 'status');
  if (strArr(status, 'storedVersions').length === 0) {
    const storage = objArr(spec, 'versions').find((v) => v['storage'] === true);
    if (storage !== undefined) {
      ensureObj(o, 'status')['storedVersions'] = [str(storage, 'name') ?? ''];
    }
  }
}
