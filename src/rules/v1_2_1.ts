// Rules v1.2.1, written out in full.
import type { RulesVersion } from './types.js';

export const V1_2_1: RulesVersion = {
  id: '1.2.1',
  title: 'Jovian Wars rules v1.2.1',
  parent: null,
  changes: [],
  data: {
    dice: {
      // v1.2.1 /dice: "degree of success"
      successTerm: 'degree of success',
      // v1.2.1 /attack/weapons (Beam Projector) and Concentrated Fire: only [N] results may be rerolled.
      rerollOnlyNoResult: true,
      // v1.2.1 has no generic Opposed Roll; missile point defence uses the v1.2.2 mapping
      // (combat.md INTERPRETATION MissilePD121).
      opposedDiminishPerD: 1,
      opposedDiminishPerT: 2,
      opposedSource: 'v1.2.1: no generic Opposed Roll; missile point defence mapping per INTERPRETATION MissilePD121',
    },
  },
};
