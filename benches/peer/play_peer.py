#!/usr/bin/env python3
"""Benchmark mjpieters' rummikub-solver (PyPI) on /tmp/play_cases.jsonl.

Each rule set (standard: 2 copies + 2 jokers; XP: 3 copies + 4 jokers) gets
one long-lived worker process that builds the RuleSet (and so the cvxpy
problems) once.  Each case is solved 3 times in TILE_COUNT mode
(maximise rack tiles placed, player already opened -> no initial meld).
A 60 s timeout is applied per solve run; on timeout the worker is killed and
restarted (setup is redone, not timed against the case).

usage: peer_bench.py [--per-family N] [--cases FILE] [--out FILE]
"""
import argparse
import json
import multiprocessing as mp
import statistics
import sys
import time
from collections import Counter, defaultdict

TIMEOUT_S = 60.0
RUNS = 3
COLOUR_NAMES = {"R": "RED", "B": "BLUE", "K": "BLACK", "O": "ORANGE"}


def worker(conn, xp):
    t0 = time.perf_counter()
    import rummikub_solver as rs  # noqa: import cost counted in setup
    t_import = time.perf_counter() - t0

    t0 = time.perf_counter()
    ruleset = rs.RuleSet(
        numbers=13,
        colours=4,
        repeats=3 if xp else 2,
        jokers=4 if xp else 2,
        min_len=3,
        # min_initial_value is irrelevant: we always use TILE_COUNT mode with
        # initial=False (player has already opened)
    )
    t_build = time.perf_counter() - t0

    joker = ruleset.tiles[-1]
    assert isinstance(joker, rs.Joker)
    by_name = {"J": joker}
    letter = {v: k for k, v in COLOUR_NAMES.items()}
    for t in ruleset.tiles[:-1]:
        by_name[f"{letter[t.colour.name]}{t.value}"] = t
    set_keys = {tuple(sorted(s)) for s in ruleset.sets}
    problem = ruleset._solver._problems[rs.SolverMode.TILE_COUNT]

    # warm-up solve: first solve of a cvxpy parametrised problem compiles it
    t0 = time.perf_counter()
    warm = ruleset.new_game()
    warm.initial = False
    warm.add_table(by_name["R1"], by_name["R2"], by_name["R3"])
    warm.add_rack(by_name["R4"])
    ruleset.solve(warm, rs.SolverMode.TILE_COUNT)
    t_warm = time.perf_counter() - t0

    conn.send({"setup": {"import_s": t_import, "ruleset_build_s": t_build,
                         "n_sets": len(ruleset.sets), "warmup_solve_s": t_warm,
                         "backend": str(ruleset.backend)}})

    while True:
        msg = conn.recv()
        if msg is None:
            return
        case = msg
        table_tiles = [by_name[x] for s in case["table"] for x in s.split()]
        rack_tiles = [by_name[x] for x in case["rack"]]
        # table sets not representable in the peer's set list (it drops
        # groups > min_len containing jokers and runs > min_len with a joker
        # at an end); the peer must rearrange those
        nonrep = [s for s in case["table"]
                  if tuple(sorted(by_name[x] for x in s.split())) not in set_keys]
        state = rs.GameState(ruleset._tiles, table=table_tiles, rack=rack_tiles,
                             initial=False)
        valid_state = ruleset.game_state_valid(state)
        times = []
        sol = None
        for r in range(RUNS):
            t0 = time.perf_counter()
            sol = ruleset.solve(state, rs.SolverMode.TILE_COUNT)
            dt = time.perf_counter() - t0
            times.append(dt)
            conn.send({"run": r, "s": dt})
        status = problem.status
        # last run: cvxpy-reported backend (HiGHS via scipy) time and
        # cvxpy compilation time, to split Python/cvxpy overhead from MILP time
        backend_s = getattr(problem.solver_stats, "solve_time", None)
        compile_s = getattr(problem, "compilation_time", None)
        placed = len(sol.tiles) if sol else 0
        check = None
        if sol:
            used = Counter(t for s in sol.sets for t in s)
            check = used == Counter(table_tiles) + Counter(sol.tiles)
        conn.send({"done": True, "times": times, "tiles_placed": placed,
                   "status": status, "valid_state": valid_state,
                   "solution_consistent": check, "nonrep_table_sets": nonrep,
                   "placed_tiles": [repr(t) for t in sol.tiles] if sol else [],
                   "n_sets": len(sol.sets) if sol else None,
                   "backend_s": backend_s, "compile_s": compile_s})


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

    def run_case(self, case):
        self.parent.send(case)
        while True:
            if not self.parent.poll(TIMEOUT_S):
                self.kill()
                self.start()
                return None
            msg = self.parent.recv()
            if "done" in msg:
                return msg


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-family", type=int, default=None)
    ap.add_argument("--cases", default="/tmp/play_cases.jsonl")
    ap.add_argument("--out", default="/work/peer/results.jsonl")
    args = ap.parse_args()

    cases = [json.loads(l) for l in open(args.cases) if l.strip()]
    fam_index = defaultdict(int)
    todo = []
    for c in cases:
        i = fam_index[c["family"]]
        fam_index[c["family"]] += 1
        if args.per_family is None or i < args.per_family:
            todo.append((c["family"], i, c))

    workers = {}
    for xp in sorted({c["xp"] for _, _, c in todo}):
        t0 = time.perf_counter()
        workers[xp] = Worker(xp)
        print(f"setup xp={xp}: {workers[xp].setup} "
              f"(process spawn+setup wall {time.perf_counter() - t0:.3f}s)",
              flush=True)

    results = defaultdict(list)
    timeouts = []
    with open(args.out, "w") as out:
        for fam, i, c in todo:
            r = workers[c["xp"]].run_case(c)
            if r is None:
                timeouts.append((fam, i))
                rec = {"family": fam, "index": i, "tiles_placed": None,
                       "ms_median": None, "ms_first": None, "timeout": True}
                print(f"{fam}[{i}] TIMEOUT (>{TIMEOUT_S}s)", flush=True)
            else:
                ts = [t * 1000 for t in r["times"]]
                rec = {"family": fam, "index": i,
                       "tiles_placed": r["tiles_placed"],
                       "ms_median": round(statistics.median(ts), 3),
                       "ms_first": round(ts[0], 3),
                       "ms_best": round(min(ts), 3),
                       "status": r["status"],
                       "backend_ms_last": None if r["backend_s"] is None else round(r["backend_s"] * 1000, 3),
                       "cvxpy_compile_ms_last": None if r["compile_s"] is None else round(r["compile_s"] * 1000, 3),
                       "solution_consistent": r["solution_consistent"],
                       "valid_state": r["valid_state"],
                       "nonrep_table_sets": r["nonrep_table_sets"]}
                results[fam].append(rec)
                print(f"{fam}[{i}] placed={r['tiles_placed']} status={r['status']} "
                      f"first={ts[0]:.1f}ms med={statistics.median(ts):.1f}ms "
                      f"best={min(ts):.1f}ms"
                      + (f" nonrep={r['nonrep_table_sets']}" if r['nonrep_table_sets'] else ""),
                      flush=True)
            out.write(json.dumps(rec) + "\n")
            out.flush()

    for w in workers.values():
        w.parent.send(None)
        w.proc.join(5)

    print("\nfamily                      n  med_ms(median-of-3)  worst_ms  "
          "best_med_ms  med_first_ms  worst_first_ms")
    for fam in dict.fromkeys(f for f, _, _ in todo):
        rs_ = results[fam]
        if not rs_:
            continue
        med = [r["ms_median"] for r in rs_]
        first = [r["ms_first"] for r in rs_]
        best = [r["ms_best"] for r in rs_]
        print(f"{fam:26s} {len(rs_):2d}  {statistics.median(med):10.1f}  "
              f"{max(med):14.1f}  {statistics.median(best):10.1f}  "
              f"{statistics.median(first):10.1f}  {max(first):12.1f}")
    print("\ntiles placed per family (in order):")
    for fam in dict.fromkeys(f for f, _, _ in todo):
        print(f"{fam}: " + " ".join(str(r["tiles_placed"]) for r in results[fam]))
    if timeouts:
        print("timeouts:", timeouts)
    bad = [(r["family"], r["index"], r["status"]) for f in results for r in results[f]
           if r["status"] != "optimal" or r["solution_consistent"] is False
           or not r["valid_state"]]
    print("non-optimal / inconsistent / invalid:", bad)


if __name__ == "__main__":
    main()
