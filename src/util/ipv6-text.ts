/**
 * The text of eight IPv6 groups as RFC 5952 (and Go's net.IP.String) writes it: lower-case hex
 * without leading zeros, the longest run of two or more zero groups (the first of equals)
 * written as `::`.
 */
export function formatIPv6Groups(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < groups.length;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (gs: readonly number[]): string => gs.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLen))}`;
}
