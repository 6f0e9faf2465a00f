/** `kubectl get endpoints`: NAME, ENDPOINTS, AGE. */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, numberAt, stringAt } from './read.js';
import { joinHostPort } from '../../util/host-port.js';

const MAX_SHOWN = 3;

/** Up to three `ip:port` entries (or bare IPs for port-less subsets), then " + N more...". */
export function formatEndpoints(endpoints: unknown): string {
  const subsets = arrayAt(endpoints, 'subsets');
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let more = false;
  let count = 0;
  for (const subset of subsets) {
    const addresses = arrayAt(subset, 'addresses');
    const ports = arrayAt(subset, 'ports');
    if (ports.length === 0) {
      count += addresses.length;
      for (const address of addresses) {
        if (list.length === MAX_SHOWN) {
          more = true;
          break;
        }
        list.push(stringAt(address, 'ip'));
      }
      continue;
    }
    for (const port of ports) {
      count += addresses.length;
      for (const address of addresses) {
        if (list.length === MAX_SHOWN) {
          more = true;
          break;
        }
        list.push(joinHostPort(stringAt(address, 'ip'), numberAt(port, 'port')));
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - MAX_SHOWN} more...` : joined;
}

export const endpointsTable: TableConvertor = {
  columns: [
    nameColumn,
    column('Endpoints', 'string', 'Addresses and ports of the ready endpoints.'),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      formatEndpoints(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
