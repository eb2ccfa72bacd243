// English words of the lobby part of the site (spread into lang/en.ts, so every key is checked
// in ru and tr too).

export const lobbyEn = {
};
