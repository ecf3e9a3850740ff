#!/usr/bin/python3
# split_torch.py: the torch oracle of pf-split's piece geometry for 3-D
# convolutions split along depth (axis d) and transposed convolutions
# split along output rows (axis h, their own halo rule, pf-split(1)), and
# both along output channels (axis n).  Optional regenerator: needs
# Debian's python3-torch and the built tools; the test that CI runs
# (split-geom.sh) needs neither torch nor this script.
#
#   /usr/bin/python3 tests/oracle/split_torch.py [BINDIR]
#
# It exports the layers below from torch (tests/oracle/split/layers.onnx,
# one graph input per layer), runs onnx2layers and pf-split on it, and for
# every split candidate runs each piece as a real torch convolution of its
# own (F.conv3d, F.conv_transpose2d) over the input slice its columns
# imply, with the piece's own pads, and joins the pieces: the join must be
# the whole layer's output exactly (float64, integer-valued data, so
# every sum is exact).  Where a piece starts is not read from pf-split
# but implied by the window arithmetic alone: output row (slice, channel)
# offsets add up over the pieces in file order, and the first input row
# of a forward piece is o0*stride - pad + its own pad (a transposed one:
# (o0 + pad - its own pad) / stride, which must divide).  Only when every
# piece is exact does it write the expectations, split/expect.csv: each
# piece's geometry columns as pf-split wrote them, the input and output
# offsets it derived, and exact = 1.
import csv
import io
import os
import subprocess
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "split")
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "bin")
SPLIT_ARGS = ["-e", "split-dil,split-grouped", "-p", "none"]
COLS = ["cand", "device", "layer", "axis", "in_c", "in_h", "in_w", "in_d",
        "out_c", "out_h", "out_w", "out_d", "pad_top", "pad_bottom",
        "pad_front", "pad_back", "groups", "macs"]

# (module, input shape): every kind of halo the rules distinguish.
LAYERS = [
    # 3-D convs: depth halo, depth stride 2 and 3, dilation, groups.
    (nn.Conv3d(3, 4, 3, padding=1), (1, 3, 8, 5, 5)),
    (nn.Conv3d(2, 4, 3, stride=(2, 1, 1), padding=1), (1, 2, 9, 4, 4)),
    (nn.Conv3d(2, 3, (2, 1, 1), dilation=(2, 1, 1), padding=(1, 0, 0)),
     (1, 2, 7, 3, 3)),
    (nn.Conv3d(4, 4, 3, stride=(3, 2, 2), padding=(0, 1, 1), groups=2),
     (1, 4, 10, 5, 5)),
    # transposed: UNet's k4 s2 p1, output_padding, k == s, k < s (rows no
    # input reaches), dilation and groups, k5 s3.
    (nn.ConvTranspose2d(4, 3, 4, stride=2, padding=1), (1, 4, 5, 5)),
    (nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1),
     (1, 3, 6, 4)),
    (nn.ConvTranspose2d(2, 3, 2, stride=2), (1, 2, 6, 3)),
    (nn.ConvTranspose2d(2, 2, 1, stride=3, output_padding=2), (1, 2, 4, 3)),
    (nn.ConvTranspose2d(4, 4, 3, padding=2, dilation=2, groups=2),
     (1, 4, 7, 5)),
    (nn.ConvTranspose2d(2, 3, 5, stride=3, padding=2, output_padding=1),
     (1, 2, 5, 4)),
]


