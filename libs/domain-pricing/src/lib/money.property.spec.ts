import fc from 'fast-check';
import { allocateCents } from './money';

const totals = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const weightLists = fc
  .array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 20 })
  .filter((ws) => ws.some((w) => w > 0));

describe('allocateCents properties', () => {
  it('parts always sum exactly to the total', () => {
    fc.assert(
      fc.property(totals, weightLists, (total, weights) => {
        const parts = allocateCents(total, weights);
        const sum = parts.reduce((acc, p) => acc + BigInt(p), 0n);
        return (
          parts.length === weights.length &&
          sum === BigInt(total) &&
          parts.every((p) => Number.isSafeInteger(p) && p >= 0)
        );
      }),
    );
  });

  it('every part is within 1 cent of its exact proportional share', () => {
    fc.assert(
      fc.property(totals, weightLists, (total, weights) => {
        const parts = allocateCents(total, weights);
        const weightSum = weights.reduce((acc, w) => acc + BigInt(w), 0n);
        // |part - total*w/W| < 1  ⇔  |part*W - total*w| < W, in exact integers
        return parts.every((part, i) => {
          const diff = BigInt(part) * weightSum - BigInt(total) * BigInt(weights[i]!);
          return (diff < 0n ? -diff : diff) < weightSum;
        });
      }),
    );
  });

  it('is deterministic and gives zero weights nothing', () => {
    fc.assert(
      fc.property(totals, weightLists, (total, weights) => {
        const first = allocateCents(total, weights);
        const second = allocateCents(total, [...weights]);
        return first.every((p, i) => p === second[i] && (weights[i] !== 0 || p === 0));
      }),
    );
  });

  it('equal weights give parts that differ by at most 1 cent', () => {
    fc.assert(
      fc.property(totals, fc.integer({ min: 1, max: 50 }), (total, n) => {
        const parts = allocateCents(total, new Array<number>(n).fill(1));
        return Math.max(...parts) - Math.min(...parts) <= 1;
      }),
    );
  });
});
