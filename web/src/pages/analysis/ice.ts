// The Ice Age on the analysis board (Ice Age Chess, C5-C9), as the game page shows it: the
// countdown, the account of the last Ice Age (what froze, the new ice, the squares left empty),
// its marks on the board, and the position just before it. The words and marks are the game
// page's own (game/iceage.ts); here is only which node's Ice Age is shown. An imported
// record's `{Ice Age: a5 frozen}` comment is the move's `event`: shown as the record's note.

import type { LegalMove, PositionView } from '../../api';
import type { TreeNode } from '../../analysis/tree';
import { countdownBox, countdownWords, iceBoardMarks, icePanel } from '../../game/iceage';
import { h, type VNode } from '../../snabbdom';

/** What the board shows at a node: the position (the one before the Ice Age when asked), its
 * moves, and the Ice Age's marks. */
export interface IceBoard {
  fen: string;
  legal: LegalMove[];
  marks: Map<string, string[]>;
  /** Showing the position before the Ice Age: no move may be played there. */
  before: boolean;
}

/** The analysis board's Ice Age state: which node's "position before" is shown. */
export class AnalysisIceAge {
  private beforeOf: TreeNode | null = null;

  /** The node whose move brought the Ice Age shown at `node`: `node` itself, or its parent
   * while `node` is the reply to it (the game page's rule). */
  iceNode(node: TreeNode): TreeNode | null {
    const brought = (n: TreeNode | null) => !!n?.move && (!!n.move.ice_age || !!n.move.event);
    if (brought(node)) return node;
    if (brought(node.parent)) return node.parent;
    return null;
  }

  /** Whether the position before the Ice Age of `node` is shown. */
  showingBefore(node: TreeNode): boolean {
    return this.beforeOf === node && !!node.move?.ice_age;
  }

  /** Shows the position before `node`'s Ice Age (`true`) or after it. */
  setBefore(node: TreeNode, show: boolean): void {
    this.beforeOf = show ? node : null;
  }

  /** What the board shows at `node`, whose position the server answered with `pos`. */
  board(node: TreeNode, pos: PositionView): IceBoard {
    const ice = this.iceNode(node);
    const facts = ice?.move?.ice_age;
    if (ice === node && facts && this.showingBefore(node)) {
      return { fen: facts.before_fen, legal: [], marks: new Map(), before: true };
    }
    const reply = ice && ice !== node ? node.move?.path : [];
    return { fen: pos.fen, legal: pos.legal, marks: iceBoardMarks(facts, reply), before: false };
  }

  /** The countdown and the Ice Age's account at `node` (`pos`: the server's answer about it);
   * `go` shows a node (the Ice Age's own, with the position before it or after it). */
  view(node: TreeNode, pos: PositionView | null, go: (n: TreeNode) => void): VNode {
    const ice = this.iceNode(node);
    const move = ice?.move;
    const countdown = pos && !pos.result ? countdownWords(pos.variant, pos.ice_age_in) : null;
    const panel = move
      ? [
        ...icePanel(move, ice === node && pos?.result ? pos.result : null, this.showingBefore(node), {
          before: show => {
            if (!ice) return;
            this.setBefore(ice, show);
            go(ice);
          },
        }),
        move.ice_age && move.event ? h('p.ice-note.muted', move.event) : null,
      ]
      : [];
    return h('div.analysis-ice', [
      countdownBox(countdown),
      h('div#ice-panel.ice-panel', { attrs: { hidden: !move } }, panel),
    ]);
  }
}
