/**
 * `kubectl get endpointslices`: NAME, ADDRESSTYPE, PORTS, ENDPOINTS, AGE (upstream
 * printEndpointSlice: up to three ports and addresses, then " + N more...", "<unset>" for none).
 */
import type { TableConvertor } from '../../machinery/table.js';
import { translateTimestampSince } from './age.js';
import { ageColumn, column, nameColumn } from './columns.js';
import { arrayAt, optionalNumberAt, optionalStringAt, stringAt } from './read.js';

const MAX_SHOWN = 3;

/** Upstream listWithMoreString. */
function listWithMore(list: readonly string[], count: number): string {
  if (count > MAX_SHOWN) return `${list.join(',')} + ${count - MAX_SHOWN} more...`;
  const joined = list.join(',');
  return joined === '' ? '<unset>' : joined;
}

/** Each port's number, else its name, else "*" (all ports). */
export function formatDiscoveryPorts(slice: unknown): string {
  const ports = arrayAt(slice, 'ports');
  const list = ports.slice(0, MAX_SHOWN).map((p) => {
    const port = optionalNumberAt(p, 'port');
    if (port !== undefined) return String(port);
    return optionalStringAt(p, 'name') ?? '*';
  });
  return listWithMore(list, ports.length);
}

/** Every address of every endpoint, in order. */
export function formatDiscoveryEndpoints(slice: unknown): string {
  const addresses = arrayAt(slice, 'endpoints').flatMap((e) =>
    arrayAt(e, 'addresses').map((a) => (typeof a === 'string' ? a : '')),
  );
  return listWithMore(addresses.slice(0, MAX_SHOWN), addresses.length);
}

export const endpointSliceTable: TableConvertor = {
  columns: [
    nameColumn,
    column(
      'AddressType',
      'string',
      'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.',
    ),
    column(
      'Ports',
      'string',
      'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.',
    ),
    column(
      'Endpoints',
      'string',
      'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.',
    ),
    ageColumn,
  ],
  cells(obj, now) {
    return [
      stringAt(obj, 'metadata', 'name'),
      stringAt(obj, 'addressType'),
      formatDiscoveryPorts(obj),
      formatDiscoveryEndpoints(obj),
      translateTimestampSince(obj.metadata.creationTimestamp, now),
    ];
  },
};
