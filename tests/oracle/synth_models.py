#!/usr/bin/python3
# synth_models.py DIR: writes small ONNX models, built with python3-onnx's
# helper API, that exercise the shape rules real exporters rarely combine
# in one model: auto_pad, asymmetric pads, non-square strides, dilation,
# groups, ceil_mode, Conv1d, ConvTranspose, a Pad folded into a Conv,
# Gemm with transA/transB, broadcasting batched MatMul, Softmax, opset
# differences (Unsqueeze/Squeeze/Split axes and Clip bounds as inputs at
# opset 13, attributes at opset 9), symbolic dims.  (Not opset 18: Debian's
# onnx 1.12, which the oracle's shape inference is, stops at opset 17.)
# Each model NAME.onnx comes with NAME.args (onnx2layers options, may be
# empty).  tests/oracle/synthetic.sh runs onnx2layers and the oracle on
# every one; the oracle derives all expected values itself.
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def w(name, *dims):
    """A float weight initializer of the given dims (small random data)."""
    return numpy_helper.from_array(
        np.random.RandomState(len(name)).randn(*dims).astype(np.float32),
        name)


def ints(name, vals):
    return numpy_helper.from_array(np.array(vals, np.int64), name)


def save(d, name, nodes, inputs, outputs, inits, opset=13, args=""):
    g = helper.make_graph(nodes, name, inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8 if opset >= 15 else 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(d, name + ".onnx"))
    with open(os.path.join(d, name + ".args"), "w") as f:
        f.write(args + "\n")


def vi(name, *dims):
    return helper.make_tensor_value_info(name, F, list(dims))


