/**
 * Defaults of flowcontrol.apiserver.k8s.io v1beta2 and v1beta3 objects, in place, as upstream
 * v1.27's pkg/apis/flowcontrol/v1beta2|v1beta3/defaults.go: a FlowSchema's matchingPrecedence 0
 * becomes 1000; a limited priority level's concurrency shares 0 become 30 (the field is
 * `assuredConcurrencyShares` in v1beta2, `nominalConcurrencyShares` in v1beta3), its unset
 * lendablePercent 0, and a queuing configuration's zero queues / handSize / queueLengthLimit
 * 64 / 8 / 50. v1.27 has no "preserve zero shares" annotation: 0 always means "default".
 */
import type { JsonObject } from '../../util/json.js';
import { ensureObj, obj } from '../core/v1/access.js';
import {
  defaultConcurrencyShares,
  defaultHandSize,
  defaultLendablePercent,
  defaultMatchingPrecedence,
  defaultQueueLengthLimit,
  defaultQueues,
} from './constants.js';

/** Go's zero-value test for an int32 field that the decoder may leave absent. */
function isZero(v: unknown): boolean {
  return v === undefined || v === null || v === 0;
}

/** SetDefaults_FlowSchemaSpec (identical in both versions). */
export function defaultFlowSchema(fs: JsonObject): void {
  const spec = ensureObj(fs, 'spec');
  if (isZero(spec['matchingPrecedence'])) spec['matchingPrecedence'] = defaultMatchingPrecedence;
}

/** SetDefaults_QueuingConfiguration. */
function defaultQueuing(q: JsonObject): void {
  if (isZero(q['handSize'])) q['handSize'] = defaultHandSize;
  if (isZero(q['queues'])) q['queues'] = defaultQueues;
  if (isZero(q['queueLengthLimit'])) q['queueLengthLimit'] = defaultQueueLengthLimit;
}

function defaultPriorityLevel(plc: JsonObject, sharesField: string): void {
  const limited = obj(obj(plc, 'spec'), 'limited');
  if (limited === undefined) return;
  if (isZero(limited[sharesField])) limited[sharesField] = defaultConcurrencyShares;
  if (limited['lendablePercent'] === undefined || limited['lendablePercent'] === null) {
    limited['lendablePercent'] = defaultLendablePercent;
  }
  const queuing = obj(obj(limited, 'limitResponse'), 'queuing');
  if (queuing !== undefined) defaultQueuing(queuing);
}

/** SetObjectDefaults_PriorityLevelConfiguration of v1beta3. */
export function defaultPriorityLevelConfigurationV1beta3(plc: JsonObject): void {
  defaultPriorityLevel(plc, 'nominalConcurrencyShares');
}

/** SetObjectDefaults_PriorityLevelConfiguration of v1beta2. */
export function defaultPriorityLevelConfigurationV1beta2(plc: JsonObject): void {
  defaultPriorityLevel(plc, 'assuredConcurrencyShares');
}
