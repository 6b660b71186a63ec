// Rules v1.2.2: v1.2.1 plus an explicit list of changes.
import { deriveVersion } from './derive.js';
import { V1_2_1 } from './v1_2_1.js';

export const V1_2_2 = deriveVersion(V1_2_1, {
  id: '1.2.2',
  title: 'Jovian Wars rules v1.2.2',
  changes: [
    {
      summary: 'Results are named by Magnitude and Value; each set of a roll is a separate Result.',
      source: 'v1.2.2 /dice',
      apply: (d) => ({ ...d, dice: { ...d.dice, successTerm: 'Magnitude' } }),
    },
    {
      summary: 'A reroll may replace any outcome when a rule allows it and the roller wants it (v1.2.1: only [N]).',
      source: 'v1.2.2 /dice/rolls (Unopposed Roll, step 6)',
      apply: (d) => ({ ...d, dice: { ...d.dice, rerollOnlyNoResult: false } }),
    },
    {
      summary: 'Opposed Roll is a generic mechanic: Secondary [D] diminishes one Result, [T] two, [Q+] negates all.',
      source: 'v1.2.2 /dice/rolls (Opposed Roll)',
      apply: (d) => ({ ...d, dice: { ...d.dice, opposedSource: 'v1.2.2 /dice/rolls Opposed Roll' } }),
    },
  ],
});
