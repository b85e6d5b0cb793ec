#!/usr/bin/env python3
"""How tight an LP bound on "sets kept" is, on the play benchmark's cases (a probe, not a test).

`play`'s second search (the fewest changed sets among the best plays) spends its time proving
that no play keeps one set more; its bound on sets kept is "+1 for every set not yet decided".
This asks, per case, the linear relaxation over set columns (the peer's formulation): every
valid set type (runs of 3-13 of a colour, groups of 3-4, jokers in any place but never a set of
jokers only) may be used any number of times, each table set may be kept (0..1, its own tiles),
every table tile stays on the table, rack tiles laid are exactly as many, and worth as much, as
`play` lays (its answer, from the built binary, by tiles, jokers at 30). Maximise the sets kept.
The floor of the LP's optimum is a bound on what any play keeps; it prints how often it equals
`play`'s answer, and names any case where it is below it (that would be a bug in one of them).

usage: lp_bound.py --cases /tmp/play_cases.jsonl --bin target/release/rummikub-companion
       (scipy is in the peer's venv: /tmp/peer/bin/python, see README.md)
"""
import argparse
import collections
import itertools
import json
import subprocess
import time

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix

COLOURS = "RBKO"
JOKER = 52
FACES = 53


def face(tile):
    return JOKER if tile == "J" else COLOURS.index(tile[0]) * 13 + int(tile[1:]) - 1


def value(f):
    return 30 if f == JOKER else f % 13 + 1


def set_types(jokers):
    """Every valid set as a count per face (runs of any length; groups of 3 or 4)."""
    out = set()
    for c in range(4):
        for low in range(1, 14):
            for length in range(3, 15 - low):
                for nj in range(0, min(jokers, length - 1) + 1):
                    for where in itertools.combinations(range(length), nj):
                        counts = [0] * FACES
                        for p in range(length):
                            counts[JOKER if p in where else c * 13 + low + p - 1] += 1
                        out.add(tuple(counts))
    for n in range(1, 14):
        for size in (3, 4):
            for real in range(max(1, size - jokers), size + 1):
                for colours in itertools.combinations(range(4), real):
                    counts = [0] * FACES
                    for c in colours:
                        counts[c * 13 + n - 1] += 1
                    counts[JOKER] += size - real
                    out.add(tuple(counts))
    return sorted(out)


def bound(types, table, rack, count, points):
    n_s, n_k = len(types), len(table)
    n = n_s + n_k + FACES
    a = lil_matrix((FACES + 2, n))
    b = np.zeros(FACES + 2)
    for j, s in enumerate(types):
        for f, k in enumerate(s):
            if k:
                a[f, j] = k
    for i, s in enumerate(table):
        for t in s:
            a[face(t), n_s + i] += 1
            b[face(t)] += 1
    on_rack = collections.Counter(face(t) for t in rack)
    for f in range(FACES):
        a[f, n_s + n_k + f] = -1  # laid from the rack
        a[FACES, n_s + n_k + f] = 1
        a[FACES + 1, n_s + n_k + f] = value(f)
    b[FACES], b[FACES + 1] = count, points
    c = np.zeros(n)
    c[n_s:n_s + n_k] = -1
    bounds = [(0, None)] * n_s + [(0, 1)] * n_k + [(0, on_rack[f]) for f in range(FACES)]
    r = linprog(c, A_eq=a.tocsr(), b_eq=b, bounds=bounds, method="highs")
    return None if r.status != 0 else -r.fun


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", default="/tmp/play_cases.jsonl")
    ap.add_argument("--bin", default="target/release/rummikub-companion")
    args = ap.parse_args()
    types = {}
    per_family = collections.defaultdict(collections.Counter)
    for i, line in enumerate(open(args.cases)):
        case = json.loads(line)
        xp = case["xp"]
        run = [args.bin, "play", "--table", "|".join(case["table"]), "--rack", " ".join(case["rack"]), "--json"]
        out = subprocess.run(run + (["--xp"] if xp else []), capture_output=True, text=True)
        if out.returncode == 1:
            per_family[case["family"]]["nothing laid"] += 1
            continue
        play = json.loads(out.stdout)
        kept = len(case["table"]) - play["sets_changed"]
        jokers = 4 if xp else 2
        if jokers not in types:
            types[jokers] = set_types(jokers)
        start = time.perf_counter()
        ub = bound(types[jokers], [s.split() for s in case["table"]], case["rack"], play["count"], play["points"])
        ms = (time.perf_counter() - start) * 1e3
        if ub is None:
            print(f"{i} {case['family']}: the LP found no solution (play's answer should be one)")
            per_family[case["family"]]["no LP solution"] += 1
            continue
        floor = int(ub + 1e-6)
        gap = floor - kept
        print(f"{i} {case['family']}: {len(case['table'])} sets, play keeps {kept}, LP {ub:.3f} (floor {floor}), {ms:.0f} ms")
        if gap < 0:
            print("   the LP bound is below play's answer: one of them is wrong")
        per_family[case["family"]][f"gap {gap}"] += 1
    for family, counts in per_family.items():
        print(family, dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
