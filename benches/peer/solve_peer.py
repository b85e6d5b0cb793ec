#!/usr/bin/env python3
"""Benchmark mjpieters' rummikub-solver (PyPI) in its initial-meld mode on the
solver benchmark's racks (SOLVER_BENCH_DUMP=/tmp/solver_racks.jsonl).

Each tile set (standard: 2 copies + 2 jokers; XP: 3 copies + 4 jokers) gets
one long-lived worker process that builds the RuleSet (and so the cvxpy
problems) once and warms it up with one solve.  Each rack is solved 3 times
with SolverMode.INITIAL (most rack tiles laid among melds worth 30 or more,
rack tiles only); the per-rack time is the best of the 3, as in
benches/solver.rs.  A 60 s timeout applies per rack; on timeout the worker is
restarted (setup not timed against the rack).

usage: solve_peer.py [--per-family N] [--racks FILE] [--out FILE] [--family SUBSTR]
"""
import argparse
import json
import multiprocessing as mp
import statistics
import time
from collections import defaultdict

TIMEOUT_S = 60.0
RUNS = 3
COLOUR_NAMES = {"R": "RED", "B": "BLUE", "K": "BLACK", "O": "ORANGE"}


def worker(conn, xp):
    import rummikub_solver as rs

    t0 = time.perf_counter()
    ruleset = rs.RuleSet(
        numbers=13,
        colours=4,
        repeats=3 if xp else 2,
        jokers=4 if xp else 2,
        min_len=3,
        min_initial_value=30,
    )
    t_build = time.perf_counter() - t0

    joker = ruleset.tiles[-1]
    assert isinstance(joker, rs.Joker)
    by_name = {"J": joker}
    letter = {v: k for k, v in COLOUR_NAMES.items()}
    for t in ruleset.tiles[:-1]:
        by_name[f"{letter[t.colour.name]}{t.value}"] = t

    # warm-up solve: the first solve of a cvxpy parametrised problem compiles it
    t0 = time.perf_counter()
    warm = ruleset.new_game()
    warm.add_rack(by_name["R10"], by_name["R11"], by_name["R12"])
    ruleset.solve(warm, rs.SolverMode.INITIAL)
    t_warm = time.perf_counter() - t0
    conn.send({"setup": {"ruleset_build_s": t_build, "n_sets": len(ruleset.sets),
                         "warmup_solve_s": t_warm, "backend": str(ruleset.backend)}})

    while True:
        rack = conn.recv()
        if rack is None:
            return
        state = ruleset.new_game()
        state.add_rack(*(by_name[x] for x in rack))
        times = []
        sol = None
        for _ in range(RUNS):
            t0 = time.perf_counter()
            sol = ruleset.solve(state, rs.SolverMode.INITIAL)
            times.append(time.perf_counter() - t0)
        laid = len(sol.tiles) if sol else 0
        reals = sum(1 for t in sol.tiles if not isinstance(t, rs.Joker)) if sol else 0
        conn.send({"times": times, "tiles_laid": laid, "real_tiles_laid": reals,
                   "n_sets": len(sol.sets) if sol else 0})


class Worker:
    def __init__(self, xp):
        self.xp = xp
        self.start()

    def start(self):
        self.parent, child = mp.Pipe()
        self.proc = mp.Process(target=worker, args=(child, self.xp), daemon=True)
        self.proc.start()
        if not self.parent.poll(600):
            raise RuntimeError("worker setup timed out")
        self.setup = self.parent.recv()["setup"]

    def kill(self):
        self.proc.kill()
        self.proc.join()

    def solve(self, rack):
        self.parent.send(rack)
        if not self.parent.poll(TIMEOUT_S):
            self.kill()
            self.start()
            return None
        return self.parent.recv()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-family", type=int, default=None)
    ap.add_argument("--racks", default="/tmp/solver_racks.jsonl")
    ap.add_argument("--out", default="/tmp/solve_peer_results.jsonl")
    ap.add_argument("--family", default="", help="only families whose name contains this")
    args = ap.parse_args()

    racks = [json.loads(line) for line in open(args.racks) if line.strip()]
    index = defaultdict(int)
    todo = []
    for r in racks:
        if args.family not in r["family"]:
            continue
        i = index[r["family"]]
        index[r["family"]] += 1
        if args.per_family is None or i < args.per_family:
            todo.append((r["family"], i, r))

    workers = {}
    for xp in sorted({r["xp"] for _, _, r in todo}):
        workers[xp] = Worker(xp)
        print(f"setup xp={xp}: {workers[xp].setup}", flush=True)

    best = defaultdict(list)
    timeouts = defaultdict(int)
    with open(args.out, "w") as out:
        for fam, i, r in todo:
            res = workers[r["xp"]].solve(r["rack"])
            if res is None:
                timeouts[fam] += 1
                rec = {"family": fam, "index": i, "timeout": True}
            else:
                ms = [t * 1000 for t in res["times"]]
                best[fam].append(min(ms))
                rec = {"family": fam, "index": i, "ms_best": round(min(ms), 3),
                       "ms_first": round(ms[0], 3), "tiles_laid": res["tiles_laid"],
                       "real_tiles_laid": res["real_tiles_laid"], "n_sets": res["n_sets"]}
            out.write(json.dumps(rec) + "\n")
            out.flush()

    for w in workers.values():
        w.parent.send(None)
        w.proc.join(5)

    print("\nper-rack best of 3 (ms)")
    print(f"{'family':<28} {'n':>5} {'median':>9} {'p99':>9} {'worst':>9} timeouts")
    for fam in dict.fromkeys(f for f, _, _ in todo):
        ts = sorted(best[fam])
        if not ts:
            continue
        at = lambda q: ts[round((len(ts) - 1) * q)]
        print(f"{fam:<28} {len(ts):>5} {statistics.median(ts):>9.2f} {at(0.99):>9.2f} "
              f"{at(1.0):>9.2f} {timeouts[fam]}")


if __name__ == "__main__":
    main()
