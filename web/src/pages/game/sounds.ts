// The game page's sounds: what a new state of the game sounds like.

import type { GameView } from '../../api';
import * as sound from '../../sound';

/** Plays the sound of what changed from `prev` to `g`: the game's end, an Ice Age, a check, a
 * capture or a move. The player's own move at `ownPly` sounded when it was made, not again. */
export function moveSound(prev: GameView, g: GameView, ownPly: number): void {
  if (g.status !== 'ongoing' && prev.status === 'ongoing') return sound.play('end');
  if (g.ply <= prev.ply) return;
  const last = g.moves[g.moves.length - 1];
  if (!last) return;
  if (last.ice_age || last.event) sound.play('iceage');
  else if (last.ply === ownPly) return;
  else if (/[+#]$/.test(last.text)) sound.play('check');
  else if (last.text.includes('x') || (last.captured?.length ?? 0) > 0) sound.play('capture');
  else sound.play('move');
}
