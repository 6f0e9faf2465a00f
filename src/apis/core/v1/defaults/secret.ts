/**
 * Secret defaults (upstream SetDefaults_Secret) plus the v1 conversion rule that merges
 * `stringData` into `data` (stringData wins) and drops it.
 */
import type { JsonObject } from '../../../../util/json.js';
import { ensureObj, obj, setDefaultStr } from '../access.js';

export function defaultSecret(secret: JsonObject): void {
  setDefaultStr(secret, 'type', 'Opaque');
  const stringData = obj(secret, 'stringData');
  if (stringData !== undefined) {
    const entries = Object.entries(stringData);
    if (entries.length > 0) {
      const data = ensureObj(secret, 'data');
      for (const [k, v] of entries)
        if (typeof v === 'string') data[k] = Buffer.from(v, 'utf8').toString('base64');
    }
  }
  delete secret['stringData'];
}
