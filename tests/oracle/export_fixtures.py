#!/usr/bin/python3
# export_fixtures.py [DIR]: writes the small PyTorch-exported test fixtures
# of tests/oracle/fixtures/ (committed; rerun only to regenerate them) with
# Debian's python3-torch.  Each NAME.onnx has NAME.args, the onnx2layers
# options synthetic.sh passes.  These are what the exporter really emits
# for constructs the bundled models lack:
#  - pad_chain_dyn: an asymmetric F.pad on an input with symbolic dims,
#    which torch exports as a chain of Shape/Slice/Concat/Reshape/... nodes
#    computing the Pad's pads at run time, then a Conv, nearest and
#    bilinear F.interpolate (Resize with computed sizes), LeakyReLU, ELU,
#    Softplus, Tanh, PReLU, max and average pooling with ceil_mode, and
#    LogSoftmax;
#  - conv1d_dyn: Conv1d/MaxPool1d/BatchNorm1d/GELU over [N, C, L] with
#    symbolic N and L.
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class PadChain(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, stride=(2, 1))
        self.conv2 = nn.Conv2d(8, 8, (1, 3), padding=(0, 1), groups=2)
        self.prelu = nn.PReLU(8)

    def forward(self, x):
        x = F.pad(x, (1, 2, 0, 3))
        x = F.leaky_relu(self.conv(x), 0.1)
        x = F.interpolate(x, scale_factor=2, mode="nearest")
        x = F.elu(self.conv2(x))
        x = F.max_pool2d(x, 3, 2, ceil_mode=True)
        x = F.softplus(x)
        x = F.avg_pool2d(x, 2, ceil_mode=True, count_include_pad=False)
        x = torch.tanh(x)
        x = F.interpolate(x, size=(7, 9), mode="bilinear",
                          align_corners=False)
        x = self.prelu(x)
        return F.log_softmax(x.flatten(1), dim=1)


class Conv1d(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(4, 16, 5, padding=2)
        self.bn = nn.BatchNorm1d(16)
        self.c2 = nn.Conv1d(16, 16, 3, stride=2, dilation=2, groups=4)

    def forward(self, x):
        x = F.gelu(self.bn(self.c1(x)))
        x = F.max_pool1d(x, 2)
        return torch.sigmoid(self.c2(x))


def export(d, name, m, x, axes, args):
    torch.manual_seed(0)
    m.eval()
    path = os.path.join(d, name + ".onnx")
    torch.onnx.export(m, (x,), path, opset_version=13, input_names=["x"],
                      output_names=["y"], dynamic_axes={"x": axes})
    with open(os.path.join(d, name + ".args"), "w") as f:
        f.write(args + "\n")
    print(path, os.path.getsize(path))


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "fixtures")
    torch.manual_seed(0)
    export(d, "pad_chain_dyn", PadChain(), torch.randn(1, 3, 20, 24),
           {0: "n", 2: "h", 3: "w"}, "-i x=2x3x21x30")
    export(d, "conv1d_dyn", Conv1d(), torch.randn(1, 4, 50),
           {0: "n", 2: "l"}, "-i x=3x4x77")


if __name__ == "__main__":
    main()
