"""A bot driven by berserk, lichess's own Python client (PyPI `berserk`), against icebound's
Bot API (issue 44: "a lichess client plays after changing its base URL"). Run by
crates/server/tests/it/bot_berserk.rs with the interpreter of a venv that has berserk
(.ci/setup-berserk.sh).

    python berserk_bot.py --url http://127.0.0.1:PORT --token ibt_... --games N --opponent NAME

First it challenges NAME twice with berserk's `challenges.create` (which sends its unused
fields as null) and withdraws the first with `challenges.cancel`, printing
{"challenged": [first, second]}. Then it accepts every challenge from its event stream, plays each game to its end with berserk's
bot calls (the first legal move of the site's `GET /api/games/{id}`, read with the same
token), tries a chat line and an abort once, and after N finished games prints one JSON line:
{"account": {...}, "games": [{"id", "status", "winner", "plies", "full"}], "refusals": [...]}.
"""

import argparse
import json
import sys

import berserk
import requests


def legal_first(session, url, game_id):
    """The site's first legal move of game `game_id`, in its machine text."""
    r = session.get(f"{url}/api/games/{game_id}", timeout=10)
    r.raise_for_status()
    legal = r.json().get("legal") or []
    return legal[0]["id"] if legal else None


def refusal(err):
    """What a berserk ResponseError says: its status and the site's message, as berserk
    reads it (`cause` is the JSON body)."""
    cause = err.cause if isinstance(err.cause, dict) else {}
    return {"status": err.status_code, "error": cause.get("error"), "code": cause.get("code")}


def play(client, session, url, game_id, me, refusals):
    """Plays game `game_id` to its end; its summary."""
    color = None
    full = None
    summary = {"id": game_id}
    tried = False
    for line in client.bots.stream_game_state(game_id):
        if line.get("type") == "gameFull":
            full = line
            color = "white" if (line["white"].get("id") == me) else "black"
            state = line["state"]
        elif line.get("type") == "gameState":
            state = line
        else:
            continue
        moves = state["moves"].split()
        summary.update(status=state["status"], winner=state.get("winner"), plies=len(moves))
        if state["status"] != "started":
            break
        if not tried:
            tried = True
            # A chat line and an abort: refused here (a new account writes no free text;
            # too late, or not, to abort), and berserk must read the refusal.
            try:
                client.bots.post_message(game_id, "good luck")
            except berserk.exceptions.ResponseError as e:
                refusals.append({"call": "post_message", **refusal(e)})
            try:
                client.bots.make_move(game_id, "a1a1")
            except berserk.exceptions.ResponseError as e:
                refusals.append({"call": "make_move", **refusal(e)})
        to_move = "white" if len(moves) % 2 == 0 else "black"
        if to_move == color:
            mv = legal_first(session, url, game_id)
            if mv is not None:
                try:
                    client.bots.make_move(game_id, mv)
                except berserk.exceptions.ResponseError as e:
                    # The opponent ended the game meanwhile (a resignation): its final state
                    # follows on the stream.
                    if refusal(e)["code"] != "game_over":
                        raise
    summary["full"] = {
        "variant": full and full["variant"]["key"],
        "createdAt": bool(full and full.get("createdAt")),
        "color": color,
    }
    return summary


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--token", required=True)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--opponent", required=True)
    args = ap.parse_args()
    session = berserk.TokenSession(args.token)
    client = berserk.Client(session=session, base_url=args.url)
    account = client.account.get()
    me = account["id"]
    print(json.dumps({"ready": me}), flush=True)
    made = []
    for color in ("black", "white"):
        c = client.challenges.create(
            args.opponent, rated=False, clock_limit=180, clock_increment=0,
            variant="antarctos", color=color,
        )
        made.append(c["id"])
    client.challenges.cancel(made[0])
    print(json.dumps({"challenged": made}), flush=True)
    games = []
    refusals = []
    declined = []
    for event in client.bots.stream_incoming_events():
        kind = event.get("type")
        if kind == "challengeDeclined":
            declined.append(event["challenge"]["id"])
        elif kind == "challenge":
            client.bots.accept_challenge(event["challenge"]["id"])
        elif kind == "gameStart":
            games.append(play(client, session, args.url, event["game"]["gameId"], me, refusals))
            if len(games) >= args.games:
                break
    out = {
        "account": {"id": me, "title": account.get("title")},
        "games": games,
        "refusals": refusals,
        "declined": declined,
        "berserk": berserk.__version__ if hasattr(berserk, "__version__") else None,
    }
    print(json.dumps(out, default=str), flush=True)


if __name__ == "__main__":
    try:
        main()
    except requests.RequestException as e:
        print(json.dumps({"failed": str(e)}), flush=True)
        sys.exit(2)
