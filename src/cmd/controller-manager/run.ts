/**
 * The controller manager: the selected built-in controllers over one client and one informer
 * factory, running only while this process holds the `kube-system/kube-controller-manager` Lease
 * (AM-13). `nanokube serve` runs it in-process against its own HTTPS endpoint; `nanokube
 * controller-manager --kubeconfig F` runs the same code against any API server.
 */
import { setMaxListeners } from 'node:events';
import type { ClientCredentials } from '../../client/credentials.js';
import { SharedInformerFactory } from '../../client/informer-factory.js';
import { stripManagedFields } from '../../client/shared-informer.js';
import { LegacyEventRecorder } from '../../client/legacy-event-recorder.js';
import { LeaderElector } from '../../client/leader-election.js';
import { RestClient } from '../../client/rest-client.js';
import type { Transport } from '../../client/transport.js';
import { CsrApprovingController } from '../../controllers/certificates/approver.js';
import { CsrSigningController } from '../../controllers/certificates/signer.js';
import { CronJobController } from '../../controllers/cronjob/index.js';
import { DaemonSetController } from '../../controllers/daemonset/index.js';
import { EndpointsController } from '../../controllers/endpoint/endpoints-controller.js';
import { EndpointSliceController } from '../../controllers/endpointslice/endpointslice-controller.js';
import { EndpointSliceMirroringController } from '../../controllers/endpointslicemirroring/mirroring-controller.js';
import { NodeIpamController } from '../../controllers/nodeipam/range-allocator.js';
import type { NodeIpamOptions } from '../../controllers/nodeipam/range-allocator.js';
import { DeploymentController } from '../../controllers/deployment/deployment-controller.js';
import { JobController } from '../../controllers/job/index.js';
import { StatefulSetController } from '../../controllers/statefulset/index.js';
import { TtlAfterFinishedController } from '../../controllers/ttl-after-finished/index.js';
import { ClusterRoleAggregationController } from '../../controllers/clusterrole-aggregation/index.js';
import {
  PersistentVolumeBinder,
  PvProtectionController,
  PvcProtectionController,
} from '../../controllers/volume/index.js';
import { FeatureGates } from '../../machinery/features.js';
import { DisruptionController } from '../../controllers/disruption/disruption-controller.js';
import { GarbageCollector } from '../../controllers/garbage-collector/garbage-collector.js';
import { NamespaceController } from '../../controllers/namespace/namespace-controller.js';
import {
  defaultServiceAccountController,
  rootCaPublisher,
} from '../../controllers/namespaced-defaults/defaults.js';
import { TokensController } from '../../controllers/serviceaccount-token/tokens-controller.js';
import { legacyTokenGenerator } from '../serviceaccount-tokens.js';
import { NodeLifecycleController } from '../../controllers/nodelifecycle/node-lifecycle-controller.js';
import { PodGCController } from '../../controllers/podgc/podgc-controller.js';
import { ResourceQuotaController } from '../../controllers/resourcequota/controller.js';
import {
  ReplicaSetController,
  ReplicationControllerManager,
} from '../../controllers/replicaset/replicaset-controller.js';
import { realClock } from '../../util/clock.js';
import type { Clock } from '../../util/clock.js';
import type { Logger } from '../../util/log.js';

export interface ControllerManagerOptions {
  readonly credentials: ClientCredentials;
  /** How requests reach the server (default: HTTP/2 with `credentials`; serve: in-process). */
  readonly transport?: Transport;
  /** Names from `--controllers` (see selection.ts). */
  readonly controllers: ReadonlySet<string>;
  readonly log: Logger;
  /**
   * Campaign for the Lease before running (default). `identity` should be stable for one
   * installation, so a restart takes its own Lease back at once.
   */
  readonly leaderElection: { readonly identity: string } | false;
  /** The cluster CA the root-ca-cert-publisher puts in every namespace (default: credentials.ca). */
  readonly rootCaPem?: string;
  /**
   * `--service-account-private-key-file`: the key legacy Secret-based tokens are signed with
   * (without it, the serviceaccount-token controller does not run, as upstream).
   */
  readonly serviceAccountPrivateKeyPem?: string;
  /** The CA csrsigning issues certificates with (without it, csrsigning does not run). */
  readonly signing?: { readonly certPem: string; readonly keyPem: string };
  /** `--feature-gates` (v1.27 defaults otherwise). */
  readonly featureGates?: Readonly<Record<string, boolean>>;
  /** What the controllers, their informers and leader election time with (default: the real clock). */
  readonly clock?: Clock;
  /**
   * Node IPAM's range allocator (`--allocate-node-cidrs` with `--cluster-cidr`,
   * `--node-cidr-mask-size[-ipv4|-ipv6]`, `--service-cluster-ip-range`); without it the `nodeipam`
   * controller allocates nothing, as upstream with --allocate-node-cidrs=false.
   */
  readonly nodeIpam?: Omit<NodeIpamOptions, 'client' | 'informers' | 'onError' | 'clock'>;
  /**
   * An informer factory the caller owns (starts and stops) and shares with other components of
   * its process, so that each resource is listed and watched once; without it every leadership
   * term has a factory of its own. It should strip managedFields as the own one does.
   */
  readonly informers?: SharedInformerFactory;
}

