// What the e2e scripts plant in the page (addInitScript) to watch it.

export {};

declare global {
  interface Window {
    /** The sounds the page played, by file name (game_features.mjs). */
    __sounds: string[];
    /** How many WebSockets the page opened (reconnect.mjs). */
    __sockets: number;
    /** What the attacker's page saw (attacks.mjs). */
    log: string[];
  }
}
