/**
 * Shuffle sharding (upstream k8s.io/apiserver/pkg/util/shufflesharding): a hand of `handSize`
 * cards dealt from a deck of `deckSize` needs ceil(log2(deckSize) × handSize) hash bits, and a
 * hash has 60 usable ones; the Dealer deals a hand from a 64-bit hash value.
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

/**
 * Deals hands of distinct cards from a 64-bit hash, as upstream's Dealer: the hash is read as
 * mixed-radix digits (deckSize, deckSize-1, ...), and each digit picks among the cards not dealt
 * yet.
 */
export class Dealer {
  readonly deckSize: number;
  readonly handSize: number;

  /** Throws upstream's errors for a deck and hand that cannot be dealt. */
  constructor(deckSize: number, handSize: number) {
    if (deckSize <= 0 || handSize <= 0) {
      throw new Error(`deckSize ${deckSize} or handSize ${handSize} is not positive`);
    }
    if (handSize > deckSize) throw new Error(`handSize ${handSize} is greater than deckSize ${deckSize}`);
    if (deckSize > 1 << 26) throw new Error(`deckSize ${deckSize} is impractically large`);
    if (requiredEntropyBits(deckSize, handSize) > maxHashBits) {
      throw new Error(
        `required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${maxHashBits}`,
      );
    }
    this.deckSize = deckSize;
    this.handSize = handSize;
  }

  /** The hand for `hashValue` (an unsigned 64-bit integer), cards in dealing order. */
  dealIntoHand(hashValue: bigint): number[] {
    const remainders: number[] = [];
    let h = BigInt.asUintN(64, hashValue);
    for (let i = 0; i < this.handSize; i++) {
      const radix = BigInt(this.deckSize - i);
      remainders.push(Number(h % radix));
      h /= radix;
    }
    const hand: number[] = [];
    for (let i = 0; i < this.handSize; i++) {
      let card = remainders[i]!;
      for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
      hand.push(card);
    }
    return hand;
  }
}
