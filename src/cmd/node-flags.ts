/**
 * `--node-capacity` and `--node-labels` (`nanokube serve` and `nanokube nodes`): the template every
 * simulated node is registered from. Capacity values are Kubernetes quantities; unnamed resources
 * keep their defaults (cpu 32, memory 256Gi, pods 110, ephemeral-storage 1Ti).
 */
import { parseQuantity } from '../machinery/quantity/quantity.js';
import type { NodeTemplate } from '../nodes/index.js';
import { FlagError } from './serve/flags.js';

function pairs(flag: string, value: string): [string, string][] {
  return value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      if (eq <= 0)
        throw new FlagError(`invalid argument "${value}" for "--${flag}" flag: "${p}" is not key=value`);
      return [p.slice(0, eq), p.slice(eq + 1)];
    });
}

export function parseNodeCapacity(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of pairs('node-capacity', value)) {
    try {
      parseQuantity(v);
    } catch {
      throw new FlagError(
        `invalid argument "${value}" for "--node-capacity" flag: ${k}: "${v}" is not a quantity`,
      );
    }
    out[k] = v;
  }
  return out;
}

export function parseNodeLabels(value: string): Record<string, string> {
  return Object.fromEntries(pairs('node-labels', value));
}

/** The template from the two flags' values (undefined when neither was given). */
export function nodeTemplateOf(
  capacity: string | undefined,
  labels: string | undefined,
): NodeTemplate | undefined {
  if (capacity === undefined && labels === undefined) return undefined;
  return {
    ...(capacity !== undefined ? { capacity: parseNodeCapacity(capacity) } : {}),
    ...(labels !== undefined ? { labels: parseNodeLabels(labels) } : {}),
  };
}
