/** System-set metadata: uid, creationTimestamp, generated names (upstream rest.FillObjectMetaSystemFields). */
import { randomUUID, randomInt } from 'node:crypto';
import type { KubeObject } from '../../machinery/object.js';

/** RFC 3339 in whole seconds, as metav1.Time serializes. */
export function formatTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// The alphabet upstream's names.SimpleNameGenerator draws from (no vowels, no confusable digits).
const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxNameLength = 63;
const randomLength = 5;
const maxGeneratedNameLength = maxNameLength - randomLength;

export function generateName(base: string): string {
  const prefix = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
  let suffix = '';
  for (let i = 0; i < randomLength; i++) suffix += alphabet.charAt(randomInt(alphabet.length));
  return prefix + suffix;
}

export function fillSystemFields(obj: KubeObject, now: Date): void {
  obj.metadata.creationTimestamp = formatTime(now);
  obj.metadata.uid = randomUUID();
}
