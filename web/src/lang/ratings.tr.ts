// The ratings part's words in Turkish (keys: lang/ratings.en.ts).

import type { ratingsEn } from './ratings.en';

export const ratingsTr: Record<keyof typeof ratingsEn, string> = {
};
