// The network lag of this page, as the game socket measures it (issue 38): every few seconds
// it sends a ping and times the pong; the round trip, smoothed, is the lag a move is sent with
// (`lag` of `POST /api/games/{id}/moves`): the server's clock ran while the state went to the
// page and while the move came back. The server forgives it within the player's quota
// (docs/api.md, "Lag"); a claim it cannot check is never taken whole.

let estimate: number | null = null;

/** Records a ping's round trip, ms. */
export function recordRoundTrip(ms: number): void {
  if (!Number.isFinite(ms) || ms < 0 || ms > 60_000) return;
  estimate = estimate === null ? ms : estimate * 0.7 + ms * 0.3;
}

/** The lag to send with a move, ms; `undefined` before any measurement. */
export function moveLag(): number | undefined {
  return estimate === null ? undefined : Math.round(estimate);
}
