#!/usr/bin/python3
"""Independent oracle for pim-cycles: re-times the command streams that
`pim-cycles -T` writes, one text line at a time, with the rules of
share/doc/newton-timing.md §4 written out afresh (no code shared with
lib/pim/newton_time.c), and checks the result against the cycles column.

usage: oracle.py costed.csv trace.pim [hiding for empty pim_hiding, default 1]
(rows costed without -r/-G/-a, default config)
"""
import csv
import sys

C_HIDE, C_NOHIDE = 1, 64
GW_COMP, FAW, RCD, CCD, COMP_RR, RR_GW = 51, 17, 11, 2, 1, 6
RP, RFC, REFI, RR_LAT = 11, 350, 1900, 13


def cmd_of(line):
    if "GWRITE" in line:
        return "W"
    if "G_ACT" in line:
        return "A" + line.strip()[-1]
    if "COMP" in line:
        return "C"
    if "READRES" in line:
        return "R"
    raise ValueError(line)


def simulate(cmds, c):
    never = -10**9
    last = {"W": never, "A0": never, "A1": never, "A2": never, "A3": never,
            "C": never, "R": never}
    prea = ref = never
    resume = never
    t_prev = 0
    inj = REFI
    last_rr = None
    for x in cmds:
        t = max(t_prev + 1, resume, 1)
        if x == "W":
            t = max(t, last["R"] + RR_GW, last["W"] + c)
        elif x[0] == "A":
            k = int(x[1])
            t = max(t, last["W"] + c)
            if k == 0:
                t = max(t, prea + RP, ref + RFC)
            else:
                t = max(t, last["A%d" % (k - 1)] + FAW)
        elif x == "C":
            t = max(t, max(last["A%d" % k] for k in range(4)) + RCD,
                    last["C"] + CCD, last["W"] + GW_COMP)
        elif x == "R":
            t = max(t, last["C"] + COMP_RR)
        last[x] = t
        t_prev = t
        if x == "R":
            last_rr = t
            if inj <= t + 1:
                prea, ref = t + 1, t + 1 + RP
                resume = ref + 1
                inj += REFI
    if last_rr is None:
        return t_prev
    end = last_rr + RR_LAT
    if last_rr + 1 < inj < last_rr + RR_LAT:
        end = max(end, inj + RP)
    return end


def main():
    rows = {}
    with open(sys.argv[1], newline="") as f:
        for i, r in enumerate(csv.DictReader(f)):
            if r["device"] == "pim":
                rows[i + 2] = r
    streams = {}
    cur = None
    with open(sys.argv[2]) as f:
        for line in f:
            if line.startswith("#"):
                where, ch = line[2:].split(" channel ")
                cur = (int(where.rsplit(":", 1)[1]), int(ch))
                streams[cur] = []
            else:
                streams[cur].append(cmd_of(line))
    bad = 0
    for (line, ch), cmds in sorted(streams.items()):
        if ch != 0:
            continue
        r = rows[line]
        dflt = sys.argv[3] if len(sys.argv) > 3 else "1"
        hid = (r.get("pim_hiding", "") or dflt) == "1"
        got = simulate(cmds, C_HIDE if hid else C_NOHIDE)
        want = int(r["cycles"])
        n = {k: sum(1 for x in cmds if x[0] == k) for k in "WACR"}
        counts = (n["W"], n["A"], n["C"], n["R"])
        have = tuple(int(r[k]) for k in ("gwrite", "gact", "comp", "readres"))
        status = "ok" if (got == want and counts == have) else "MISMATCH"
        if status != "ok":
            bad += 1
        print("%s line %d: oracle %d, pim-cycles %d, counts %s %s" %
              (status, line, got, want, counts, have))
    if len(streams) == 0:
        print("no streams")
        bad += 1
    sys.exit(1 if bad else 0)


main()
