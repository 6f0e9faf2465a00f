/**
 * The entropy check of shuffle sharding (upstream k8s.io/apiserver/pkg/util/shufflesharding): a
 * hand of `handSize` cards dealt from a deck of `deckSize` needs ceil(log2(deckSize) × handSize)
 * hash bits, and a hash has 60 usable ones.
 */

export const maxHashBits = 60;

/** Go's math.Log2: exact for powers of two, otherwise log(frac)/ln2 + exp from Frexp. */
function goLog2(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return Math.log2(x);
  let exp = Math.floor(Math.log2(x)) + 1;
  let frac = x / 2 ** exp;
  // Correct an off-by-one of the estimate so that frac is in [0.5, 1).
  if (frac >= 1) {
    frac /= 2;
    exp += 1;
  } else if (frac < 0.5) {
    frac *= 2;
    exp -= 1;
  }
  if (frac === 0.5) return exp - 1;
  return Math.log(frac) * (1 / Math.LN2) + exp;
}

export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(goLog2(deckSize) * handSize);
}
