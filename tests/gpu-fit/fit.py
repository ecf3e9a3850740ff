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
SHARE = os.environ.get("PIMFLOW_SHARE", os.path.join(TOP, "share", "pimflow"))
TRAIN = os.path.join(SHARE, "gpu", "train", "gpu-measured-train.csv")
CONV_TRAIN = os.path.join(SHARE, "gpu", "train", "gpu-measured-conv-train.csv")
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
# The convolution constants, fitted to the config's conv rows alone
# (gpu-measured-conv-train.csv) with the GEMM constants as they are.
FIT_CONV = {
    "t4": [("conv_fixed_ns", 0, 40000), ("conv_kstep_cycles", 0, 4000),
           ("wino_eff_math", 0.1, 1.0)],
    "v100": [("conv_fixed_ns", 0, 40000), ("conv_kstep_cycles", 0, 4000),
             ("wino_eff_math", 0.1, 1.0)],
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


def conv_geometry(r):
    """The conv row's geometry as run: C and K from the notes where the
    benchmark padded them for tensor cores ("measured C=8 K=32")."""
    c, k = int(r["c"]), int(r["k"])
    hit = re.search(r"measured C=(\d+) K=(\d+)", r["notes"])
    if hit:
        c, k = int(hit.group(1)), int(hit.group(2))
    n, h, w = int(r["n"]), int(r["h"]), int(r["w"])
    fr, fs = int(r["r"]), int(r["s"])
    sh, sw = int(r["stride_h"]), int(r["stride_w"])
    ph, pw = int(r["pad_h"]), int(r["pad_w"])
    g = int(r["groups"])
    p = (h + 2 * ph - fr) // sh + 1
    q = (w + 2 * pw - fs) // sw + 1
    return n, c, h, w, k, fr, fs, sh, sw, ph, pw, g, p, q


def conv_class(r):
    g, c = int(r["groups"]), int(r["c"])
    return "depthwise" if g > 1 and g == c else "conv"


def load():
    """Training rows of both files, each with its op class and the shape
    family it belongs to (the group of error.csv's sys_sd)."""
    with open(TRAIN, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["class"] = "gemm"
        app = re.search(r"app=([^;]*)", r["notes"])
        r["family"] = "%s:%s:K=%s" % (r["source"].split("#")[0].split(":")[-1],
                                      app.group(1) if app else "",
                                      r["in_features"])
    with open(CONV_TRAIN, newline="") as f:
        conv = list(csv.DictReader(f))
    for r in conv:
        r["class"] = conv_class(r)
        app = re.search(r"app=([^;]*)", r["notes"])
        r["family"] = "%s:%s" % (app.group(1) if app else "", r["r"] + "x" + r["s"])
        algo = re.search(r"algo=([A-Z_]+)", r["notes"])
        r["algo"] = algo.group(1) if algo else ""
    return rows + conv


def tasks(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLS)
        for i, r in enumerate(rows):
            e, oe = int(r["elem_bytes"]), int(r["out_elem_bytes"])
            if r["class"] == "gemm":
                m, k, n = int(r["rows"]), int(r["in_features"]), int(r["out_features"])
                w.writerow([i, 0, 0, "base", "", 100, 0, "gpu", 0, "r%d" % i,
                            "gemm", m, k, 1, 1, n, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0,
                            1, 1, 1, m, n, k, 1, "none", m * n * k, m * k * e,
                            k * n * e, m * n * oe, r["precision"]])
                continue
            n, c, h, wd, k, fr, fs, sh, sw, ph, pw, g, p, q = conv_geometry(r)
            gm, gn, gk = n * p * q, k // g, c // g * fr * fs
            w.writerow([i, 0, 0, "base", "", 100, 0, "gpu", 0, "r%d" % i,
                        "conv", n, c, h, wd, k, p, q, fr, fs, sh, sw, ph, pw,
                        ph, pw, 1, 1, g, gm, gn, gk, g, "none",
                        g * gm * gn * gk, n * c * h * wd * e,
                        k * (c // g) * fr * fs * e, n * k * p * q * oe,
                        r["precision"]])


# Keys counted in whole units (cycles): gpu-cycles refuses a fraction.
WHOLE = {"kstep_cycles", "fill_cycles", "launch_cycles", "conv_kstep_cycles"}


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
    if not over:
        for g, r in zip(got, rows):
            r["bound"] = g["bound"]
            r["model_tile"] = g["gpu_tile"]
            r["model_kernels"] = g["kernels"]
    return [float(g["ns"]) / 1e3 + HOST_US[r["timing"]] for g, r in zip(got, rows)]


def err(pred, rows):
    return [p / float(r["measured_us"]) - 1 for p, r in zip(pred, rows)]


def mae(e):
    return sum(abs(x) for x in e) / len(e)


def fit(name, rows, tmp, cls="gemm"):
    """Coordinate descent (golden-section per key, 4 sweeps) on MAE, over
    the GEMM constants and GEMM rows (cls gemm) or the conv constants and
    conv rows (cls conv)."""
    keys = FIT[name] if cls == "gemm" else FIT_CONV[name]
    with open(os.path.join(SHARE, "gpu", name + ".conf")) as f:
        s = f.read()
    cur = {k: float(re.search(r"(?m)^%s = (\S+)" % k, s).group(1)) for k, _, _ in keys}
    sel = [r for r in rows if FIT_ROWS[name](r) and
           (r["class"] == "gemm") == (cls == "gemm")]
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


def predictions(rows, tmp):
    """Predicted microseconds of every row, by id(row), with the shipped configs."""
    byc = {}
    for r in rows:
        byc.setdefault(CONFIG[r["gpu"]], []).append(r)
    pred = {}
    for name, rs in byc.items():
        for p, r in zip(predict(name, rs, {}, tmp), rs):
            pred[id(r)] = p
    return pred


def table(rows, pred):
    groups = {}
    for r in rows:
        groups.setdefault((r["gpu"], r["precision"], r["class"], r["timing"]), []).append(r)
    out = []
    for key in sorted(groups):
        rs = groups[key]
        e = err([pred[id(r)] for r in rs], rs)
        gm = math.exp(sum(math.log(1 + x) for x in e) / len(e))
        out.append(key + (CONFIG[key[0]], len(rs), 100 * mae(e),
                          100 * sum(e) / len(e), gm))
    return out


# error.csv: the measured boards each config's residuals come from.
ERR_BOARDS = {"t4": ["T4"], "v100": ["V100-SXM2", "V100-PCIe-32GB"],
              "a100": ["A100", "A100-PCIe-40GB", "A100-PCIe-80GB"],
              "h100": ["H100-SXM5-80GB"]}
ERR_ARCH = {"t4": "Turing", "v100": "Volta", "a100": "Ampere", "h100": "Hopper"}
# Where a config's own residuals run out, the measured configs looked at,
# nearest architecture first (the shipped configs without a board of
# their own start from their nearest measured one).
ERR_NEAR = {
    "t4": ["t4", "v100"], "v100": ["v100", "t4"],
    "a100": ["a100", "v100", "t4"], "h100": ["h100", "a100", "v100", "t4"],
    "rtx2060-ideal": ["t4", "v100"], "rtx2060-sim": ["t4", "v100"],
    "rtx2070": ["t4", "v100"], "rtx2080ti": ["t4", "v100"],
    "gtx1080ti": ["v100", "t4"], "h200": ["h100", "a100", "v100", "t4"],
}
# The dtypes whose residuals stand in for a dtype, in order.
ERR_DTYPES = {"fp16": ["fp16", "bf16"], "bf16": ["bf16", "fp16"],
              "fp32": ["fp32"], "int8": ["int8"]}
# The classes whose residuals stand in for a class, in order (no
# depthwise conv is measured; elementwise kernels stream memory as the
# GEMMs the model finds memory-bound do; an int8 conv has only GEMMs).
ERR_CLASSES = {"gemm": ["gemm"], "conv": ["conv", "gemm"],
               "depthwise": ["depthwise", "conv", "gemm"],
               "elementwise": ["elementwise", "gemm-memory", "gemm"]}


def stats(rs, pred):
    """rows, bias, sys_sd, ind_sd of ln(pred/meas) over rows rs
    (share/doc/gpu-model.md, "The error table")."""
    x = [math.log(pred[id(r)] / float(r["measured_us"])) for r in rs]
    n = len(x)
    bias = sum(x) / n
    ind = math.sqrt(sum((v - bias) ** 2 for v in x) / (n - 1)) if n > 1 else 0.0
    fam = {}
    for v, r in zip(x, rs):
        fam.setdefault(r["family"], []).append(v)
    means = [sum(v) / len(v) for v in fam.values()]
    if len(means) > 1:
        mm = sum(means) / len(means)
        sys_sd = math.sqrt(sum((v - mm) ** 2 for v in means) / (len(means) - 1))
    else:
        sys_sd = ind
    return n, bias, sys_sd, ind


def has_int8(cfg):
    with open(os.path.join(SHARE, "gpu", cfg + ".conf")) as f:
        s = f.read()
    return any(float(re.search(r"(?m)^%s = (\S+)" % k, s).group(1)) > 0
               for k in ("tc_flop_per_sm_cycle_int8", "cuda_flop_per_sm_cycle_int8"))


def error_rows(rows, pred):
    """The rows of error.csv: per config, dtype and op class."""
    have = {}
    for cfg, boards in ERR_BOARDS.items():
        for r in rows:
            if r["gpu"] not in boards:
                continue
            have.setdefault((cfg, r["precision"], r["class"]), []).append(r)
            if r["class"] == "gemm" and r.get("bound") == "memory":
                have.setdefault((cfg, r["precision"], "gemm-memory"), []).append(r)
    out = []
    for cfg in sorted(ERR_NEAR):
        for dt in ERR_DTYPES:
            if dt == "int8" and not has_int8(cfg):
                continue
            for cl in ERR_CLASSES:
                hit = None
                for c2 in ERR_CLASSES[cl]:
                    for base in ERR_NEAR[cfg]:
                        for d2 in ERR_DTYPES[dt]:
                            if hit is None and (base, d2, c2) in have:
                                hit = (base, d2, c2)
                if hit is None:
                    continue
                base, d2, c2 = hit
                n, b, ss, si = stats(have[hit], pred)
                proxy = "" if hit == (cfg, dt, cl) else "%s %s %s rows%s" % (
                    base, d2, "memory-bound gemm" if c2 == "gemm-memory" else c2,
                    "" if base == cfg else " (%s)" % ERR_ARCH[base])
                out.append([cfg, dt, cl, n, "%.4f" % b, "%.4f" % ss, "%.4f" % si,
                            proxy])
    return out


def main(argv):
    rows = load()
    with tempfile.TemporaryDirectory() as tmp:
        if "--fit" in argv or "--fit-conv" in argv:
            todo = [] if "--fit-conv" in argv else [(n, "gemm") for n in FIT]
            todo += [(n, "conv") for n in FIT_CONV]
            for name, cls in todo:
                cur, best, n = fit(name, rows, tmp, cls)
                print("%s (%s rows): %d rows, MAE %.1f %%: %s" % (
                      name, cls, n, 100 * best,
                      ", ".join("%s = %.4g" % (k, round(v) if k in WHOLE else v)
                                for k, v in cur.items())))
            return 0
        pred = predictions(rows, tmp)
    t = table(rows, pred)
    if "--err" in argv:
        path = argv[argv.index("--err") + 1]
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["gpu", "dtype", "class", "rows", "bias", "sys_sd",
                        "ind_sd", "proxy"])
            w.writerows(error_rows(rows, pred))
    if "--check" in argv:
        doc = open(argv[argv.index("--check") + 1]).read()
        bad = 0
        for gpu, prec, cl, timing, cfg, n, m, s, gm in t:
            pat = r"\|\s*%s\s*\|\s*%s\s*\|\s*%s\s*\|\s*%s\s*\|[^|]*\|[^|]*\|\s*([0-9.]+) %%" % (
                re.escape(gpu), prec, cl, timing)
            hit = re.search(pat, doc)
            if hit is None:
                print("fit.py: %s %s %s %s: no row in the doc's table" % (gpu, prec, cl, timing))
                bad = 1
            elif m > float(hit.group(1)) + 0.05:
                print("fit.py: %s %s %s %s: training MAE %.1f %% exceeds the doc's %s %%"
                      % (gpu, prec, cl, timing, m, hit.group(1)))
                bad = 1
        return bad
    print("| GPU | precision | class | timing | config | rows | MAE | mean error | geo-mean pred/meas |")
    print("|---|---|---|---|---|---|---|---|---|")
    for gpu, prec, cl, timing, cfg, n, m, s, gm in t:
        print("| %s | %s | %s | %s | `%s` | %d | %.1f %% | %+.1f %% | %.2f |" % (
            gpu, prec, cl, timing, cfg, n, m, s, gm))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