class Zoo(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([m for m, _ in LAYERS])

    def forward(self, *xs):
        return tuple(m(x) for m, x in zip(self.layers, xs))


def run(cmd, stdin=None):
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s: exit %d: %s" % (cmd[0], r.returncode, r.stderr))
    return r.stdout


def ints(t):
    return t.copy_(torch.randint(-3, 4, t.shape, dtype=t.dtype))


def piece_out(m, x, w, p, in0, c_in0):
    """Output of piece p (a dict of its columns) as a torch conv of its own."""
    g = int(p["groups"])
    xs = x[:, c_in0:c_in0 + int(p["in_c"])]
    if isinstance(m, nn.Conv3d):
        d = int(p["in_d"])
        xs = xs[:, :, in0:in0 + d]
        pads = (m.padding[2], m.padding[2], m.padding[1], m.padding[1],
                int(p["pad_front"]), int(p["pad_back"]))
        y = F.conv3d(F.pad(xs, pads), w, stride=m.stride, dilation=m.dilation,
                     groups=g)
        return y
    h = int(p["in_h"])
    xs = xs[:, :, in0:in0 + h]
    full = F.conv_transpose2d(xs, w, stride=m.stride, dilation=m.dilation,
                              groups=g)
    # pads crop the unpadded output; past its end, output_padding adds
    # rows and columns no input reaches (zeros)
    top, oh = int(p["pad_top"]), int(p["out_h"])
    left, ow = m.padding[1], int(p["out_w"])
    y = full[:, :, top:top + oh, left:left + ow]
    return F.pad(y, (0, ow - y.shape[3], 0, oh - y.shape[2]))


def main():
    torch.manual_seed(12)
    os.makedirs(OUT, exist_ok=True)
    zoo = Zoo().double()
    for m in zoo.layers:
        ints(m.weight.data)
        m.bias.data.zero_()
    xs = [ints(torch.zeros(s, dtype=torch.float64)) for _, s in LAYERS]
    onnx_path = os.path.join(OUT, "layers.onnx")
    torch.onnx.export(zoo.float(), tuple(x.float() for x in xs), onnx_path,
                      input_names=["x%d" % i for i in range(len(xs))],
                      opset_version=13)
    zoo.double()
    layers = run([os.path.join(BIN, "onnx2layers"), onnx_path])
    tasks = run([os.path.join(BIN, "pf-split")] + SPLIT_ARGS, layers)
    rows = list(csv.DictReader(io.StringIO(tasks)))
    cands = {}
    for r in rows:
        if r["kind"] == "split":
            cands.setdefault(r["cand"], []).append(r)
    out, seen = [], set()
    for cand, ps in cands.items():
        li = int(ps[0]["layer"])
        m, x = zoo.layers[li], xs[li]
        with torch.no_grad():
            whole = m(x)
        ax = ps[0]["axis"]
        seen.add((type(m).__name__, ax))
        parts, o0 = [], 0
        for p in ps:
            tr = isinstance(m, nn.ConvTranspose2d)
            g = m.groups
            c_in0, w = 0, m.weight
            if ax == "n":
                oc = int(p["out_c"])
                if g > 1:
                    ocg, icg = m.out_channels // g, m.in_channels // g
                    g0 = o0 // ocg
                    c_in0 = g0 * icg
                    w = (m.weight[c_in0:c_in0 + int(p["in_c"])] if tr else
                         m.weight[o0:o0 + oc])
                else:
                    w = m.weight[:, o0:o0 + oc] if tr else m.weight[o0:o0 + oc]
                in0 = 0
                n = oc
            elif ax == "d":
                in0 = o0 * m.stride[0] - m.padding[0] + int(p["pad_front"])
                n = int(p["out_d"])
            else:
                num = o0 + m.padding[0] - int(p["pad_top"])
                if num % m.stride[0] != 0:
                    sys.exit("%s: piece %s: rows do not start on an input "
                             "row" % (cand, p["device"]))
                in0 = num // m.stride[0]
                n = int(p["out_h"])
            with torch.no_grad():
                y = piece_out(m, x, w, p, in0, c_in0)
            parts.append(y)
            p["in_row0"], p["row0"] = in0, o0
            o0 += n
        dim = {"n": 1, "d": 2, "h": 2}[ax]
        joined = torch.cat(parts, dim=dim)
        if joined.shape != whole.shape or not torch.equal(joined, whole):
            sys.exit("%s: the pieces joined are not the layer's output" % cand)
        for p in ps:
            p["exact"] = 1
            out.append(p)
    for want in (("Conv3d", "d"), ("Conv3d", "n"), ("ConvTranspose2d", "h"),
                 ("ConvTranspose2d", "n")):
        if want not in seen:
            sys.exit("no %s split along %s" % want)
    with open(os.path.join(OUT, "expect.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(COLS + ["in_row0", "row0", "exact"])
        for p in out:
            wr.writerow([p[c] for c in COLS] + [p["in_row0"], p["row0"],
                                                p["exact"]])
    print("%d candidates, %d pieces exact" % (len(cands), len(out)))


if __name__ == "__main__":
    main()
