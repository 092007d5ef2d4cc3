/** The minimum-cost assignment against brute force on small random matrices. */
import t from 'tap';
import { minCostAssignment } from '../../../core/src/matching/index.js';

function brute(cost: number[][]): number {
  const n = cost.length;
  const m = cost[0]!.length;
  let best = Infinity;
  const used = new Array<boolean>(m).fill(false);
  const go = (i: number, acc: number): void => {
    if (acc >= best) return;
    if (i === n) {
      best = acc;
      return;
    }
    for (let j = 0; j < m; j++) {
      if (used[j]) continue;
      used[j] = true;
      go(i + 1, acc + cost[i]![j]!);
      used[j] = false;
    }
  };
  go(0, 0);
  return best;
}

t.test('minCostAssignment finds the optimum, distinct columns, deterministically', async (t) => {
  let seed = 42;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const bad: string[] = [];
  for (let k = 0; k < 300; k++) {
    const n = 1 + Math.floor(rnd() * 5);
    const m = n + Math.floor(rnd() * 4);
    const cost = Array.from({ length: n }, () => Array.from({ length: m }, () => (rnd() < 0.2 ? 1e6 : Math.round(rnd() * 20) / 4)));
    const a = minCostAssignment(cost);
    if (new Set(a).size !== n || a.some((j) => j < 0 || j >= m)) bad.push(`case ${k}: not a matching ${a}`);
    const total = a.reduce((s, j, i) => s + cost[i]![j]!, 0);
    if (Math.abs(total - brute(cost)) > 1e-9) bad.push(`case ${k}: ${total} vs optimum ${brute(cost)}`);
    if (minCostAssignment(cost).join() !== a.join()) bad.push(`case ${k}: not deterministic`);
  }
  t.same(bad, []);
  t.same(minCostAssignment([]), []);
  t.throws(() => minCostAssignment([[1], [2]]), RangeError);
});
