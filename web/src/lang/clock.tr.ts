// The clock part's words in Turkish (keys: lang/clock.en.ts).

import type { clockEn } from './clock.en';

export const clockTr: Record<keyof typeof clockEn, string> = {
};