def main(d):
    os.makedirs(d, exist_ok=True)
    # 1. Convolutions: SAME_UPPER with stride 2 on odd sizes, SAME_LOWER,
    #    VALID, asymmetric explicit pads, non-square stride, dilation,
    #    groups, depthwise; pools with ceil_mode and asymmetric pads.
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c1"], name="same_upper",
                         auto_pad="SAME_UPPER", strides=[2, 2]),
        helper.make_node("Conv", ["c1", "w2"], ["c2"], name="same_lower",
                         auto_pad="SAME_LOWER", kernel_shape=[4, 4],
                         strides=[1, 2]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("Conv", ["r2", "w3", "b3"], ["c3"], name="asym",
                         pads=[0, 1, 2, 3], strides=[2, 1]),
        helper.make_node("Conv", ["c3", "w4"], ["c4"], name="dilated",
                         dilations=[2, 3], pads=[2, 3, 2, 3]),
        helper.make_node("Conv", ["c4", "w5"], ["c5"], name="grouped",
                         group=4, pads=[1, 1, 1, 1]),
        helper.make_node("Conv", ["c5", "w6"], ["c6"], name="depthwise",
                         group=16, pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("MaxPool", ["c6"], ["p1"], name="maxpool_ceil",
                         kernel_shape=[3, 3], strides=[2, 2], ceil_mode=1),
        helper.make_node("AveragePool", ["p1"], ["p2"], name="avgpool_asym",
                         kernel_shape=[2, 3], pads=[0, 1, 1, 0],
                         count_include_pad=1),
        helper.make_node("Conv", ["p2", "w7"], ["c7"], name="valid",
                         auto_pad="VALID", kernel_shape=[2, 2]),
        helper.make_node("GlobalAveragePool", ["c7"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten"),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], name="fc",
                         transB=1),
    ]
    inits = [w("w1", 8, 3, 3, 3), w("w2", 16, 8, 4, 4), w("w3", 16, 16, 3, 2),
             w("b3", 16), w("w4", 16, 16, 3, 3), w("w5", 16, 4, 3, 3),
             w("w6", 16, 1, 3, 3), w("w7", 32, 16, 2, 2), w("wf", 10, 32),
             w("bf", 10)]
    save(d, "conv_geometry", nodes, [vi("x", 1, 3, 37, 41)],
         [vi("y", 1, 10)], inits)

    # 2. Conv1d, ConvTranspose, a zero Pad folded into the next Conv, a
    #    symbolic batch given with -i.
    nodes = [
        helper.make_node("Conv", ["s", "k1"], ["s1"], name="conv1d",
                         pads=[2, 1], strides=[2]),
        helper.make_node("Sigmoid", ["s1"], ["sg"], name="sig"),
        helper.make_node("Mul", ["s1", "sg"], ["s2"], name="silu_mul"),
        helper.make_node("Unsqueeze", ["s2", "ax"], ["u"], name="unsq"),
        helper.make_node("ConvTranspose", ["u", "kt"], ["t"], name="deconv",
                         strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 0]),
        helper.make_node("Pad", ["t", "pads", "zero"], ["tp"], name="pad"),
        helper.make_node("Conv", ["tp", "k2"], ["y"], name="after_pad"),
    ]
    inits = [w("k1", 12, 6, 5), ints("ax", [2]), w("kt", 12, 8, 3, 3),
             ints("pads", [0, 0, 1, 2, 0, 0, 3, 0]),
             numpy_helper.from_array(np.array(0, np.float32), "zero"),
             w("k2", 4, 8, 3, 3)]
    save(d, "conv1d_deconv_pad",
         nodes, [helper.make_tensor_value_info("s", F, ["N", 6, 50])],
         [helper.make_tensor_value_info("y", F, ["N", 4, 4, 49])], inits,
         args="-i s=3x6x50")

    # 3. Attention-like MatMuls: weight products (gemm, with a bias Add),
    #    Gemm with transA, broadcasting batched MatMul of activations,
    #    Softmax, LayerNormalization op (opset 17).
    nodes = [
        helper.make_node("MatMul", ["a", "wq"], ["q0"], name="proj_q"),
        helper.make_node("Add", ["q0", "bq"], ["q"], name="proj_q_bias"),
        helper.make_node("MatMul", ["a", "wk"], ["k"], name="proj_k"),
        helper.make_node("Reshape", ["q", "hs"], ["qh"], name="rq"),
        helper.make_node("Transpose", ["qh"], ["qt"], name="tq",
                         perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["k", "hs"], ["kh"], name="rk"),
        helper.make_node("Transpose", ["kh"], ["kt"], name="tk",
                         perm=[0, 2, 3, 1]),
        helper.make_node("MatMul", ["qt", "kt"], ["s"], name="qk"),
        helper.make_node("Softmax", ["s"], ["p"], name="softmax", axis=-1),
        helper.make_node("MatMul", ["p", "bc"], ["o"], name="pv_bcast"),
        helper.make_node("Transpose", ["o"], ["ot"], name="to",
                         perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["ot", "flat"], ["of"], name="ro"),
        helper.make_node("LayerNormalization", ["of", "lns", "lnb"], ["ln"],
                         name="layernorm", axis=-1),
        helper.make_node("Reshape", ["ln", "two_d"], ["l2"], name="r2d"),
        helper.make_node("Transpose", ["l2"], ["l2t"], name="t2d",
                         perm=[1, 0]),
        helper.make_node("Gemm", ["l2t", "wo"], ["y"], name="gemm_transA",
                         transA=1, alpha=0.5),
    ]
    inits = [w("wq", 32, 32), w("bq", 32), w("wk", 32, 32),
             ints("hs", [2, 7, 4, 8]), ints("flat", [2, 7, 32]),
             ints("two_d", [14, 32]), w("lns", 32), w("lnb", 32),
             w("wo", 32, 5)]
    # v goes through a Relu so that it is an activation, not a weight.
    nodes.insert(0, helper.make_node("Relu", ["v"], ["bc"], name="v_relu"))
    save(d, "attention_matmul", nodes,
         [vi("a", 2, 7, 32), vi("v", 1, 4, 7, 8)], [vi("y", 14, 5)],
         inits, opset=17)

    # 4. Opset differences: Split/Squeeze/Unsqueeze axes and Clip bounds
    #    as inputs (13), ReduceMean over H and W as global pooling,
    #    HardSigmoid*x (hardswish).
    nodes = [
        helper.make_node("Conv", ["x", "w1"], ["c"], name="conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Clip", ["c", "lo", "hi"], ["r6"], name="relu6"),
        helper.make_node("Split", ["r6", "sp"], ["s1", "s2"], name="split",
                         axis=1),
        helper.make_node("HardSigmoid", ["s1"], ["hs"], name="hsig",
                         alpha=1.0 / 6),
        helper.make_node("Mul", ["s1", "hs"], ["hw"], name="hswish_mul"),
        helper.make_node("Concat", ["hw", "s2"], ["cat"], name="concat",
                         axis=1),
        helper.make_node("ReduceMean", ["cat"], ["gm"], name="gpool",
                         axes=[2, 3], keepdims=0),
        helper.make_node("Unsqueeze", ["gm", "ax2"], ["gu"], name="unsq"),
        helper.make_node("Squeeze", ["gu", "ax2"], ["y"], name="sq"),
    ]
    inits = [w("w1", 12, 3, 3, 3),
             numpy_helper.from_array(np.array(0, np.float32), "lo"),
             numpy_helper.from_array(np.array(6, np.float32), "hi"),
             ints("sp", [4, 8]), ints("ax2", [2])]
    save(d, "opset13_args", nodes, [vi("x", 2, 3, 20, 24)], [vi("y", 2, 12)],
         inits, opset=13)
    # Same graph at opset 9: attribute forms.
    nodes9 = [
        helper.make_node("Conv", ["x", "w1"], ["c"], name="conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Clip", ["c"], ["r6"], name="relu6", min=0.0,
                         max=6.0),
        helper.make_node("Split", ["r6"], ["s1", "s2"], name="split",
                         axis=1, split=[4, 8]),
        helper.make_node("Concat", ["s1", "s2"], ["cat"], name="concat",
                         axis=1),
        helper.make_node("ReduceMean", ["cat"], ["gm"], name="gpool",
                         axes=[2, 3], keepdims=0),
        helper.make_node("Unsqueeze", ["gm"], ["gu"], name="unsq", axes=[2]),
        helper.make_node("Squeeze", ["gu"], ["y"], name="sq", axes=[2]),
    ]
    save(d, "opset9_attrs", nodes9, [vi("x", 2, 3, 20, 24)], [vi("y", 2, 12)],
         [inits[0]], opset=9)

    # 6. The norms F.normalize and torch.norm export as (torch 1.13 at
    #    opset 13): ConvNeXt-V2's GRN in channels-last, torch.norm(x, p=2,
    #    dim=(1, 2), keepdim=True) -> ReduceL2, then Gx / (Gx.mean(-1) +
    #    eps); Swin-V2's cosine attention, F.normalize(q, dim=-1) @
    #    F.normalize(k, dim=-1)^T -> ReduceL2 keepdims, Clip(min=eps),
    #    Expand to x's shape, Div; torch.norm(p=1) -> ReduceL1.
    nodes = [
        helper.make_node("ReduceL2", ["x"], ["gx"], name="grn_norm",
                         axes=[1, 2], keepdims=1),
        helper.make_node("ReduceMean", ["gx"], ["gm"], name="grn_mean",
                         axes=[-1], keepdims=1),
        helper.make_node("Add", ["gm", "eps"], ["ge"], name="grn_eps"),
        helper.make_node("Div", ["gx", "ge"], ["nx"], name="grn_div"),
        helper.make_node("Mul", ["x", "nx"], ["xn"], name="grn_mul"),
        helper.make_node("Mul", ["xn", "gamma"], ["xg"], name="grn_gamma"),
        helper.make_node("Add", ["xg", "beta"], ["xb"], name="grn_beta"),
        helper.make_node("Add", ["xb", "x"], ["g"], name="grn_res"),
        helper.make_node("ReduceL1", ["g"], ["y1"], name="l1_norm",
                         axes=[3], keepdims=0),
    ]
    inits = [numpy_helper.from_array(np.array(1e-6, np.float32), "eps"),
             w("gamma", 1, 1, 1, 32), w("beta", 1, 1, 1, 32)]
    save(d, "grn_norm", nodes, [vi("x", 2, 7, 7, 32)],
         [vi("g", 2, 7, 7, 32), vi("y1", 2, 7, 7)], inits)
    nodes = []
    for t in ("q", "k"):
        nodes += [
            helper.make_node("ReduceL2", [t], [t + "n"], name=t + "_l2",
                             axes=[-1], keepdims=1),
            helper.make_node("Clip", [t + "n", "tiny"], [t + "c"],
                             name=t + "_clip"),
            helper.make_node("Shape", [t], [t + "s"], name=t + "_shape"),
            helper.make_node("Expand", [t + "c", t + "s"], [t + "e"],
                             name=t + "_expand"),
            helper.make_node("Div", [t, t + "e"], [t + "u"],
                             name=t + "_div"),
        ]
    nodes += [
        helper.make_node("Transpose", ["ku"], ["kt"], name="kt",
                         perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["qu", "kt"], ["sc"], name="cos_attn"),
        helper.make_node("Mul", ["sc", "scale"], ["ss"], name="logit_scale"),
        helper.make_node("Softmax", ["ss"], ["y"], name="softmax",
                         axis=-1),
    ]
    inits = [numpy_helper.from_array(np.array(1e-12, np.float32), "tiny"),
             w("scale", 1, 4, 1, 1)]
    save(d, "cosine_attention", nodes,
         [vi("q", 1, 4, 49, 16), vi("k", 1, 4, 49, 16)],
         [vi("y", 1, 4, 49, 49)], inits)


if __name__ == "__main__":
    main(sys.argv[1])
