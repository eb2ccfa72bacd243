#!/usr/bin/env python3
"""Clock time a player loses per move on a slow line (issue 38), printed as a table.

This machine's kernel has no netem (`tc qdisc ... netem` says "unknown qdisc"), so the slow
line is simulated: a TCP proxy on loopback holds every chunk of data for DELAY ms in each
direction, so a round trip costs 2 x DELAY. Two players of a 3+2 friend game answer each move
the instant its answer (the new state) reaches them; the loss of a move is the mover's clock
before it, plus the increment, less its clock after it. A player whose page claims its lag
(`"lag"`: the round trip it measured on a `GET`) is compared with one that claims none.

Usage: scripts/lag_figures.py BINARY [--old BINARY] [--moves N]
(BINARY: an `icebound` build; --old: a build from before the lag quota, sent no `lag` field.)
"""

import argparse
import asyncio
import http.cookiejar
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def proxy(listen, target, delay_s, ready):
    async def pipe(reader, writer):
        try:
            while True:
                data = await reader.read(65536)
                if not data:
                    break
                await asyncio.sleep(delay_s)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def handle(cr, cw):
        sr, sw = await asyncio.open_connection("127.0.0.1", target)
        await asyncio.gather(pipe(cr, sw), pipe(sr, cw))

    async def main():
        server = await asyncio.start_server(handle, "127.0.0.1", listen)
        ready.set()
        async with server:
            await server.serve_forever()

    asyncio.run(main())


class Client:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        if body is not None:
            req.add_header("content-type", "application/json")
            req.add_header("origin", self.base)
        with self.opener.open(req) as r:
            return json.loads(r.read() or b"null")


def run(binary, delay_ms, moves, claim):
    port, front = free_port(), free_port()
    db = os.path.join(tempfile.mkdtemp(prefix="icebound-lag-"), "lag.db")
    server = subprocess.Popen(
        [binary, "serve", "--addr", f"127.0.0.1:{port}", "--database", f"sqlite://{db}?mode=rwc",
         "--no-rate-limits"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    ready = threading.Event()
    threading.Thread(target=proxy, args=(front, port, delay_ms / 1000, ready), daemon=True).start()
    ready.wait()
    try:
        for _ in range(100):
            try:
                Client(port).call("GET", "/api/stats")
                break
            except OSError:
                time.sleep(0.1)
        a, b = Client(front), Client(front)
        g = a.call("POST", "/api/games", {"variant": "antarctos", "opponent": "friend", "color": "white",
                                          "time_control": {"kind": "realtime", "initial_s": 180, "increment_s": 2}})
        b.call("POST", "/api" + g["invite_url"], {})
        gid = g["id"]
        # Each player's page measures its round trip once (a GET through the slow line).
        rtt = {}
        for who, c in (("a", a), ("b", b)):
            t0 = time.monotonic()
            c.call("GET", f"/api/games/{gid}")
            rtt[who] = round((time.monotonic() - t0) * 1000)
        view = a.call("GET", f"/api/games/{gid}")
        losses = []
        players = [("a", a, "white"), ("b", b, "black")]
        for i in range(moves):
            who, c, side = players[i % 2]
            if view["status"] != "ongoing" or not view["legal"]:
                break
            before = view["clock"][f"{side}_ms"]
            body = {"move": view["legal"][0]["text"], "ply": view["ply"]}
            if claim:
                body["lag"] = rtt[who]
            view = c.call("POST", f"/api/games/{gid}/moves", body)
            after = view["clock"][f"{side}_ms"]
            if i >= 2:  # the first moves are never charged
                losses.append(before + 2000 - after)
        return statistics.mean(losses), max(losses), len(losses), sum(rtt.values()) / 2
    finally:
        server.terminate()
        server.wait()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("binary")
    p.add_argument("--old")
    p.add_argument("--moves", type=int, default=24)
    args = p.parse_args()
    print("| round trip | build | lag claimed | loss per move, mean (ms) | worst (ms) | moves |")
    print("|---|---|---|---|---|---|")
    for one_way in (25, 75, 150):
        rows = [("new", args.binary, True), ("new", args.binary, False)]
        if args.old:
            rows.insert(0, ("old (flat 250 ms)", args.old, False))
        for name, binary, claim in rows:
            mean, worst, n, rtt = run(binary, one_way, args.moves, claim)
            print(f"| {2 * one_way} ms (measured {rtt:.0f}) | {name} | {'yes' if claim else 'no'} | "
                  f"{mean:.0f} | {worst} | {n} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
