/**
 * `kubectl get csr` (v1.27): NAME, AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION, CONDITION. The
 * condition reads Denied, Approved or Pending (in that precedence), then `,Failed` and `,Issued`.
 */
import type { TableConvertor } from '../../machinery/table.js';
import { humanDuration, translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, optionalNumberAt, stringAt } from './read.js';

/** Upstream extractCSRStatus. */
export function csrCondition(obj: unknown): string {
  let approved = false;
  let denied = false;
  let failed = false;
  for (const c of arrayAt(obj, 'status', 'conditions')) {
    const type = stringAt(c, 'type');
    if (type === 'Approved') approved = true;
    else if (type === 'Denied') denied = true;
    else if (type === 'Failed') failed = true;
  }
  let s = denied ? 'Denied' : approved ? 'Approved' : 'Pending';
  if (failed) s += ',Failed';
  if (stringAt(obj, 'status', 'certificate') !== '') s += ',Issued';
  return s;
}

export const certificateSigningRequestTable: TableConvertor = {
  columns: [
    nameColumn,
    ageColumn,
    column('SignerName', 'string', 'The signer asked to issue the certificate.'),
    column('Requestor', 'string', 'The user who created the request.'),
    column('RequestedDuration', 'string', 'The validity period asked for the certificate.'),
    column('Condition', 'string', 'Whether the request is pending, approved or denied, failed, issued.'),
  ],
  cells(obj, now) {
    const signerName = stringAt(obj, 'spec', 'signerName');
    const seconds = optionalNumberAt(obj, 'spec', 'expirationSeconds');
    return [
      stringAt(obj, 'metadata', 'name'),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
      signerName === '' ? '<none>' : signerName,
      stringAt(obj, 'spec', 'username'),
      seconds === undefined ? '<none>' : humanDuration(seconds * 1000),
      csrCondition(obj),
    ];
  },
};
