// The clock part's words in Russian (keys: lang/clock.en.ts).

import type { clockEn } from './clock.en';

export const clockRu: Record<keyof typeof clockEn, string> = {
};
