/** Our own words for workload specs and their update strategies (apps/v1, batch/v1). Not upstream's. */
import type { DescriptionTable } from './table.js';

const apps = 'io.k8s.api.apps.v1.';
const batch = 'io.k8s.api.batch.v1.';

const replicas = 'How many pods should run. Defaults to 1.';
const selector =
  "Selects the pods this object manages; it must match the template's labels and cannot change.";
const minReadySeconds =
  'Seconds a new pod must stay ready, without a container crashing, before it counts as available. Defaults to 0.';
const revisionHistoryLimit = 'How many old revisions to keep for rolling back. Defaults to 10.';
const maxUnavailableText =
  'How many pods may be unavailable during the update, as a number or a percentage of the desired pods (rounded down).';

export const workloadTexts: DescriptionTable = {
  [`${apps}DeploymentSpec`]: {
    text: 'The desired state of a deployment.',
    fields: {
      replicas,
      selector,
      template: 'The pods to run. Its restartPolicy must be "Always".',
      strategy: 'How running pods are replaced when the template changes.',
      minReadySeconds,
      revisionHistoryLimit: 'How many old replica sets to keep for rolling back. Defaults to 10.',
      paused: 'When true, template changes are not rolled out until it is set back to false.',
      progressDeadlineSeconds:
        'Seconds a rollout may go without progress before the deployment reports it as failed (it is not rolled back). Defaults to 600.',
    },
  },
  [`${apps}DeploymentStrategy`]: {
    text: 'How a deployment replaces its pods.',
    fields: {
      type: '"RollingUpdate" (default: old pods are replaced a few at a time) or "Recreate" (all old pods go before new ones start).',
      rollingUpdate: 'The pace of a RollingUpdate; only with that type.',
    },
  },
  [`${apps}RollingUpdateDeployment`]: {
    text: "The pace of a deployment's rolling update.",
    fields: {
      maxUnavailable: `${maxUnavailableText} Defaults to 25%; cannot be 0 when maxSurge is 0.`,
      maxSurge:
        'How many pods may exist above the desired count during the update, as a number or a percentage (rounded up). Defaults to 25%.',
    },
  },
  [`${apps}ReplicaSetSpec`]: {
    text: 'The desired state of a replica set.',
    fields: {
      replicas,
      selector,
      template: 'The pods created when too few match the selector.',
      minReadySeconds,
    },
  },
  [`${apps}StatefulSetSpec`]: {
    text: 'The desired state of a stateful set.',
    fields: {
      replicas,
      selector,
      template:
        'The pods to run. Each gets a stable name "<set>-<ordinal>" and its own claims from volumeClaimTemplates.',
      serviceName:
        'The headless service that gives the pods their stable DNS names; it must exist before the set.',
      volumeClaimTemplates:
        'Claims created once per pod ("<template>-<set>-<ordinal>") and mounted by it; they outlive the pod.',
      podManagementPolicy:
        'How pods are created and removed: "OrderedReady" (default: one at a time, in order) or "Parallel" (all at once).',
      updateStrategy: 'How pods are replaced when the template changes.',
      revisionHistoryLimit,
      minReadySeconds,
      persistentVolumeClaimRetentionPolicy:
        'Whether the claims made from volumeClaimTemplates are deleted when the set is deleted or scaled down.',
      ordinals: 'Where pod ordinals start (beta).',
    },
  },
  [`${apps}StatefulSetOrdinals`]: {
    text: "The numbering of a stateful set's pods.",
    fields: {
      start: 'The first ordinal: replicas N give pods numbered start to start+N-1. Defaults to 0.',
    },
  },
  [`${apps}StatefulSetUpdateStrategy`]: {
    text: 'How a stateful set replaces its pods.',
    fields: {
      type: '"RollingUpdate" (default: pods are replaced from the highest ordinal down) or "OnDelete" (a pod is replaced only when someone deletes it).',
      rollingUpdate: 'Settings of a RollingUpdate; only with that type.',
    },
  },
  [`${apps}RollingUpdateStatefulSetStrategy`]: {
    text: "Settings of a stateful set's rolling update.",
    fields: {
      partition:
        'Only pods with an ordinal at or above this number are updated; the others keep the old template. Defaults to 0.',
      maxUnavailable: `${maxUnavailableText} Defaults to 1 (alpha; needs the MaxUnavailableStatefulSet gate).`,
    },
  },
  [`${apps}StatefulSetPersistentVolumeClaimRetentionPolicy`]: {
    text: "What happens to the claims of a stateful set's pods.",
    fields: {
      whenDeleted: 'When the set is deleted: "Retain" (default) or "Delete".',
      whenScaled:
        'When the set is scaled down, for the removed pods\' claims: "Retain" (default) or "Delete".',
    },
  },
  [`${apps}DaemonSetSpec`]: {
    text: 'The desired state of a daemon set.',
    fields: {
      selector,
      template:
        'The pod to run on every eligible node (its node selector and affinity limit the nodes). Its restartPolicy must be "Always".',
      updateStrategy: 'How pods are replaced when the template changes.',
      minReadySeconds,
      revisionHistoryLimit,
    },
  },
  [`${apps}DaemonSetUpdateStrategy`]: {
    text: 'How a daemon set replaces its pods.',
    fields: {
      type: '"RollingUpdate" (default: node by node) or "OnDelete" (a pod is replaced only when someone deletes it).',
      rollingUpdate: 'The pace of a RollingUpdate; only with that type.',
    },
  },
  [`${apps}RollingUpdateDaemonSet`]: {
    text: "The pace of a daemon set's rolling update.",
    fields: {
      maxUnavailable: `How many nodes may lack an available pod during the update, as a number or a percentage of eligible nodes. Defaults to 1; cannot be 0 when maxSurge is 0.`,
      maxSurge:
        'How many nodes may run an old and a new pod at once during the update, as a number or a percentage. Defaults to 0.',
    },
  },

  [`${batch}JobSpec`]: {
    text: 'The desired state of a job.',
    fields: {
      template: 'The pods to run. Their restartPolicy must be "Never" or "OnFailure".',
      completions:
        'How many pods must succeed for the job to be complete. Unset means the first success completes it (with any parallelism).',
      parallelism: 'How many pods may run at once. Defaults to 1.',
      completionMode:
        '"NonIndexed" (default: any successes count) or "Indexed" (each pod gets an index from 0 to completions-1, and each index must succeed once).',
      backoffLimit: 'How many retries before the job is marked failed. Defaults to 6.',
      activeDeadlineSeconds:
        'Seconds the job may run, counted from its start; past it, its pods are stopped and it fails.',
      ttlSecondsAfterFinished:
        'Seconds after the job finishes before it is deleted automatically, pods included. Unset keeps it.',
      suspend:
        'When true, no pods are created and running ones are stopped; setting it back to false resumes the job.',
      selector: "Selects the job's pods; generated by the system unless manualSelector is true.",
      manualSelector: 'Whether you choose the selector yourself instead of the generated one. Rarely needed.',
      podFailurePolicy:
        'Rules deciding, from exit codes or pod conditions, whether a failed pod counts toward backoffLimit, is ignored, or fails the job.',
    },
  },
  [`${batch}PodFailurePolicy`]: {
    text: 'How a job reacts to failed pods.',
    fields: { rules: 'Rules checked in order; the first that matches a failed pod applies.' },
  },
  [`${batch}PodFailurePolicyRule`]: {
    text: 'One rule of a pod failure policy: a condition and an action.',
    fields: {
      action:
        '"FailJob" (fail the whole job), "Ignore" (do not count the failure) or "Count" (count it as usual).',
      onExitCodes: "Matches by the exit codes of the pod's containers.",
      onPodConditions: "Matches by the pod's conditions (e.g. DisruptionTarget).",
    },
  },
  [`${batch}JobTemplateSpec`]: {
    text: 'The job a cron job creates each time it runs.',
    fields: {
      metadata: 'Labels and annotations given to every job created.',
      spec: 'The spec of every job created.',
    },
  },
  [`${batch}CronJobSpec`]: {
    text: 'The desired state of a cron job.',
    fields: {
      schedule: 'When to run, in cron syntax, e.g. "*/5 * * * *" or "@hourly".',
      timeZone:
        'The time zone the schedule is read in, an IANA name such as "Europe/Paris"; the controller manager\'s zone when unset.',
      jobTemplate: 'The job created at each scheduled time.',
      concurrencyPolicy:
        'What to do when a run is due while the previous job still runs: "Allow" (default), "Forbid" (skip this run) or "Replace" (stop the old job).',
      startingDeadlineSeconds:
        'Seconds after a scheduled time during which a missed run may still start; later it counts as missed.',
      suspend: 'When true, no new runs start; running jobs are not affected. Defaults to false.',
      successfulJobsHistoryLimit: 'How many finished successful jobs to keep. Defaults to 3.',
      failedJobsHistoryLimit: 'How many failed jobs to keep. Defaults to 1.',
    },
  },
};
