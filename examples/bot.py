#!/usr/bin/env python3
"""A small bot for icebound's Bot API (docs/bot-api.md), with `icebound analyze` as its engine.

Python 3 standard library only. It accepts challenges in Antarctos and Ice Age Chess, plays
each game in a thread, and asks `icebound analyze` for a move in the position the site sends.

    python3 examples/bot.py --url http://127.0.0.1:8080 --token ibt_... [--movetime 1000]

Make the token on the site while logged in as the bot's account (this makes it a BOT account
for good):

    curl -s -b cookies -c cookies -H content-type:application/json \
         -d '{"scopes":["bot:play"]}' http://127.0.0.1:8080/api/tokens
"""

import argparse
import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request

VARIANTS = ("antarctos", "iceage")


class Api:
    """The site's Bot API, with the token as `Authorization: Bearer`."""

    def __init__(self, url, token):
        self.url = url.rstrip("/")
        self.token = token

    def _request(self, method, path, timeout=30):
        req = urllib.request.Request(self.url + path, method=method)
        req.add_header("Authorization", "Bearer " + self.token)
        return urllib.request.urlopen(req, timeout=timeout)

    def get(self, path):
        with self._request("GET", path) as res:
            return json.load(res)

    def post(self, path):
        try:
            with self._request("POST", path) as res:
                return json.load(res)
        except urllib.error.HTTPError as e:
            return json.loads(e.read() or b"{}")

    def stream(self, path):
        """The objects of an NDJSON stream (keep-alive newlines skipped), until it ends."""
        # No read timeout shorter than the keep-alives (a newline at least every 7 s).
        with self._request("GET", path, timeout=60) as res:
            for raw in res:
                line = raw.strip()
                if line:
                    yield json.loads(line)


def best_move(engine, variant, fen, movetime):
    """`icebound analyze`'s best move for the position, or None."""
    out = subprocess.run(
        [engine, "analyze", "--variant", variant, "--fen", fen, "--movetime", str(movetime)],
        capture_output=True, text=True, check=False,
    )
    for line in out.stdout.splitlines():
        if line.startswith("bestmove "):
            return line.split(" ", 1)[1].strip()
    print("analyze:", out.stderr.strip(), file=sys.stderr)
    return None


def play_game(api, me, game_id, args):
    """Streams game `game_id` and moves whenever it is the bot's turn, until it ends."""
    color = None
    for event in api.stream("/api/bot/game/stream/" + game_id):
        if event["type"] == "gameFull":
            color = "white" if (event["white"].get("id") == me) else "black"
            state = event["state"]
        elif event["type"] == "gameState":
            state = event
        else:
            continue
        if state["status"] != "started":
            print(f"game {game_id} over: {state['status']}, winner {state.get('winner')}")
            return
        plies = len(state["moves"].split())
        if (plies % 2 == 0) != (color == "white"):
            continue
        game = api.get("/api/games/" + game_id)
        mv = best_move(args.icebound, game["variant"], game["fen"], args.movetime)
        if mv is None:
            continue
        answer = api.post(f"/api/bot/game/{game_id}/move/" + urllib.parse.quote(mv, safe=""))
        print(f"game {game_id}: {mv} -> {answer}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8080")
    p.add_argument("--token", default=os.environ.get("ICEBOUND_TOKEN"))
    p.add_argument("--icebound", default="icebound", help="the icebound command")
    p.add_argument("--movetime", type=int, default=1000, help="ms per move")
    args = p.parse_args()
    if not args.token:
        sys.exit("a token is needed: --token or ICEBOUND_TOKEN")
    api = Api(args.url, args.token)
    account = api.get("/api/account")
    me = account["id"]
    print(f"playing as {account['username']} ({account.get('title')})")
    playing = set()
    while True:
        try:
            for event in api.stream("/api/stream/event"):
                if event["type"] == "challenge":
                    c = event["challenge"]
                    ok = c["variant"]["key"] in VARIANTS
                    verb = "accept" if ok else "decline"
                    print(f"challenge {c['id']} from {c['challenger']['name']}: {verb}")
                    api.post(f"/api/challenge/{c['id']}/{verb}")
                elif event["type"] == "gameStart":
                    gid = event["game"]["gameId"]
                    if gid not in playing:
                        playing.add(gid)
                        threading.Thread(target=play_game, args=(api, me, gid, args),
                                         daemon=True).start()
                elif event["type"] == "gameFinish":
                    playing.discard(event["game"]["gameId"])
        except (urllib.error.URLError, OSError) as e:
            print("event stream:", e, "- reconnecting", file=sys.stderr)


if __name__ == "__main__":
    main()
