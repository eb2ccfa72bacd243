// The numbered decisions of docs/rules/*.md, read by build.mjs at build time.
declare module 'virtual:decisions' {
  /** One decision: its number (`A10`, `C6a`) and its text (Markdown inline: `code`, *emphasis*). */
  export interface Decision {
    id: string;
    text: string;
  }
  const decisions: { antarctos: Decision[]; iceage: Decision[] };
  export default decisions;
}
