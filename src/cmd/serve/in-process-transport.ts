/**
 * The transport `nanokube serve` gives its own components (controller manager, scheduler,
 * simulated nodes, the `kubernetes` Service controller): requests go straight into the server's
 * request chain (ApiServer.dispatchInProcess) with no TLS or HTTP in between. They are made as
 * upstream's loopback client is, `system:apiserver` in `system:masters`; only code in this process
 * holding the server can make them.
 */
import { randomUUID } from 'node:crypto';
import type { ApiServer } from '../../apiserver/server.js';
import type { Transport, TransportResponse } from '../../client/transport.js';
import type { UserInfo } from '../../machinery/user.js';

/** One identity for this server's lifetime, as upstream's loopback token. */
export function loopbackUser(): UserInfo {
  return {
    name: 'system:apiserver',
    uid: randomUUID(),
    groups: ['system:masters', 'system:authenticated'],
    extra: {},
  };
}

export function inProcessTransport(
  server: Pick<ApiServer, 'dispatchInProcess'>,
  o: { readonly user: UserInfo; readonly userAgent: string },
): Transport {
  const open = new Set<TransportResponse>();
  let closed = false;
  return {
    async send(request) {
      if (closed) throw new Error('the client was closed');
      const response = await server.dispatchInProcess(
        { ...request, headers: { ...request.headers, 'user-agent': o.userAgent } },
        o.user,
      );
      const done = (): void => {
        open.delete(tracked);
      };
      const tracked: TransportResponse = {
        status: response.status,
        body: (async function* () {
          try {
            yield* response.body;
          } finally {
            done();
          }
        })(),
        cancel: () => {
          done();
          response.cancel();
        },
      };
      open.add(tracked);
      if (closed) tracked.cancel();
      return tracked;
    },
    stats: () => ({ sessions: 0, streams: open.size }),
    close() {
      closed = true;
      for (const r of [...open]) r.cancel();
    },
  };
}
