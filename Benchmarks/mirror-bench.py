#!/usr/bin/env python3
"""Measures `issues sync --all` (the GraphQL mirror) against the local GitHub, as a user runs it.

    swift build -c release --product issues && swift build -c release --product local-github
    python3 Benchmarks/mirror-bench.py                                # 125,000 items, 100 ms
    python3 Benchmarks/mirror-bench.py --items 5000 --fault graphql-edit

The local GitHub (its own process, so the client's CPU is the client's alone) serves `acme/tracker`:
by default 125,000 items of which about 100,000 are issues, with about 450,000 comments, 260,000
timeline events and one issue in 20 a parent of sub-issues (~5,000), every answer 100 ms late. The script
runs, in one fresh cache folder:

1. `issues sync --all`: wall time, the client's CPU (user + system), GraphQL points and queries,
   REST requests, then the cache compared with what the server serves (`differences: 0`);
2. `issues sync` (the plain sync of a mirror, nothing changed): the points it spent;
3. `issues sync --all` again (a mirror already: REST probe, then changed conversations).
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..")
# ISSUES_BINARY measures another build (or a wrapper that profiles it) against the same server.
issues = os.environ.get("ISSUES_BINARY", os.path.join(root, ".build", "release", "issues"))
server_binary = os.path.join(root, ".build", "release", "local-github")

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=125_000)
parser.add_argument("--comments", type=int)
parser.add_argument("--events", type=int)
parser.add_argument("--parent-spacing", type=int, default=20)
parser.add_argument("--latency", type=int, default=100, help="milliseconds before every answer")
parser.add_argument("--fault", help="a local-github fault, graphql-edit for edits mid-listing")
options = parser.parse_args()
issue_count = options.items * 4 // 5
comments = options.comments if options.comments is not None else issue_count * 5
events = options.events if options.events is not None else issue_count * 3

command = [
    server_binary, "--items", str(options.items), "--comments", str(comments),
    "--events", str(events), "--parent-spacing", str(options.parent_spacing),
    "--latency", str(options.latency),
]
if options.fault:
    command += ["--fault", options.fault]
server = subprocess.Popen(
    command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
url = server.stdout.readline().strip()
print(f"local GitHub at {url}: {options.items} items, ~{comments} comments, ~{events} events, "
      f"a parent every {options.parent_spacing}, {options.latency} ms a request"
      + (f", fault {options.fault}" if options.fault else ""))

xdg = tempfile.mkdtemp(prefix="mirror-bench-")
environment = dict(os.environ, XDG_CACHE_HOME=xdg, GH_TOKEN="bench", GH_ENTERPRISE_TOKEN="bench")


def check():
    """The server's comparison of the cache with what it serves, and its points charged."""
    cache = None
    for folder, _, files in os.walk(xdg):
        for name in files:
            if name.endswith(".sqlite"):
                cache = os.path.join(folder, name)
    server.stdin.write(f"check {cache}\n" if cache else "points\n")
    server.stdin.flush()
    lines = [server.stdout.readline().rstrip()]
    while not lines[-1].startswith("points:"):
        lines.append(server.stdout.readline().rstrip())
    points = int(lines[-1].split()[1])
    return lines[:-1], points


def run(arguments):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [issues, "sync", "acme/tracker", "--api-url", url] + arguments,
        env=environment, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result, wall, cpu


try:
    _, points_before = check()
    result, wall, cpu = run(["--all"])
    print(f"\n1. issues sync --all (exit {result.returncode})")
    print("   " + result.stdout.strip().replace("\n", "\n   "))
    for line in result.stderr.strip().splitlines()[:10]:
        print("   stderr: " + line)
    differences, points = check()
    spent = points - points_before
    print(f"   wall {wall:.1f} s, client CPU {cpu:.1f} s, server charged {spent} points")
    print("   " + "\n   ".join(differences))

    result, wall, cpu = run([])
    _, after_plain = check()
    print(f"\n2. issues sync, nothing changed (exit {result.returncode}): "
          f"{after_plain - points} points, wall {wall:.1f} s, client CPU {cpu:.2f} s")

    result, wall, cpu = run(["--all"])
    _, after_all = check()
    print(f"\n3. issues sync --all on the mirror (exit {result.returncode}): "
          f"{after_all - after_plain} points, wall {wall:.1f} s, client CPU {cpu:.2f} s")
    print("   " + result.stdout.strip().replace("\n", "\n   "))
finally:
    server.terminate()
