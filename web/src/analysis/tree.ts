// The analysis board's move tree: a position per node, the move that led there, and its
// continuations (the first is the main line, the others variations, as on lichess). Every
// position and move comes from the server (`POST /api/positions`, a stored game's moves): the
// tree only records which was played after which. It also writes itself as PGN or PDN text
// with its variations and comments (move numbers and brackets are notation, not rules).

import type { Color, IceAgeFacts, Variant } from '../api';
import { variantOf } from '../variants';

/** The move that led to a node, as the server named it. */
export interface TreeMove {
  id: string;
  text: string;
  path: string[];
  /** What happened besides the move (the Ice Age it brought). */
  event?: string | null;
  /** Ice Age Chess: what that Ice Age did, as the server worked it out. */
  ice_age?: IceAgeFacts | null;
  /** Move number and side of the mover (a record's `12.` or `12...`). */
  number: number;
  color: Color;
}

export interface TreeNode {
  /** Unique within the tree (for the page's buttons). */
  key: number;
  fen: string;
  move: TreeMove | null;
  parent: TreeNode | null;
  children: TreeNode[];
  /** Plies from the root. */
  ply: number;
  /** A player's note on the move (written as `{...}` in the record). */
  comment: string;
  /** The move's NAGs from an imported record (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6, `$n`). */
  nags?: number[];
}

/** The glyph of NAG `n` (1-6), or `$n`. */
export function nagText(n: number): string {
  return ['', '!', '?', '!!', '??', '!?', '?!'][n] ?? `$${n}`;
}

export class MoveTree {
  readonly root: TreeNode;
  private next = 1;

  constructor(readonly variant: Variant, startFen: string) {
    this.root = { key: 0, fen: startFen, move: null, parent: null, children: [], ply: 0, comment: '' };
  }

  /** The child of `parent` reached by `move` (an existing one when it was played before). A new
   * child becomes a variation, or the main line when `parent` had none. */
  add(parent: TreeNode, move: TreeMove, fen: string): TreeNode {
    const known = parent.children.find(c => c.move?.id === move.id);
    if (known) return known;
    const node: TreeNode = { key: this.next++, fen, move, parent, children: [], ply: parent.ply + 1, comment: '' };
    parent.children.push(node);
    return node;
  }

  /** The node with `key`, or null. */
  find(key: number, from: TreeNode = this.root): TreeNode | null {
    if (from.key === key) return from;
    for (const c of from.children) {
      const f = this.find(key, c);
      if (f) return f;
    }
    return null;
  }

  /** The nodes from the root to `node`, the root first. */
  pathTo(node: TreeNode): TreeNode[] {
    const out: TreeNode[] = [];
    for (let n: TreeNode | null = node; n; n = n.parent) out.unshift(n);
    return out;
  }

  /** The end of `node`'s main line (following first children). */
  lineEnd(node: TreeNode): TreeNode {
    let n = node;
    while (n.children.length) n = n.children[0];
    return n;
  }

  /** Makes the variation that holds `node` the main line at every branch above it. */
  promote(node: TreeNode): void {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      const i = siblings.indexOf(n);
      if (i > 0) {
        siblings.splice(i, 1);
        siblings.unshift(n);
      }
    }
  }

  /** Removes `node` and everything after it; returns its parent. */
  remove(node: TreeNode): TreeNode | null {
    const p = node.parent;
    if (!p) return null;
    p.children = p.children.filter(c => c !== node);
    return p;
  }

  /** The tree as a record's movetext: `1. c3-d4 (1. e3-f4 f6-g5) 1... b6-a5 {note} 2. ...`. */
  movetext(): string {
    const out: string[] = [];
    const moveText = (n: TreeNode, forceNumber: boolean) => {
      const m = n.move!;
      if (m.color === 'white') out.push(`${m.number}. ${m.text}`);
      else out.push(forceNumber ? `${m.number}... ${m.text}` : m.text);
      for (const nag of n.nags ?? []) {
        if (nag >= 1 && nag <= 6) out[out.length - 1] += nagText(nag);
        else out.push(`$${nag}`);
      }
      if (n.comment.trim()) out.push(`{${n.comment.replace(/[{}]/g, '').trim()}}`);
    };
    // Writes the line that starts with `first` (a child of some node), with the variations
    // of each of its moves after it.
    const line = (first: TreeNode, forceNumber: boolean) => {
      let n: TreeNode | undefined = first;
      let force = forceNumber;
      while (n) {
        moveText(n, force);
        force = false;
        const p: TreeNode = n.parent!;
        if (p.children[0] === n && p.children.length > 1) {
          for (const v of p.children.slice(1)) {
            out.push('(');
            line(v, true);
            out.push(')');
          }
          force = true;
        }
        if (n.comment.trim()) force = true;
        n = n.children[0];
      }
    };
    if (this.root.children.length) line(this.root.children[0], true);
    return out.join(' ').replace(/\( /g, '(').replace(/ \)/g, ')');
  }

  /** The whole record: tags (the start position when it is not the game's own, the variant
   * tags each reader needs) and the movetext. */
  record(tags: Record<string, string>, standardStart: boolean): string {
    const all: [string, string][] = [
      ['Event', tags.Event ?? 'icebound analysis'],
      ['Site', tags.Site ?? 'icebound'],
      ['Date', tags.Date ?? '????.??.??'],
      ['White', tags.White ?? '?'],
      ['Black', tags.Black ?? '?'],
      ['Result', tags.Result ?? '*'],
    ];
    all.push(...variantOf(this.variant).recordTags(this.root.fen, standardStart));
    const head = all.map(([k, v]) => `[${k} "${v.replace(/["\\]/g, '')}"]`).join('\n');
    const body = [this.movetext(), tags.Result ?? '*'].filter(Boolean).join(' ');
    return `${head}\n\n${wrap(body)}\n`;
  }
}

/** Lines of at most 79 characters, broken at spaces (PGN's export format). */
function wrap(text: string): string {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(' ')) {
    if (cur && cur.length + 1 + word.length > 79) {
      lines.push(cur);
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  if (cur) lines.push(cur);
  return lines.join('\n');
}