export interface RunningControllerManager {
  /** Stops the controllers and gives the Lease up. */
  stop(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The controllers of one leadership term, all stopping when `signal` aborts. */
function runControllers(
  o: ControllerManagerOptions,
  client: RestClient,
  signal: AbortSignal,
): Promise<unknown>[] {
  const { log } = o;
  // Every controller and informer listens on this one signal.
  setMaxListeners(0, signal);
  const onError = (name: string) => (err: unknown) => log.v(2, `${name}: ${message(err)}`);
  const clock = o.clock ?? realClock;
  // With the WatchList gate on, informers sync through WatchList (AM-02), falling back to
  // LIST+WATCH where the server refuses it.
  const useWatchList = new FeatureGates(o.featureGates ?? {}).enabled('WatchList') ? 'auto' : 'never';
  const informers =
    o.informers ??
    new SharedInformerFactory({
      client,
      clock,
      useWatchList,
      transform: stripManagedFields,
      onError: (err, path) => log.v(2, `informer ${path}: ${message(err)}`),
    });
  const running: Promise<unknown>[] = [];
  const on = (name: string): boolean => o.controllers.has(name);
  if (on('namespace')) {
    running.push(
      new NamespaceController({ client, informers, clock, onError: onError('namespace-controller') }).run(
        signal,
      ),
    );
  }
  if (on('serviceaccount')) {
    running.push(
      defaultServiceAccountController({
        client,
        informers,
        clock,
        onError: onError('serviceaccount-controller'),
      }).run(signal),
    );
  }
  if (on('root-ca-cert-publisher')) {
    running.push(
      rootCaPublisher({
        client,
        informers,
        clock,
        caPem: o.rootCaPem ?? o.credentials.ca,
        onError: onError('root-ca-cert-publisher'),
      }).run(signal),
    );
  }
  if (on('serviceaccount-token') && o.serviceAccountPrivateKeyPem !== undefined) {
    running.push(
      new TokensController({
        client,
        informers,
        clock,
        generate: legacyTokenGenerator(o.serviceAccountPrivateKeyPem),
        rootCaPem: o.rootCaPem ?? o.credentials.ca,
        onError: onError('tokens-controller'),
      }).run(signal),
    );
  }
  // Upstream's workload controllers record core/v1 Events (tools/record) under these components.
  const events = (component: string): LegacyEventRecorder =>
    new LegacyEventRecorder({ client, component, clock, onError: onError(`${component} events`) });
  if (on('replicaset')) {
    running.push(
      new ReplicaSetController({
        client,
        informers,
        clock,
        events: events('replicaset-controller'),
        onError: onError('replicaset-controller'),
      }).run(signal),
    );
  }
  if (on('replicationcontroller')) {
    running.push(
      new ReplicationControllerManager({
        client,
        informers,
        clock,
        events: events('replication-controller'),
        onError: onError('replicationcontroller'),
      }).run(signal),
    );
  }
  if (on('deployment')) {
    running.push(
      new DeploymentController({
        client,
        informers,
        clock,
        events: events('deployment-controller'),
        onError: onError('deployment-controller'),
      }).run(signal),
    );
  }
  if (on('resourcequota')) {
    running.push(
      new ResourceQuotaController({
        client,
        informers,
        clock,
        onError: onError('resourcequota-controller'),
      }).run(signal),
    );
  }
  if (on('csrsigning')) {
    if (o.signing === undefined) {
      log.error(
        'csrsigning: no signing CA (--cluster-signing-cert-file/--cluster-signing-key-file); not running',
      );
    } else {
      running.push(
        new CsrSigningController({
          client,
          informers,
          clock,
          caCertPem: o.signing.certPem,
          caKeyPem: o.signing.keyPem,
          onError: onError('csrsigning'),
        }).run(signal),
      );
    }
  }
  if (on('csrapproving')) {
    running.push(
      new CsrApprovingController({ client, informers, clock, onError: onError('csrapproving') }).run(signal),
    );
  }
  if (on('disruption')) {
    running.push(
      new DisruptionController({ client, informers, clock, onError: onError('disruption-controller') }).run(
        signal,
      ),
    );
  }
  if (on('nodelifecycle')) {
    running.push(
      new NodeLifecycleController({
        client,
        informers,
        clock,
        onError: onError('node-lifecycle-controller'),
      }).run(signal),
    );
  }
  if (on('podgc')) {
    running.push(
      new PodGCController({ client, informers, clock, onError: onError('pod-garbage-collector') }).run(
        signal,
      ),
    );
  }
  const gates = new FeatureGates(o.featureGates ?? {});
  if (on('statefulset')) {
    running.push(
      new StatefulSetController({
        client,
        informers,
        clock,
        events: events('statefulset-controller'),
        features: {
          startOrdinal: gates.enabled('StatefulSetStartOrdinal'),
          autoDeletePVC: gates.enabled('StatefulSetAutoDeletePVC'),
          maxUnavailable: gates.enabled('MaxUnavailableStatefulSet'),
        },
        onError: onError('statefulset-controller'),
      }).run(signal),
    );
  }
  if (on('daemonset')) {
    running.push(
      new DaemonSetController({
        client,
        informers,
        clock,
        events: events('daemonset-controller'),
        onError: onError('daemonset-controller'),
      }).run(signal),
    );
  }
  if (on('job')) {
    running.push(
      new JobController({ client, informers, clock, onError: onError('job-controller') }).run(signal),
    );
  }
  if (on('cronjob')) {
    running.push(
      new CronJobController({ client, informers, clock, onError: onError('cronjob-controller') }).run(signal),
    );
  }
  if (on('ttl-after-finished')) {
    running.push(
      new TtlAfterFinishedController({
        client,
        informers,
        clock,
        onError: onError('ttl-after-finished-controller'),
      }).run(signal),
    );
  }
  if (on('clusterrole-aggregation')) {
    running.push(
      new ClusterRoleAggregationController({
        client,
        informers,
        onError: onError('clusterrole-aggregation-controller'),
      }).run(signal),
    );
  }
  if (on('pvc-protection')) {
    running.push(
      new PvcProtectionController({
        client,
        informers,
        clock,
        onError: onError('pvc-protection-controller'),
      }).run(signal),
    );
  }
  if (on('pv-protection')) {
    running.push(
      new PvProtectionController({
        client,
        informers,
        clock,
        onError: onError('pv-protection-controller'),
      }).run(signal),
    );
  }
  if (on('persistentvolume-binder')) {
    running.push(
      new PersistentVolumeBinder({
        client,
        informers,
        clock,
        events: events('persistentvolume-controller'),
        retroactiveDefaultStorageClass: gates.enabled('RetroactiveDefaultStorageClass'),
        onError: onError('persistentvolume-binder-controller'),
      }).run(signal),
    );
  }
  if (on('endpoint')) {
    running.push(
      new EndpointsController({
        client,
        informers,
        clock,
        events: events('endpoint-controller'),
        onError: onError('endpoints-controller'),
      }).run(signal),
    );
  }
  if (on('endpointslice')) {
    running.push(
      new EndpointSliceController({
        client,
        informers,
        clock,
        topologyAwareHints: gates.enabled('TopologyAwareHints'),
        onError: onError('endpointslice-controller'),
      }).run(signal),
    );
  }
  if (on('endpointslicemirroring')) {
    running.push(
      new EndpointSliceMirroringController({
        client,
        informers,
        clock,
        events: events('endpoint-slice-mirroring-controller'),
        onError: onError('endpointslicemirroring-controller'),
      }).run(signal),
    );
  }
  if (on('nodeipam')) {
    if (o.nodeIpam === undefined) {
      log.v(2, 'nodeipam: --allocate-node-cidrs is off; not allocating node CIDRs');
    } else {
      try {
        const ipam = new NodeIpamController({
          ...o.nodeIpam,
          client,
          informers,
          clock,
          onError: onError('node-ipam-controller'),
        });
        running.push(ipam.run(signal));
      } catch (err) {
        log.error(`nodeipam: ${message(err)}`);
      }
    }
  }
  if (on('garbagecollector')) {
    // Its events are core/v1 Events from `garbage-collector-controller`, as upstream's recorder.
    running.push(
      new GarbageCollector({ client, clock, useWatchList, onError: onError('garbage-collector') }).run(
        signal,
      ),
    );
  }
  if (o.informers === undefined) {
    informers.start(signal);
    running.push(Promise.allSettled(running.slice()).then(() => informers.stopped()));
  }
  return running;
}

export function runControllerManager(o: ControllerManagerOptions): RunningControllerManager {
  const client = new RestClient(o.transport !== undefined ? { transport: o.transport } : o.credentials);
  const abort = new AbortController();
  const running: Promise<unknown>[] = [];
  if (o.leaderElection === false) {
    running.push(...runControllers(o, client, abort.signal));
  } else {
    const terms: Promise<unknown>[] = [];
    const elector = new LeaderElector({
      client,
      namespace: 'kube-system',
      name: 'kube-controller-manager',
      identity: o.leaderElection.identity,
      clock: o.clock ?? realClock,
      onStartedLeading: (signal) => {
        o.log.v(
          1,
          `controller-manager: leading as ${o.leaderElection === false ? '' : o.leaderElection.identity}`,
        );
        terms.push(...runControllers(o, client, signal));
      },
      onStoppedLeading: () => o.log.v(1, 'controller-manager: lost the lease; controllers stopped'),
      onError: (err) => o.log.v(2, `leader election: ${message(err)}`),
    });
    running.push(elector.run(abort.signal).then(() => Promise.allSettled(terms)));
  }
  return {
    async stop() {
      abort.abort();
      await Promise.allSettled(running);
      client.close();
    },
  };
}
