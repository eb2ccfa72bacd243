// The numbered decisions of docs/rules/<game>.md and of their translations <game>.ru.md and
// <game>.tr.md, read by build.mjs (decisions.mjs) at build time.
declare module 'virtual:decisions' {
  /** One decision: its number (`A10`, `C6a`) and its text (Markdown inline: `code`, *emphasis*). */
  export interface Decision {
    id: string;
    text: string;
  }
  /** A game's decisions in English (the law) and in translation: the same ids in the same order
   * in every language (the build fails otherwise). */
  export type Rulings = Record<'en' | 'ru' | 'tr', Decision[]>;
  const decisions: { antarctos: Rulings; iceage: Rulings };
  export default decisions;
}
