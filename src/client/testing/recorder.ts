/** Test helpers for informer handlers: a recording handler and a short poll. */
import assert from 'node:assert/strict';
import type { JsonObject } from '../../util/json.js';
import type { ResourceEventHandler } from '../shared-informer.js';

/** A handler recording what it was told, as short strings plus the deleted objects. */
export function recorder(): {
  log: string[];
  deleted: [JsonObject, boolean][];
  handler: ResourceEventHandler;
} {
  const log: string[] = [];
  const deleted: [JsonObject, boolean][] = [];
  const rv = (o: JsonObject): string =>
    String((o['metadata'] as { resourceVersion?: string } | undefined)?.resourceVersion);
  const name = (o: JsonObject): string => String((o['metadata'] as { name?: string } | undefined)?.name);
  return {
    log,
    deleted,
    handler: {
      onAdd: (o) => log.push(`add ${name(o)}@${rv(o)}`),
      onUpdate: (a, b) => log.push(`update ${name(b)}@${rv(a)}->${rv(b)}`),
      onDelete: (o, unknown) => {
        log.push(`delete ${name(o)}@${rv(o)}${unknown ? ' (final state unknown)' : ''}`);
        deleted.push([o, unknown]);
      },
    },
  };
}

/** Polls `cond` every 5 ms for up to 2 s. */
export async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail(`timed out waiting for ${what}`);
}
