#!/usr/bin/python3
"""Time every layer of a layers.csv on the local GPU and write the
gpu-cycles -m format (name,op,batch,in_c,in_h,in_w,out_c,out_h,out_w,
kernel_h,kernel_w,stride_h,stride_w,groups,dtype,ns).

Each layer runs alone as a PyTorch op with the row's geometry, batch and
dtype as given (fp16 by default), after a warm-up, timed with CUDA events
over many back-to-back calls (launch latency is then hidden, as in the
published kernel benchmarks gpu-model.md compares with).  Optional tool:
nothing in the flow needs it or Python.

usage: measure-layers.py [-d cuda|cpu] [-w warmup] [-r reps] layers.csv > measured.csv
"""
import argparse
import csv
import sys
import time

import torch
import torch.nn.functional as F

KEYS = ["batch", "in_c", "in_h", "in_w", "out_c", "out_h", "out_w",
        "kernel_h", "kernel_w", "stride_h", "stride_w", "groups"]
DT = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32}


def build(r, dev, dt):
    """A closure running the layer, or None for an op not timed here."""
    g = {k: int(r[k]) for k in KEYS}
    op = r["op"]
    t = lambda *s: torch.randn(*s, device=dev, dtype=dt)
    if op == "conv":
        x = t(g["batch"], g["in_c"], g["in_h"], g["in_w"])
        w = t(g["out_c"], g["in_c"] // g["groups"], g["kernel_h"], g["kernel_w"])
        pad = (int(r["pad_top"]), int(r["pad_left"]))
        stride = (g["stride_h"], g["stride_w"])
        dil = (int(r["dil_h"]), int(r["dil_w"]))
        return lambda: F.conv2d(x, w, None, stride, pad, dil, g["groups"])
    if op == "gemm":
        x = t(int(r["gemm_m"]), int(r["gemm_k"]))
        w = t(int(r["gemm_n"]), int(r["gemm_k"]))
        return lambda: F.linear(x, w)
    if op == "matmul":
        b, m, n, k = (int(r[c]) for c in ("gemm_batch", "gemm_m", "gemm_n", "gemm_k"))
        a, c = t(b, m, k), t(b, k, n)
        return lambda: torch.bmm(a, c)
    if op == "pool":
        x = t(g["batch"], g["in_c"], g["in_h"], g["in_w"])
        return lambda: F.max_pool2d(x, (g["kernel_h"], g["kernel_w"]),
                                    (g["stride_h"], g["stride_w"]))
    if op in ("eltwise", "act", "softmax", "norm"):
        x = t(g["batch"], g["in_c"], g["in_h"], g["in_w"])
        f = {"eltwise": lambda: x + x, "act": lambda: F.relu(x),
             "softmax": lambda: F.softmax(x, dim=1),
             "norm": lambda: F.layer_norm(x, x.shape[-1:])}
        return f[op]
    return None


def timeit(fn, dev, warm, reps):
    for _ in range(warm):
        fn()
    if dev == "cuda":
        torch.cuda.synchronize()
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(reps):
            fn()
        e.record()
        torch.cuda.synchronize()
        return s.elapsed_time(e) * 1e6 / reps
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.perf_counter() - t0) * 1e9 / reps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-d", default="cuda")
    ap.add_argument("-w", type=int, default=20)
    ap.add_argument("-r", type=int, default=100)
    ap.add_argument("layers")
    a = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["name", "op"] + KEYS + ["dtype", "ns"])
    seen = set()
    with open(a.layers, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["name"], r["op"]) + tuple(r[k] for k in KEYS) + (r["dtype"],)
            if key in seen or r["dtype"] not in DT:
                continue
            seen.add(key)
            fn = build(r, a.d, DT[r["dtype"]])
            if fn is None:
                continue
            with torch.no_grad():
                ns = timeit(fn, a.d, a.w, a.r)
            out.writerow(list(key) + ["%.3f" % ns])


if __name__ == "__main__":
    main()
