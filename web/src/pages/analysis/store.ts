// What the analysis board keeps for the tab (session storage): the tree and the node shown, so
// that a reload or a language switch keeps the analysis, and the answer of the last import.
// And the tree of an imported record.

import type { ImportView, RecordGame, RecordNode, Variant } from '../../api';
import { MoveTree, type TreeMove, type TreeNode } from '../../analysis/tree';

const IMPORT_KEY = 'icebound.import.last';

/** Keeps the answer of the last import for this tab. */
export function saveImport(read: ImportView): void {
  try {
    sessionStorage.setItem(IMPORT_KEY, JSON.stringify(read));
  } catch {
    // Storage full or off: the list lives as long as the page.
  }
}

export function loadImport(): ImportView | null {
  try {
    return JSON.parse(sessionStorage.getItem(IMPORT_KEY) ?? 'null') as ImportView | null;
  } catch {
    return null;
  }
}

/** A game of a record file as a tree: its main line, comments and variations. */
export function treeOfRecord(variant: Variant, game: RecordGame): MoveTree {
  const tree = new MoveTree(variant, game.start_fen);
  const add = (parent: TreeNode, line: RecordNode[]) => {
    let at = parent;
    for (const n of line) {
      const child = tree.add(at, { id: n.id, text: n.text, path: n.path, event: n.event, ice_age: n.ice_age, number: n.number, color: n.color }, n.fen);
      child.comment = n.comments.join(' ');
      if (n.nags.length) child.nags = n.nags;
      for (const v of n.variations) add(at, v);
      at = child;
    }
  };
  add(tree.root, game.moves);
  return tree;
}

/** A tree as plain data, for the tab's session storage. */
interface SavedNode {
  fen: string;
  move: TreeMove | null;
  comment: string;
  nags?: number[];
  children: SavedNode[];
}

function saveNode(n: TreeNode): SavedNode {
  return { fen: n.fen, move: n.move, comment: n.comment, nags: n.nags, children: n.children.map(saveNode) };
}

/** Keeps `tree` and the node shown for this tab: a language switch or a reload redraws the page,
 * and the analysis must survive it. */
export function saveTree(key: string, tree: MoveTree, current: TreeNode): void {
  const path = tree.pathTo(current).slice(1).map(n => n.parent!.children.indexOf(n));
  try {
    sessionStorage.setItem(key, JSON.stringify({ variant: tree.variant, root: saveNode(tree.root), path }));
  } catch {
    // Storage full or off: the analysis lives as long as the page.
  }
}

/** The tree saved under `key` and its shown node, if there is one for `variant` that `accept`s. */
export function restoreTree(key: string, variant: Variant, accept: (tree: MoveTree, node: TreeNode) => boolean): [MoveTree, TreeNode] | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(key) ?? 'null') as { variant: Variant; root: SavedNode; path: number[] } | null;
    if (!saved || saved.variant !== variant) return null;
    const tree = new MoveTree(variant, saved.root.fen);
    const grow = (node: TreeNode, from: SavedNode) => {
      for (const c of from.children) {
        if (!c.move) continue;
        const child = tree.add(node, c.move, c.fen);
        child.comment = c.comment;
        if (c.nags?.length) child.nags = c.nags;
        grow(child, c);
      }
    };
    grow(tree.root, saved.root);
    let node = tree.root;
    for (const i of saved.path) node = node.children[i] ?? node;
    return accept(tree, node) ? [tree, node] : null;
  } catch {
    return null;
  }
}
