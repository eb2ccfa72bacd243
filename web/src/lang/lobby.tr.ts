// The lobby part's words in Turkish (keys: lang/lobby.en.ts).

import type { lobbyEn } from './lobby.en';

export const lobbyTr: Record<keyof typeof lobbyEn, string> = {
};
