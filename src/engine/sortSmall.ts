// Sorting the short lists of a battle (enemies by distance, targets by expected damage):
// Array.prototype.sort costs several hundred nanoseconds to set up and allocates its work
// arrays, far more than sorting a dozen items takes, and these lists are sorted a few hundred
// times a game.

/**
 * Sorts `a` in place and returns it, as a.sort(cmp) does: by insertion up to 16 items, else
 * with Array.prototype.sort. Both sorts are stable, so for a comparator that orders
 * consistently (the callers compare finite numbers, then indices) they give the same order.
 */
export function sortSmall<T>(a: T[], cmp: (x: T, y: T) => number): T[] {
  const n = a.length;
  if (n > 16) return a.sort(cmp);
  for (let i = 1; i < n; i++) {
    const x = a[i];
    let j = i - 1;
    while (j >= 0 && cmp(a[j], x) > 0) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = x;
  }
  return a;
}
