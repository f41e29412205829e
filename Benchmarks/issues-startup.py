#!/usr/bin/env python3
"""Times the real `issues` binary from launch to its first frame on a 100,000-issue cache.

    cd Benchmarks && swift build -c release --product trellis-bench
    (cd .. && swift build -c release --product issues)
    python3 issues-startup.py

Writes the synthetic cache under a temporary XDG_CACHE_HOME (trellis-bench make-cache), then runs
`issues synthetic/large --offline` eleven times in a 200x60 pseudo-terminal and reports the time
until the end of the first synchronized frame (ESC [?2026l), and the median.
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
xdg = tempfile.mkdtemp(prefix="issues-startup-")
cache = os.path.join(xdg, "trellis-issues", "github.com", "synthetic", "large.sqlite")
os.makedirs(os.path.dirname(cache))
subprocess.run([bench, "make-cache", cache], check=True, stdout=subprocess.DEVNULL)

times = []
for _ in range(11):
    pid, fd = pty.fork()
    if pid == 0:
        # Size the terminal before the program asks for it.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 60, 200, 0, 0))
        os.environ["XDG_CACHE_HOME"] = xdg
        os.execv(issues, [issues, "synthetic/large", "--offline"])
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

print("launch to first frame, ms:", " ".join(f"{t:.1f}" for t in times))
print(f"median {statistics.median(times):.1f} ms (bar: 50 ms)")
