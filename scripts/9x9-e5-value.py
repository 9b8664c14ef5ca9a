#!/usr/bin/env python3
"""Write tables/9x9-e5-value.json again from the committed work units of tables/9x9-e5-d2.

usage: scripts/9x9-e5-value.py RASTROS REPO BUILD [UNIT:CPU_S:PEAK_KB ...] > FILE

RASTROS is a `rastros` binary, REPO the repository's root, BUILD the build string to
record. It reads `rastros merge tables/9x9-e5-d2 --partial --json` (each first move's
value) and the units' `.result` files (their lines of play), and prints the JSON whose
format docs/FORMATS.md gives. Every entry of `units_solved` is made from its unit's
`.result`; only its `cpu_seconds` and `peak_kb` come from the file already there, as they are
in no result: UNIT:CPU_S:PEAK_KB gives those of a newly solved unit (measured while it ran),
which are otherwise null, and is refused for a unit without a result or already measured. A unit not solved but whose mirror
image in the a1-i9 diagonal is takes its twin's line, mirrored.
"""
import json, subprocess, sys, os, re

if len(sys.argv) < 4:
    sys.exit(__doc__)
rastros, repo, build = sys.argv[1:4]
extra = {}
for a in sys.argv[4:]:
    try:
        u, c, p = a.split(":")
        extra[int(u)] = (float(c), int(p))
    except ValueError:
        sys.exit(f"{a!r}: not UNIT:CPU_S:PEAK_KB")
tables = os.path.join(repo, "tables")
d2 = os.path.join(tables, "9x9-e5-d2")
old = json.load(open(os.path.join(tables, "9x9-e5-value.json")))
run = subprocess.run([rastros, "merge", d2, "--partial", "--json"],
                     stdout=subprocess.PIPE, text=True)
if run.returncode != 0:
    sys.exit(f"{rastros} merge {d2} failed (exit code {run.returncode})")
merged = json.loads(run.stdout)
if not (merged["decided"] and merged["value"] == "win"):
    sys.exit(f"the units do not decide a win: {merged}")

FILES = "abcdefghi"
def mirror(c):
    f, r = FILES.index(c[0]), int(c[1:]) - 1
    return FILES[r] + str(f + 1)

units = {}
for name in sorted(os.listdir(d2)):
    m = re.match(r"unit-(\d+)\.pos$", name)
    if not m:
        continue
    n = int(m.group(1))
    path = None
    for line in open(os.path.join(d2, name)):
        if line.startswith("path "):
            path = line.split()[1:]
    res = os.path.join(d2, name + ".result")
    r = None
    if os.path.exists(res):
        r = {}
        for line in open(res):
            k, _, v = line.strip().partition(" ")
            r[k] = v
    units[n] = {"path": path, "result": r}
by_path = {tuple(u["path"]): n for n, u in units.items()}

def solved_line(n):
    """(value, line after the two moves, solved_as) for unit n, from itself or its twin."""
    u = units[n]
    if u["result"]:
        return u["result"]["value"], u["result"]["pv"].split(), None
    twin = by_path.get(tuple(mirror(c) for c in u["path"]))
    if twin is not None and units[twin]["result"]:
        r = units[twin]["result"]
        return r["value"], [mirror(c) for c in r["pv"].split()], twin
    return None, None, None

firsts = merged["move_values"]
replies, refutations, twins_used = [], [], set()
for first, v in sorted(firsts.items()):
    cands = [n for n, u in units.items() if u["path"][0] == first]
    if v == "win":
        for n in sorted(cands):
            val, line, twin = solved_line(n)
            if val != "win":
                sys.exit(f"unit {n} of the winning first move {first} is {val}")
            if twin is not None:
                twins_used.add(n)
            replies.append({"move": first, "reply": units[n]["path"][1], "unit": n,
                            "solved_as": twin, "value": val,
                            "line": units[n]["path"] + line})
    elif v == "loss":
        for n in sorted(cands):
            val, line, twin = solved_line(n)
            if val == "loss":
                if twin is not None:
                    twins_used.add(n)
                refutations.append({"move": first, "reply": units[n]["path"][1], "unit": n,
                                    "solved_as": twin, "value": val,
                                    "line": units[n]["path"] + line})
                break
        else:
            raise SystemExit(f"no refutation found for {first}")

old_solved = {u["unit"]: u for u in old["units_solved"]}
units_solved = []
for n, u in sorted(units.items()):
    r = u["result"]
    if not r:
        continue
    e = old_solved.get(n)
    if n in extra:
        if e is not None and (e["cpu_seconds"], e["peak_kb"]) != (None, None):
            sys.exit(f"unit {n}: its CPU time and peak memory are in the file already")
        cpu, peak = extra.pop(n)
    elif e is not None:
        cpu, peak = e["cpu_seconds"], e["peak_kb"]
    else:
        cpu, peak = None, None
    units_solved.append({"unit": n, "moves": u["path"], "value": r["value"],
                         "nodes": int(r["nodes"]), "seconds": round(float(r["seconds"]), 1),
                         "cpu_seconds": cpu, "peak_kb": peak})
if extra:
    sys.exit(f"no result for unit(s) {sorted(extra)} given CPU time and peak memory")

out = dict(old)
out["winning_moves_found"] = sorted(c for c, v in firsts.items() if v == "win")
out["first_moves"] = firsts
out["decided_by"] = {"split": "tables/9x9-e5-d2", "depth": 2, "units": merged["units"],
                     "solved": [u["unit"] for u in units_solved],
                     "twins_used": sorted(twins_used)}
out["replies"] = replies
if refutations:
    out["refutations"] = refutations
out["units_solved"] = units_solved
out["nodes"] = sum(u["nodes"] for u in units_solved)
out["seconds"] = round(sum(u["seconds"] for u in units_solved), 1)
out["build"] = build
# keep the key order of the old file, refutations after replies
order = list(old.keys())
if "refutations" not in order:
    order.insert(order.index("replies") + 1, "refutations")
final = {k: out[k] for k in order if k in out}
print(json.dumps(final, indent=2, ensure_ascii=False))
