#!/usr/bin/env python3
"""Times the real `issues dash` from launch to its first frame over 20 caches × 10,000 items on
two hosts (200,000 rows).

    cd Benchmarks && swift build -c release --product trellis-bench
    (cd .. && swift build -c release --product issues)
    python3 dashboard-startup.py

Writes the caches under a temporary XDG_CACHE_HOME (trellis-bench make-cache PATH 10000 SEED:
ten under github.com, ten under ghe.example.com) and a dashboard.yml naming them with three
sections, then runs `issues dash --offline` eleven times in a 200x60 pseudo-terminal and reports
the time until the end of the first synchronized frame (ESC [?2026l), and the median.
"""
import fcntl
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

here = os.path.dirname(os.path.abspath(__file__))
issues = os.path.join(here, "..", ".build", "release", "issues")
bench = os.path.join(here, ".build", "release", "trellis-bench")
xdg = tempfile.mkdtemp(prefix="dashboard-startup-")
cache_home = os.path.join(xdg, "cache")
config_home = os.path.join(xdg, "config")
repositories = []
for index in range(20):
    host = "github.com" if index < 10 else "ghe.example.com"
    path = os.path.join(cache_home, "trellis-issues", host, "acme", f"repo{index}.sqlite")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run([bench, "make-cache", path, "10000", str(100 + index)], check=True,
                   stdout=subprocess.DEVNULL)
    repositories.append(f"acme/repo{index}" if index < 10 else f"ghe.example.com/acme/repo{index}")
os.makedirs(os.path.join(config_home, "trellis-issues"))
with open(os.path.join(config_home, "trellis-issues", "dashboard.yml"), "w") as config:
    config.write("repositories:\n")
    for repository in repositories:
        config.write(f"  - {repository}\n")
    config.write("sections:\n")
    config.write("  - {title: PRs by octocat, query: 'is:open is:pr author:octocat'}\n")
    config.write("  - {title: Bugs, query: 'is:open label:bug', group-by: repository}\n")
    config.write("  - {title: Recent, query: 'updated:>=2020-06-01 sort:updated-desc'}\n")

times = []
for _ in range(11):
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        os.environ["XDG_CACHE_HOME"] = cache_home
        os.environ["XDG_CONFIG_HOME"] = config_home
        os.execv(issues, [issues, "dash", "--offline"])
    start = time.perf_counter()
    output = b""
    first = None
    while first is None:
        ready, _, _ = select.select([fd], [], [], 5)
        if not ready:
            break
        try:
            output += os.read(fd, 65536)
        except OSError:
            break
        if b"\x1b[?2026l" in output:
            first = (time.perf_counter() - start) * 1000
    os.write(fd, b"q")
    os.waitpid(pid, 0)
    os.close(fd)
    if first is None:
        sys.exit("no frame within 5 s")
    times.append(first)

print("launch to first dashboard frame, ms:", " ".join(f"{t:.1f}" for t in times))
print(f"median {statistics.median(times):.1f} ms")
