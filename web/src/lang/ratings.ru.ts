// The ratings part's words in Russian (keys: lang/ratings.en.ts).

import type { ratingsEn } from './ratings.en';

export const ratingsRu: Record<keyof typeof ratingsEn, string> = {
};
