#!/usr/bin/python3
"""The GPU model's error distribution from its training files: error.csv.

Writes share/pimflow/gpu/error.csv (pf-solve -U, share/doc/uncertainty.md)
on stdout: for each GPU config, precision and kernel class (gemm, conv,
depthwise, elementwise) with training rows, the residuals
r = ln(predicted / measured) of the shipped model (the GEMM rows costed as
tests/gpu-fit/fit.py costs them; the convolution rows as one cuDNN call,
the `library` build) give
  bias    the mean of r;
  sys_sd  the part of the spread that whole groups of kernels share: the
          rows are grouped by the workload they come from (the app= of the
          notes, else the sheet of a workbook, else the source file); the between-group standard
          deviation by the method of moments (variance of the group means
          less their mean sampling variance, at least 0); with a single
          group, the standard error of the mean;
  ind_sd  the pooled within-group standard deviation: what is left to each
          kernel.
A row `*,*,CLASS` pools every GPU and precision of a class: its bias the
mean of all r, its sys_sd the standard deviation of the per-(GPU,
precision) biases about 0 (an unseen GPU can be off as much as a seen one
is, so the bias counts as error there), its ind_sd the pooled within sd.
Classes without any training row (depthwise, elementwise today) get the
pooled figures of every class, rows 0, proxy `all`.
Usage: band-error.py [conv-train.csv]  (default: share/pimflow/gpu/train/
gpu-measured-conv-train.csv; the GEMM set is fit.py's).
"""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit  # noqa: E402

CONV_CONFIG = {"T4": "t4", "V100-SXM2": "v100"}
CLASSES = ("gemm", "conv", "depthwise", "elementwise")


def conv_tasks(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(fit.COLS)
        for i, r in enumerate(rows):
            n, c, h, wd, k = (int(r[x]) for x in ("n", "c", "h", "w", "k"))
            kr, ks = int(r["r"]), int(r["s"])
            sh, sw = int(r["stride_h"]), int(r["stride_w"])
            ph, pw, g = int(r["pad_h"]), int(r["pad_w"]), int(r["groups"])
            oh = (h + 2 * ph - kr) // sh + 1
            ow = (wd + 2 * pw - ks) // sw + 1
            e, oe = int(r["elem_bytes"]), int(r["out_elem_bytes"])
            gk = c // g * kr * ks
            w.writerow([i, 0, 0, "base", "", 100, 0, "gpu", 0, "c%d" % i,
                        "conv", n, c, h, wd, k, oh, ow, kr, ks, sh, sw, ph,
                        pw, ph, pw, 1, 1, g, n * oh * ow, k, gk, 1, "none",
                        n * oh * ow * k * gk, n * c * h * wd * e,
                        k * gk * e, n * k * oh * ow * oe, r["precision"]])


def conv_predict(name, rows, tmp):
    t = os.path.join(tmp, "c.csv")
    conv_tasks(rows, t)
    out = subprocess.run([os.path.join(fit.BIN, "gpu-cycles"), "-c",
                          os.path.join(fit.SHARE, "gpu", name + ".conf"),
                          "-b", fit.BUILD, t], check=True,
                         capture_output=True, text=True).stdout
    return [float(g["ns"]) / 1e3 for g in csv.DictReader(out.splitlines())]


def cluster(r):
    m = re.search(r"app=([^;]+)", r.get("notes", ""))
    if m:
        return m.group(1).strip()
    src, _, at = r["source"].partition("#")
    # a sheet of a workbook ("Results FP32!row5"), else the file itself
    return at.split("!")[0] if "!" in at else src


def stats(res):
    """res: list of (cluster, r).  (bias, sys_sd, ind_sd)."""
    n = len(res)
    bias = sum(x for _, x in res) / n
    groups = {}
    for c, x in res:
        groups.setdefault(c, []).append(x)
    within = sum(sum((x - sum(v) / len(v)) ** 2 for x in v)
                 for v in groups.values())
    dfw = n - len(groups)
    sw2 = within / dfw if dfw > 0 else 0.0
    if len(groups) >= 2:
        means = [sum(v) / len(v) for v in groups.values()]
        mm = sum(means) / len(means)
        vb = sum((m - mm) ** 2 for m in means) / (len(means) - 1)
        vs = sum(sw2 / len(v) for v in groups.values()) / len(groups)
        sys_sd = math.sqrt(max(0.0, vb - vs))
    else:
        sys_sd = math.sqrt(sw2 / n)
    return bias, sys_sd, math.sqrt(sw2)


def main(argv):
    conv_path = argv[0] if argv else os.path.join(
        fit.SHARE, "gpu", "train", "gpu-measured-conv-train.csv")
    res = {}
    with tempfile.TemporaryDirectory() as tmp:
        g = fit.load()
        byc = {}
        for r in g:
            byc.setdefault(fit.CONFIG[r["gpu"]], []).append(r)
        for name, rs in sorted(byc.items()):
            for p, r in zip(fit.predict(name, rs, {}, tmp), rs):
                key = (name, r["precision"], "gemm")
                res.setdefault(key, []).append(
                    (cluster(r), math.log(p / float(r["measured_us"]))))
        with open(conv_path, newline="") as f:
            cv = list(csv.DictReader(f))
        byc = {}
        for r in cv:
            byc.setdefault(CONV_CONFIG[r["gpu"]], []).append(r)
        for name, rs in sorted(byc.items()):
            for p, r in zip(conv_predict(name, rs, tmp), rs):
                g_, c_ = int(r["groups"]), int(r["c"])
                cls = "depthwise" if g_ > 1 and g_ == c_ else "conv"
                key = (name, r["precision"], cls)
                res.setdefault(key, []).append(
                    (cluster(r), math.log(p / float(r["measured_us"]))))
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["gpu", "dtype", "class", "rows", "bias", "sys_sd", "ind_sd",
                "proxy"])
    for key in sorted(res):
        b, s, i = stats(res[key])
        w.writerow(list(key) + [len(res[key]), "%.4f" % b, "%.4f" % s,
                                "%.4f" % i, ""])
    allres = []
    pooled = {}
    for cls in CLASSES:
        keys = [k for k in res if k[2] == cls]
        if not keys:
            continue
        pooled[cls] = keys
        allres += keys
    for cls in CLASSES:
        keys = pooled.get(cls, allres)
        rs = [x for k in keys for x in res[k]]
        n = len(rs)
        bias = sum(x for _, x in rs) / n
        biases = [sum(x for _, x in res[k]) / len(res[k]) for k in keys]
        sys_sd = math.sqrt(sum(b * b for b in biases) / len(biases))
        within = sum(stats(res[k])[2] ** 2 * (len(res[k]) - 1) for k in keys)
        ind = math.sqrt(within / max(1, n - len(keys)))
        w.writerow(["*", "*", cls, n if cls in pooled else 0, "%.4f" % bias,
                    "%.4f" % sys_sd, "%.4f" % ind,
                    "" if cls in pooled else "all"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
