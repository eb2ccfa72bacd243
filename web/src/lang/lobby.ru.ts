// The lobby part's words in Russian (keys: lang/lobby.en.ts).

import type { lobbyEn } from './lobby.en';

export const lobbyRu: Record<keyof typeof lobbyEn, string> = {
};
