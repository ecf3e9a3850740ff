#!/usr/bin/python3
"""GPU model against its training set (share/pimflow/gpu/train).

Without options: cost every training row with the shipped GPU configs and
the `library` build (one cuBLAS call per GEMM, launches overlapped), and
print the training error per GPU board, precision and timing class.
  --fit          search the fitted constants of each config again and
                 print them (nothing is written; the configs carry them)
  --check DOC    exit 1 when an error in the table of DOC
                 (share/doc/gpu-model.md) is exceeded by the shipped configs
A training row becomes one gemm row of a tasks table (activations rows x
in_features, weights in_features x out_features).  kernel-avg times are
compared with the row's ns; single-call times with ns plus the host
constant the training set's notes state (55 us for CUDA events around a
PyTorch call, 20 us for a wall-clock matmul).  Only python3 and the
built gpu-cycles are needed.
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BIN = os.environ.get("PF_BIN", os.path.join(TOP, "bin"))
SHARE = os.path.join(TOP, "share", "pimflow")
TRAIN = os.path.join(SHARE, "gpu", "train", "gpu-measured-train.csv")
BUILD = "library"
HOST_US = {"kernel-avg": 0.0, "single-call-event": 55.0, "single-call-wall": 20.0}
CONFIG = {
    "T4": "t4", "V100-SXM2": "v100", "V100-PCIe-32GB": "v100",
    "A100": "a100", "A100-PCIe-40GB": "a100", "A100-PCIe-80GB": "a100",
    "H100-SXM5-80GB": "h100",
}
# What --fit searches per config: key, low, high, rows it is fitted to.
FIT = {
    "t4": [("sustained_clock_mhz", 585, 1590), ("eff_math", 0.6, 1.0),
           ("eff_math_cuda", 0.5, 1.0), ("eff_dram", 0.5, 1.0),
           ("kernel_fixed_ns", 0, 15000), ("kstep_cycles", 0, 4000)],
    "v100": [("sustained_clock_mhz", 1000, 1530), ("eff_math", 0.6, 1.0),
             ("eff_math_cuda", 0.5, 1.0), ("eff_dram", 0.5, 1.0),
             ("kernel_fixed_ns", 0, 15000), ("kstep_cycles", 0, 4000)],
    "a100": [("sustained_clock_mhz", 765, 1410), ("eff_math_cuda", 0.5, 1.0)],
    "h100": [("sustained_clock_mhz", 1000, 1980), ("eff_math_cuda", 0.5, 1.0)],
}
# The rows each config's constants are fitted to.
FIT_ROWS = {
    "t4": lambda r: r["gpu"] == "T4" and r["timing"] == "kernel-avg",
    "v100": lambda r: r["gpu"] == "V100-SXM2" and r["timing"] == "kernel-avg",
    "a100": lambda r: r["gpu"].startswith("A100"),
    "h100": lambda r: r["gpu"].startswith("H100"),
}

COLS = ("cand,first,last,kind,axis,ratio,step,device,layer,name,op,batch,"
        "in_c,in_h,in_w,out_c,out_h,out_w,kernel_h,kernel_w,stride_h,"
        "stride_w,pad_top,pad_left,pad_bottom,pad_right,dil_h,dil_w,groups,"
        "gemm_m,gemm_n,gemm_k,gemm_batch,act,macs,in_bytes,weight_bytes,"
        "out_bytes,dtype").split(",")


def load():
    with open(TRAIN, newline="") as f:
        return list(csv.DictReader(f))


def tasks(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLS)
        for i, r in enumerate(rows):
            m, k, n = int(r["rows"]), int(r["in_features"]), int(r["out_features"])
            e, oe = int(r["elem_bytes"]), int(r["out_elem_bytes"])
            w.writerow([i, 0, 0, "base", "", 100, 0, "gpu", 0, "r%d" % i,
                        "gemm", m, k, 1, 1, n, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0,
                        1, 1, 1, m, n, k, 1, "none", m * n * k, m * k * e,
                        k * n * e, m * n * oe, r["precision"]])


# Keys counted in whole units (cycles): gpu-cycles refuses a fraction.
WHOLE = {"kstep_cycles", "fill_cycles", "launch_cycles"}


def config_text(name, over):
    with open(os.path.join(SHARE, "gpu", name + ".conf")) as f:
        s = f.read()
    for k, v in over.items():
        if k in WHOLE:
            v = round(v)
        s, c = re.subn(r"(?m)^%s = .*$" % k, "%s = %.6g" % (k, v), s)
        if c != 1:
            raise SystemExit("fit.py: %s.conf: no key %s" % (name, k))
    return s


def predict(name, rows, over, tmp):
    """Predicted microseconds of rows on config name with keys overridden."""
    cfg = os.path.join(tmp, name + ".conf")
    with open(cfg, "w") as f:
        f.write(config_text(name, over))
    t = os.path.join(tmp, "t.csv")
    tasks(rows, t)
    out = subprocess.run([os.path.join(BIN, "gpu-cycles"), "-c", cfg, "-b",
                          BUILD, t], check=True, capture_output=True,
                         text=True).stdout
    got = list(csv.DictReader(out.splitlines()))
    return [float(g["ns"]) / 1e3 + HOST_US[r["timing"]] for g, r in zip(got, rows)]


def err(pred, rows):
    return [p / float(r["measured_us"]) - 1 for p, r in zip(pred, rows)]


def mae(e):
    return sum(abs(x) for x in e) / len(e)


def fit(name, rows, tmp):
    """Coordinate descent (golden-section per key, 4 sweeps) on MAE."""
    keys = FIT[name]
    with open(os.path.join(SHARE, "gpu", name + ".conf")) as f:
        s = f.read()
    cur = {k: float(re.search(r"(?m)^%s = (\S+)" % k, s).group(1)) for k, _, _ in keys}
    sel = [r for r in rows if FIT_ROWS[name](r)]
    cost = lambda o: mae(err(predict(name, sel, o, tmp), sel))
    best = cost(cur)
    g = (math.sqrt(5) - 1) / 2
    for sweep in range(4):
        for k, lo, hi in keys:
            a, b = lo, hi
            for _ in range(14):
                c, d = b - g * (b - a), a + g * (b - a)
                fc = cost(dict(cur, **{k: c}))
                fd = cost(dict(cur, **{k: d}))
                if fc < fd:
                    b = d
                else:
                    a = c
            v = (a + b) / 2
            f = cost(dict(cur, **{k: v}))
            if f < best:
                best, cur[k] = f, v
    return cur, best, len(sel)


def table(rows, tmp):
    byc = {}
    for r in rows:
        byc.setdefault(CONFIG[r["gpu"]], []).append(r)
    pred = {}
    for name, rs in byc.items():
        for p, r in zip(predict(name, rs, {}, tmp), rs):
            pred[id(r)] = p
    groups = {}
    for r in rows:
        groups.setdefault((r["gpu"], r["precision"], r["timing"]), []).append(r)
    out = []
    for key in sorted(groups):
        rs = groups[key]
        e = err([pred[id(r)] for r in rs], rs)
        gm = math.exp(sum(math.log(1 + x) for x in e) / len(e))
        out.append(key + (CONFIG[key[0]], len(rs), 100 * mae(e),
                          100 * sum(e) / len(e), gm))
    return out


def main(argv):
    rows = load()
    with tempfile.TemporaryDirectory() as tmp:
        if "--fit" in argv:
            for name in FIT:
                cur, best, n = fit(name, rows, tmp)
                print("%s: %d rows, MAE %.1f %%: %s" % (name, n, 100 * best,
                      ", ".join("%s = %.4g" % (k, round(v) if k in WHOLE else v)
                                for k, v in cur.items())))
            return 0
        t = table(rows, tmp)
    if "--check" in argv:
        doc = open(argv[argv.index("--check") + 1]).read()
        bad = 0
        for gpu, prec, timing, cfg, n, m, s, gm in t:
            pat = r"\|\s*%s\s*\|\s*%s\s*\|\s*%s\s*\|[^|]*\|[^|]*\|\s*([0-9.]+) %%" % (
                re.escape(gpu), prec, timing)
            hit = re.search(pat, doc)
            if hit is None:
                print("fit.py: %s %s %s: no row in the doc's table" % (gpu, prec, timing))
                bad = 1
            elif m > float(hit.group(1)) + 0.05:
                print("fit.py: %s %s %s: training MAE %.1f %% exceeds the doc's %s %%"
                      % (gpu, prec, timing, m, hit.group(1)))
                bad = 1
        return bad
    print("| GPU | precision | timing | config | rows | MAE | mean error | geo-mean pred/meas |")
    print("|---|---|---|---|---|---|---|---|")
    for gpu, prec, timing, cfg, n, m, s, gm in t:
        print("| %s | %s | %s | `%s` | %d | %.1f %% | %+.1f %% | %.2f |" % (
            gpu, prec, timing, cfg, n, m, s, gm))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
