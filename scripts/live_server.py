"""A live quarry-server for the measuring scripts (service_flood.py,
web_viewers.py): started with the shipped botfiles and maps on a copy of
the config, its console read on a thread, `status` asked for the tick
times of the last window."""

import pathlib
import re
import subprocess
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


class LiveServer:
    def __init__(self, binary, config, args, prefix=()):
        """Starts `binary` with `config` and the extra `args` (cvars and `+map`),
        behind the `prefix` words (such as `nice -n 19`)."""
        self.proc = subprocess.Popen(
            list(prefix) + [binary, "--config", str(config), "--botfiles", str(ROOT / "botfiles"), "--maps", str(ROOT / "maps"), "--port", "0"] + args,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, pattern, seconds=30):
        """The first console line matching `pattern` (a regex), or exit."""
        end = time.time() + seconds
        while time.time() < end:
            for line in list(self.lines):
                m = re.search(pattern, line)
                if m:
                    return m
            time.sleep(0.05)
        raise SystemExit(f"the server printed nothing like {pattern!r}")

    def times(self):
        """The mean and p99 tick time of `status`'s window, ms."""
        start = len(self.lines)
        self.proc.stdin.write("status\n")
        self.proc.stdin.flush()
        for _ in range(100):
            time.sleep(0.05)
            for line in self.lines[start:]:
                m = re.search(r"tick time: mean ([\d.]+) ms, p99 ([\d.]+) ms", line)
                if m:
                    return float(m.group(1)), float(m.group(2))
        raise SystemExit("no status answer")

    def p99(self):
        """The p99 tick time of `status`'s window, ms."""
        return self.times()[1]

    def stop(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
