#!/usr/bin/env python3
"""Measures a first `issues sync` over REST (no GraphQL) of a large repository: the client's CPU.

    swift build -c release --product issues && swift build -c release --product local-github
    python3 Benchmarks/rest-sync-bench.py                      # 100,000 items, 3 runs
    python3 Benchmarks/rest-sync-bench.py --compare OTHER/.build/release/issues
    python3 Benchmarks/rest-sync-bench.py --no-token            # the REST listing alone

The local GitHub (its own process, so the client's CPU is the client's alone) serves `acme/tracker`
with `--items` items and no latency. Each run syncs into a fresh cache folder and reports the
client's CPU (user + system) and wall time; the server then compares the cache with what it serves.
With `--compare`, the other binary runs alternately with this one against the same server, and the
medians and their ratio are printed from that one run.
"""
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..")
issues = os.environ.get("ISSUES_BINARY", os.path.join(root, ".build", "release", "issues"))
server_binary = os.path.join(root, ".build", "release", "local-github")

parser = argparse.ArgumentParser()
parser.add_argument("--items", type=int, default=100_000)
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--compare", help="another build of `issues`, run alternately with this one")
parser.add_argument(
    "--no-token", action="store_true",
    help="sync without a token: the REST listing alone, without the pull requests' GraphQL details")
options = parser.parse_args()

server = subprocess.Popen(
    [server_binary, "--items", str(options.items), "--comments", "0", "--events", "0",
     "--latency", "0"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
url = server.stdout.readline().strip()
print(f"local GitHub at {url}: {options.items} items, no latency")


def check(xdg):
    """The server's comparison of the cache in `xdg` with what it serves."""
    cache = None
    for folder, _, files in os.walk(xdg):
        for name in files:
            if name.endswith(".sqlite"):
                cache = os.path.join(folder, name)
    server.stdin.write(f"check {cache}\n")
    server.stdin.flush()
    lines = [server.stdout.readline().rstrip()]
    while not lines[-1].startswith("points:"):
        lines.append(server.stdout.readline().rstrip())
    return lines[:-1]


def run(binary):
    xdg = tempfile.mkdtemp(prefix="rest-sync-bench-")
    environment = dict(os.environ, XDG_CACHE_HOME=xdg, GH_TOKEN="bench")
    if options.no_token:
        for name in ("GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN"):
            environment.pop(name, None)
        environment["HOME"] = xdg  # no gh configuration to find a token in
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [binary, "sync", "acme/tracker", "--api-url", url],
        env=environment, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    differences = check(xdg)
    subprocess.run(["rm", "-rf", xdg])
    if result.returncode != 0:
        print(f"   {binary}: exit {result.returncode}: {result.stderr.strip()[:300]}")
    return cpu, wall, differences


binaries = [("this build", issues)] + ([("compared", options.compare)] if options.compare else [])
cpus = {name: [] for name, _ in binaries}
try:
    for index in range(options.runs):
        for name, binary in binaries:
            cpu, wall, differences = run(binary)
            cpus[name].append(cpu)
            print(f"run {index + 1}, {name}: client CPU {cpu:.2f} s, wall {wall:.2f} s; "
                  + "; ".join(differences))
    medians = {name: statistics.median(values) for name, values in cpus.items()}
    for name, median in medians.items():
        print(f"median client CPU, {name}: {median:.2f} s")
    if options.compare:
        print(f"ratio (this build / compared): {medians['this build'] / medians['compared']:.3f}")
finally:
    server.terminate()
