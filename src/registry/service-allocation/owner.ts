/** The Service an allocation record belongs to, as stored in range keys (JSON). */

export interface AllocationOwner {
  readonly namespace: string;
  readonly name: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeOwner(owner: AllocationOwner): Uint8Array {
  return encoder.encode(JSON.stringify({ namespace: owner.namespace, name: owner.name }));
}

export function decodeOwner(value: Uint8Array): AllocationOwner | undefined {
  try {
    const v: unknown = JSON.parse(decoder.decode(value));
    if (typeof v !== 'object' || v === null) return undefined;
    const { namespace, name } = v as Record<string, unknown>;
    return typeof namespace === 'string' && typeof name === 'string' ? { namespace, name } : undefined;
  } catch {
    return undefined;
  }
}
