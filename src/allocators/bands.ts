/**
 * KEP-3070 reserved (static) bands: the low part of a range that dynamic allocation only takes
 * when the rest is full, so users can pick addresses and ports there without racing it.
 * Both are min(max(16, size/step), cap) and 0 for ranges of at most 16.
 */

/**
 * ClusterIP band (upstream ipallocator/bitmap.go calculateRangeOffset): min(max(16, size/16), 256),
 * `size` being the CIDR's whole address count (network and broadcast included).
 */
export function clusterIPStaticBand(size: bigint): number {
  return band(size, 16n, 256n);
}

/**
 * NodePort band (upstream portallocator/allocator.go calculateRangeOffset, gate
 * ServiceNodePortStaticSubrange): min(max(16, size/32), 128).
 */
export function nodePortStaticBand(size: number): number {
  return band(BigInt(size), 32n, 128n);
}

function band(size: bigint, step: bigint, cap: bigint): number {
  const min = 16n;
  if (size <= min) return 0;
  const offset = size / step;
  if (offset < min) return Number(min);
  if (offset > cap) return Number(cap);
  return Number(offset);
}
