// Why the server refused position text, in the page's language: the rules' fault
// (`error.position`, docs/api.md, Errors; Antarctos A18, Ice Age Chess C12) worded by the
// `pos.<code>` keys of lang/*.ts. The board editor and the analysis board use it.

import type { ApiError } from './api';
import { colorName, has, t, type Key } from './i18n';

/** The reason `err` gives for refusing a position, in words: `pos.<code>` with the fault's values
 * ({a}, {b}, {c} in order; {side} the side named first), or, for a code this page does not
 * know, the server's English message without its quote of the text. */
export function positionFaultWords(err: ApiError): string {
  const p = err.position;
  const key = p ? `pos.${p.code}` : '';
  if (p && has(key)) {
    const [a = '', b = '', c = ''] = p.args;
    const side = a === 'white' || a === 'black' ? colorName(a) : a;
    return t(key as Key, { a, b, c, side });
  }
  return err.message.replace(/^fen '[^']*': /, '');
}
