/**
 * EventRateLimit's configuration as the plugin factory takes it: decoded, then validated; a bad
 * one (including none at all, which upstream defaults to an empty, invalid one) throws an Error
 * whose message is upstream's (the field errors aggregated as `[a, b]` when several).
 */
import { aggregateMessage } from '../../machinery/labels/requirement.js';
import type { JsonValue } from '../../util/json.js';
import type { Configuration } from './configuration.js';
import { decodeConfiguration } from './decode-configuration.js';
import { validateConfiguration } from './validate-configuration.js';

export function loadConfiguration(value: JsonValue | undefined): Configuration {
  const config = decodeConfiguration(value);
  const errs = validateConfiguration(config);
  if (errs.length > 0) throw new Error(aggregateMessage(errs.map((e) => e.toString())));
  return config;
}
