/** resourceVersion / resourceVersionMatch rules of get and list (kube-apiserver v1.27). */
import { apiErrors } from '../../machinery/errors.js';
import { fieldErrors } from '../../machinery/field/errors.js';
import type { FieldError } from '../../machinery/field/errors.js';
import type { ListRequest } from '../options.js';

const uint64Max = 2n ** 64n - 1n;

/**
 * A resourceVersion parsed like upstream's APIObjectVersioner (strconv.ParseUint), 400 BadRequest
 * with the etcd3 store's wording when it does not parse. Values beyond 2^53 lose precision.
 */
export function parseResourceVersion(rv: string): number {
  let problem: string | undefined;
  if (!/^\d+$/.test(rv)) problem = 'invalid syntax';
  else if (BigInt(rv) > uint64Max) problem = 'value out of range';
  if (problem !== undefined) {
    const quoted = JSON.stringify(rv);
    throw apiErrors.badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${quoted}: strconv.ParseUint: parsing ${quoted}: ${problem}`,
    );
  }
  return Number(rv);
}

/** metav1 ListOptions validation: 422 `ListOptions.meta.k8s.io "" is invalid: ...`. */
export function validateListRequest(
  req: ListRequest & { readonly sendInitialEvents?: boolean },
  isWatch: boolean,
  watchListEnabled: boolean,
): void {
  const errs: FieldError[] = [];
  const rv = req.resourceVersion ?? '';
  const match = req.resourceVersionMatch ?? '';
  const hasContinue = (req.continue ?? '') !== '';
  const path = 'resourceVersionMatch';
  if (isWatch) {
    if (req.sendInitialEvents !== undefined) {
      if (match !== 'NotOlderThan') {
        errs.push(
          fieldErrors.forbidden(
            path,
            'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
          ),
        );
      }
      if (!watchListEnabled) {
        errs.push(
          fieldErrors.forbidden(
            'sendInitialEvents',
            'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
          ),
        );
      }
    }
    if (match !== '') {
      if (req.sendInitialEvents === undefined) {
        errs.push(
          fieldErrors.forbidden(
            path,
            'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
          ),
        );
      }
      if (match !== 'NotOlderThan') errs.push(fieldErrors.notSupported(path, match, ['NotOlderThan']));
      if (hasContinue)
        errs.push(fieldErrors.forbidden(path, 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match !== '') {
      if (rv === '') {
        errs.push(
          fieldErrors.forbidden(path, 'resourceVersionMatch is forbidden unless resourceVersion is provided'),
        );
      }
      if (hasContinue)
        errs.push(fieldErrors.forbidden(path, 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan') {
        errs.push(fieldErrors.notSupported(path, match, ['Exact', 'NotOlderThan', '']));
      }
      if (match === 'Exact' && rv === '0') {
        errs.push(
          fieldErrors.forbidden(path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'),
        );
      }
    }
    if (req.sendInitialEvents !== undefined) {
      errs.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
    }
  }
  if (errs.length > 0) throw apiErrors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
  if (!isWatch && hasContinue && rv !== '' && rv !== '0') {
    throw apiErrors.badRequest('specifying resource version is not allowed when using continue');
  }
}

export type ListRead =
  | { readonly kind: 'current' }
  | { readonly kind: 'exact'; readonly revision: number }
  | { readonly kind: 'notOlderThan'; readonly revision: number };

/** Which revision a list reads at (after validateListRequest). */
export function listRead(req: ListRequest): ListRead {
  const rv = req.resourceVersion ?? '';
  if (rv === '' || rv === '0') return { kind: 'current' };
  const n = parseResourceVersion(rv);
  const match = req.resourceVersionMatch ?? '';
  if (match === 'Exact') return { kind: 'exact', revision: n };
  if (match === 'NotOlderThan') return { kind: 'notOlderThan', revision: n };
  // Legacy semantics: with a limit a resourceVersion means an exact snapshot, otherwise "not older than".
  return (req.limit ?? 0) > 0 ? { kind: 'exact', revision: n } : { kind: 'notOlderThan', revision: n };
}
