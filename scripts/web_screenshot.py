#!/usr/bin/env python3
"""Screenshots of the live web view for the README: a server with bots on a
map (or a recording played with --replay --web), the page opened in
headless Chromium through chromedriver (Debian's `chromium` and
`chromium-driver`), the overlays and one bot's mind ticked, then a PNG.

    python3 scripts/web_screenshot.py --map q_dm1 --out docs/images/web-view-q_dm1.png
    python3 scripts/web_screenshot.py --maps-dir ../shared/maps/q1 --map dm3 --bots 8 --out docs/images/web-view-dm3.png
    python3 scripts/web_screenshot.py --replay crates/server/tests/replays/ctf.qdemo --out /tmp/replay.png

Options: --gametype, --seconds (of play before the shot), --links (draw
the navmesh's links), --size WxH.
"""

import argparse
import base64
import json
import pathlib
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

from script_common import copy_config, require_binary, target_dir

ROOT = pathlib.Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())["value"]


def run_js(port, session, script):
    return call(port, "POST", f"/session/{session}/execute/sync", {"script": script, "args": []})


def wait_for(port, session, script, seconds, what):
    end = time.time() + seconds
    while time.time() < end:
        if run_js(port, session, script):
            return
        time.sleep(0.3)
    raise SystemExit(f"timed out waiting for {what}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--server", default=str(target_dir() / "release" / "quarry-server"))
    ap.add_argument("--maps-dir", default=str(ROOT / "maps"))
    ap.add_argument("--map", default="q_dm1")
    ap.add_argument("--gametype", default="ffa")
    ap.add_argument("--bots", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=40)
    ap.add_argument("--replay")
    ap.add_argument("--links", action="store_true")
    ap.add_argument("--size", default="1400,900")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    require_binary(args.server, "cargo build --release -p quarry-server")
    web_port = free_port()
    with tempfile.TemporaryDirectory() as work:
        config = copy_config(work)
        common = [args.server, "--config", str(config), "--botfiles", str(ROOT / "botfiles"), "--maps", args.maps_dir]
        if args.replay:
            cmd = common + ["replay", args.replay, "--web", str(web_port)]
        else:
            cmd = common + ["--port", "0", "+set", "g_gametype", args.gametype, "+set", "bot_minPlayers", str(args.bots),
                            "+set", "timelimit", "0", "+set", "fraglimit", "0", "+set", "sv_webAddr", str(web_port), "+map", args.map]
        server = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        ready = threading.Event()

        def read():
            for line in server.stdout:
                if re.search(r"http://[\d.]+:\d+/", line):
                    ready.set()
        threading.Thread(target=read, daemon=True).start()
        driver_port = free_port()
        driver = subprocess.Popen(["chromedriver", f"--port={driver_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            if not ready.wait(60):
                raise SystemExit("the server did not start its web view")
            time.sleep(1)
            caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={args.size}"]}}}}
            session = call(driver_port, "POST", "/session", caps)["sessionId"]
            call(driver_port, "POST", f"/session/{session}/url", {"url": f"http://127.0.0.1:{web_port}/"})
            wait_for(driver_port, session, "return window.framesDrawn > 0 && window.floorNodes > 0", 120, "the floor and a frame")
            time.sleep(args.seconds)
            # One bot's mind, and the navmesh's links if asked.
            run_js(driver_port, session, "const b = document.querySelector('input.mind'); if (b) b.click(); return true")
            if args.links:
                run_js(driver_port, session, "document.getElementById('ov-links').click(); return true")
            time.sleep(1.5)
            png = base64.b64decode(call(driver_port, "GET", f"/session/{session}/screenshot"))
            pathlib.Path(args.out).write_bytes(png)
            print(f"wrote {args.out} ({len(png)} bytes)")
            call(driver_port, "DELETE", f"/session/{session}")
        finally:
            driver.kill()
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
