#!/usr/bin/env python3
"""Test bots for `rastros referee`: `bot.py MODE IN OUT`, one behaviour per MODE.

random   a random legal move, the file rewritten as the format says
exit1    a random legal move, then exit code 1 (a good answer: exit codes are not trusted)
fresh    a random legal move drawn from the system's entropy, as a bot seeded by the clock
         plays: a new game every time, where `random` replays the same game
crash    dies from SIGSEGV without writing OUT
sleep    starts a child that sleeps, then sleeps past any limit itself
nofile   exits 0 without writing OUT
garbage  writes bytes that are no game file
illegal  adds a move to a slimed or distant cell, board redrawn to match
history  changes the first move given, then adds a legal move
extra    adds two legal moves
huge     writes more than the referee's 1 MiB cap on a bot's files
"""
import os
import random
import signal
import subprocess
import sys
import time


def read(path):
    with open(path) as f:
        lines = f.read().split("\n")
    rows = []
    while lines and lines[0].strip():
        rows.append(lines.pop(0).rstrip())
    moves = []
    for line in lines:
        if ":" in line:
            moves += line.split(":", 1)[1].split()
    return rows, moves


def name(file, rank):
    return "abcdefghijklmnopqrstuvwxyz"[file] + str(rank + 1)


def write(path, rows, moves):
    text = "\n".join(rows) + "\n\n"
    for i in range(0, len(moves), 2):
        text += "%02d: %s\n" % (i // 2 + 1, " ".join(moves[i:i + 2]))
    with open(path, "w") as f:
        f.write(text)


def snail(rows):
    h = len(rows)
    for r, row in enumerate(rows):
        if "*" in row:
            return row.index("*"), h - 1 - r


def legal(rows):
    h, w = len(rows), len(rows[0])
    f, r = snail(rows)
    out = []
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            nf, nr = f + df, r + dr
            if (df or dr) and 0 <= nf < w and 0 <= nr < h and rows[h - 1 - nr][nf] != "#":
                out.append((nf, nr))
    return out


def move(rows, to):
    """The rows after the snail moves to `to` (file, rank)."""
    h, w = len(rows), len(rows[0])
    grid = [list(row) for row in rows]
    f, r = snail(rows)
    grid[h - 1 - r][f] = "#"
    grid[h - 1 - to[1]][to[0]] = "*"
    return ["".join(row) for row in grid]


def main():
    mode, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    rows, moves = read(src)
    rng = random.Random(len(moves) * 7919 + sum(map(ord, "".join(rows))))
    if mode == "fresh":
        rng = random.SystemRandom()
    if mode in ("random", "exit1", "fresh"):
        to = rng.choice(legal(rows))
        write(dst, move(rows, to), moves + [name(*to)])
        sys.exit(1 if mode == "exit1" else 0)
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "sleep":
        child = subprocess.Popen(["sleep", "60"])
        if os.environ.get("BOT_CHILD_PID_FILE"):
            with open(os.environ["BOT_CHILD_PID_FILE"], "w") as f:
                f.write(str(child.pid))
        time.sleep(60)
    if mode == "nofile":
        sys.exit(0)
    if mode == "garbage":
        with open(dst, "w") as f:
            f.write("hello referee\n\x00\x01 not a game\n")
        return
    if mode == "illegal":
        h, w = len(rows), len(rows[0])
        f, r = snail(rows)
        # A cell two files away, in the snail's rank or the next one: never a king step.
        to = (f + 2, r) if f + 2 < w else (f - 2, r)
        write(dst, move(rows, to), moves + [name(*to)])
        return
    if mode == "history":
        to = rng.choice(legal(rows))
        if not moves:  # nothing to rewrite yet: a fair move
            write(dst, move(rows, to), [name(*to)])
            return
        changed = list(moves)
        changed[0] = "a1" if changed[0] != "a1" else "b1"
        write(dst, move(rows, to), changed + [name(*to)])
        return
    if mode == "extra":
        first = rng.choice(legal(rows))
        rows = move(rows, first)
        second = rng.choice(legal(rows))
        write(dst, move(rows, second), moves + [name(*first), name(*second)])
        return
    if mode == "huge":
        with open(dst, "w") as f:
            f.write("." * (2 << 20))
        return
    sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
