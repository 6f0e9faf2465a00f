/** `kubectl get clustertrustbundles` (v1.27): NAME, SIGNERNAME (`<none>` when unset); no age. */
import type { TableConvertor } from '../../machinery/table.js';
import { column, nameColumn } from './columns.js';
import { stringAt } from './read.js';

export const clusterTrustBundleTable: TableConvertor = {
  columns: [nameColumn, column('SignerName', 'string', 'The signer whose trust anchors the bundle holds.')],
  cells(obj) {
    const signerName = stringAt(obj, 'spec', 'signerName');
    return [stringAt(obj, 'metadata', 'name'), signerName === '' ? '<none>' : signerName];
  },
};
