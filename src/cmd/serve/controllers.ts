/**
 * Runs the built-in controllers in-process, talking to this server over its own HTTPS endpoint
 * with the admin credentials (the same path a separate controller-manager process would take).
 * One client (one HTTP/2 session pool) and one informer factory serve them all: the namespace
 * informer is shared by the namespace controller and both namespaced-defaults controllers.
 */
import type { ClientCredentials } from '../../client/credentials.js';
import { SharedInformerFactory } from '../../client/informer-factory.js';
import { RestClient } from '../../client/rest-client.js';
import { ApiserverServiceController } from '../../controllers/apiserver-service/controller.js';
import { NamespaceController } from '../../controllers/namespace/namespace-controller.js';
import {
  defaultServiceAccountController,
  rootCaPublisher,
} from '../../controllers/namespaced-defaults/defaults.js';
import type { Logger } from '../../util/log.js';
import { defaultAdvertiseAddress, defaultServiceClusterIPRange, firstServiceIP } from './flags.js';

export interface RunningControllers {
  stop(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** What the `kubernetes` Service controller needs of the server's flags. */
export interface ApiserverServiceFlags {
  /** The port the server listens on (the Service's targetPort and the Endpoints port). */
  readonly securePort: number;
  readonly bindAddress: string;
  readonly serviceClusterIPRange?: string;
  readonly advertiseAddress?: string;
}

export function startControllers(
  credentials: ClientCredentials,
  log: Logger,
  flags: ApiserverServiceFlags,
): RunningControllers {
  const client = new RestClient(credentials);
  const abort = new AbortController();
  const informers = new SharedInformerFactory({
    client,
    onError: (err, path) => log.v(2, `informer ${path}: ${message(err)}`),
  });
  const onError = (name: string) => (err: unknown) => log.v(2, `${name}: ${message(err)}`);
  const running = [
    new NamespaceController({ client, informers, onError: onError('namespace-controller') }).run(
      abort.signal,
    ),
    defaultServiceAccountController({
      client,
      informers,
      onError: onError('serviceaccount-controller'),
    }).run(abort.signal),
    rootCaPublisher({
      client,
      informers,
      caPem: credentials.ca,
      onError: onError('root-ca-cert-publisher'),
    }).run(abort.signal),
  ];
  const range = flags.serviceClusterIPRange ?? defaultServiceClusterIPRange;
  const serviceIP = firstServiceIP(range);
  const endpointIP = flags.advertiseAddress ?? defaultAdvertiseAddress(flags.bindAddress);
  if (serviceIP === undefined) {
    log.error(`--service-cluster-ip-range ${range}: not a valid CIDR; not keeping the kubernetes Service`);
  } else {
    if (endpointIP === undefined) {
      log.error(
        'no non-loopback IPv4 address to advertise: the kubernetes Service is kept without Endpoints',
      );
    }
    running.push(
      new ApiserverServiceController({
        client,
        informers,
        serviceIP,
        ...(endpointIP !== undefined ? { endpointIP } : {}),
        endpointPort: flags.securePort,
        onError: onError('kubernetes-service-controller'),
      }).run(abort.signal),
    );
  }
  informers.start(abort.signal);
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(running);
      await informers.stopped();
      client.close();
    },
  };
}
