// English words of the clock part of the site (spread into lang/en.ts, so every key is checked
// in ru and tr too).

export const clockEn = {
};
