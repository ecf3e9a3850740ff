#!/usr/bin/python3
# Builds the adversarial corpus tests/fuzz/seeds/<harness>/ from the
# golden inputs of each stage: every file is one golden table with one
# cell, or the framing, made hostile (negative, fractional, hexadecimal,
# infinite, NaN, past 64 bits, huge, empty, padded), or its header
# mangled (BOM, duplicate, missing column, CRLF, a NUL byte).  The files
# are committed; tests/fuzz/corpus.sh runs every stage over them and the
# fuzzing campaign (make fuzz) starts from them.  Rerun to change it:
#   /usr/bin/python3 tests/fuzz/make_corpus.py
import csv
import io
import os
import shutil

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SEEDS = os.path.join(TOP, "tests", "fuzz", "seeds")

VALUES = ["-1", "0", "2.5", "0x1p4", "inf", "nan", "-nan", "1e400",
          "9223372036854775807", "9223372036854775808",
          "-9223372036854775808", "", "1e17", " 3", "3 ", "+7", "1e3",
          "4294967296", "x" * 2048]

# harness: (golden input, columns to attack)
STAGES = {
    "split": ("tests/pf-split/mbv2block/in",
              ["batch", "in_c", "in_h", "out_h", "kernel_h", "stride_h",
               "pad_top", "groups", "gemm_m", "macs", "layer", "preds"]),
    "gpu": ("tests/gpu-cycles/basic/in",
            ["batch", "in_c", "out_c", "gemm_m", "gemm_k", "ratio",
             "pim_channels", "kernel_w", "in_bytes", "step"]),
    "pim": ("tests/pim-cycles/fill/in",
            ["batch", "in_c", "out_c", "gemm_n", "pim_channels",
             "pim_gwrite", "pim_hiding", "kernel_h", "in_w", "out_w"]),
    "merge": ("tests/pf-merge/basic/in",
              ["ns", "step", "ratio", "first", "last", "pim_gwrite"]),
    "solve": ("tests/pf-solve/all/in",
              ["ns", "gpu_ns", "pim_ns", "first", "last", "ratio",
               "pim_hiding"]),
}


def rows_of(path):
    with open(os.path.join(TOP, path), newline="") as f:
        return list(csv.reader(f))


def dump(rows, crlf=False):
    s = io.StringIO()
    csv.writer(s, lineterminator="\r\n" if crlf else "\n").writerows(rows)
    return s.getvalue().encode()


def main():
    total = 0
    if os.path.isdir(SEEDS):
        shutil.rmtree(SEEDS)
    for h, (src, cols) in STAGES.items():
        d = os.path.join(SEEDS, h)
        os.makedirs(d)
        rows = rows_of(src)
        head = rows[0]
        out = {}
        for c in cols:
            if c not in head:
                continue
            k = head.index(c)
            for i, v in enumerate(VALUES):
                r = [list(x) for x in rows]
                r[1 + (i % (len(rows) - 1))][k] = v
                out["%s-%02d" % (c, i)] = dump(r)
        out["bom"] = b"\xef\xbb\xbf" + dump(rows)
        out["crlf"] = dump(rows, crlf=True)
        out["dup-col"] = dump([head + [head[0]]] + [x + [x[0]] for x in rows[1:]])
        out["missing-col"] = dump([x[1:] for x in rows])
        out["header-only"] = dump(rows[:1])
        out["empty"] = b""
        out["nul"] = dump(rows).replace(b",", b"\0,", 1)
        out["short-row"] = dump(rows[:1] + [rows[1][:-1]] + rows[2:])
        out["many-rows"] = dump(rows[:1] + rows[1:] * 40)
        out["quoted"] = dump(rows).replace(b",", b',"",', 1)
        for name, data in sorted(out.items()):
            with open(os.path.join(d, name + ".csv"), "wb") as f:
                f.write(data)
        total += len(out)
    print("corpus: %d files" % total)


if __name__ == "__main__":
    main()
