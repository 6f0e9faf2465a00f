/** What the plugin's evaluations share: configuration, checks and reads of namespaces and pods. */
import type { KubeObject } from '../../machinery/object.js';
import type { Evaluator } from './evaluator.js';
import type { Exemptions } from './exemptions.js';
import type { Policy } from './policy.js';

export interface PodSecurityContext {
  readonly defaultPolicy: Policy;
  readonly exemptions: Exemptions;
  readonly evaluator: Evaluator;
  /** The namespace, undefined when it does not exist; throws when it cannot be read. */
  readonly getNamespace: (name: string) => Promise<KubeObject | undefined>;
  readonly listPods: (namespace: string) => Promise<readonly KubeObject[]>;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** How many existing pods a namespace's new enforce level is checked against (upstream 3000). */
  readonly namespaceMaxPodsToCheck: number;
  /** How long that check may take (upstream 1 s). */
  readonly namespacePodCheckTimeoutMs: number;
}
