/**
 * TaintNodesByCondition (mutating, on by default in kube-apiserver v1.27; upstream
 * plugin/pkg/admission/nodetaint): every Node created gets the `node.kubernetes.io/not-ready`
 * NoSchedule taint (unless a taint of that key and effect is already there), so nothing is
 * scheduled onto it before the node lifecycle controller sees it Ready and lifts the taint.
 * Creates of the node itself only; subresources are left alone. (The TaintNodesByCondition
 * feature gate it once checked is gone since v1.18.)
 */
import { isJsonObject } from '../util/json.js';
import { ensureObj } from '../apis/core/v1/access.js';
import { isResource } from './attributes.js';
import type { AdmissionDependencies } from './dependencies.js';
import { createOnly } from './plugin.js';
import type { AdmissionPlugin } from './plugin.js';

const notReady = 'node.kubernetes.io/not-ready';

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- every factory takes the dependencies; this one needs none
export function taintNodesByConditionPlugin(_deps: AdmissionDependencies): AdmissionPlugin {
  return {
    name: 'TaintNodesByCondition',
    operations: createOnly,
    admit(a) {
      if (!isResource(a, '', 'nodes') || a.subresource !== '') return;
      const spec = ensureObj(a.object, 'spec');
      const taints = Array.isArray(spec['taints']) ? spec['taints'] : [];
      // Taint.MatchTaint: same key and effect.
      const present = taints.some(
        (t) => isJsonObject(t) && t['key'] === notReady && t['effect'] === 'NoSchedule',
      );
      if (!present) spec['taints'] = [...taints, { key: notReady, effect: 'NoSchedule' }];
    },
  };
}
