/**
 * Go's sort.SliceStable (insertion sort on blocks of 20, then SymMerge), reproduced step for step
 * because strategic merge patch sorts with a comparator that is not a strict weak order: only the
 * exact algorithm yields upstream's element order in every case.
 */

type Less<T> = (a: T, b: T) => boolean;

function swap(d: unknown[], i: number, j: number): void {
  const t = d[i]!;
  d[i] = d[j]!;
  d[j] = t;
}

function insertionSort<T>(d: T[], a: number, b: number, less: Less<T>): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(d[j]!, d[j - 1]!); j--) swap(d, j, j - 1);
  }
}

function rotate(d: unknown[], a: number, m: number, b: number): void {
  // Rotating needs no comparisons, so any rotation gives the same result.
  const moved = d.slice(a, m);
  const rest = d.slice(m, b);
  let k = a;
  for (const x of rest) d[k++] = x;
  for (const x of moved) d[k++] = x;
}

function symMerge<T>(d: T[], a: number, m: number, b: number, less: Less<T>): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(d[h]!, d[a]!)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) swap(d, k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(d[m]!, d[h]!)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) swap(d, k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(d[p - c]!, d[c]!)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(d, start, m, end);
  if (a < start && start < mid) symMerge(d, a, start, mid, less);
  if (mid < end && end < b) symMerge(d, mid, end, b, less);
}

/** Sorts `d` in place exactly as Go's sort.SliceStable would with the same `less`. */
export function goSliceStable<T>(d: T[], less: Less<T>): void {
  const n = d.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(d, a, b, less);
    a = b;
    b += blockSize;
  }
  insertionSort(d, a, n, less);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(d, a, a + blockSize, b, less);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(d, a, m, n, less);
    blockSize *= 2;
  }
}
