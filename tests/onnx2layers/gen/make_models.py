#!/usr/bin/python3
# Builds the small ONNX models the onnx2layers golden cases read, with
# python3-onnx's helper API (and python3-torch for the F.pad chain).  The
# generated files are committed, so the tests need no python; rerun this
# only to change a model:  /usr/bin/python3 tests/onnx2layers/gen/make_models.py
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models")
F = T.FLOAT


def vi(name, dims, t=F):
    return h.make_tensor_value_info(name, t, dims)


def w(name, dims, t=F):
    """A float weight with zero values (dims are all that matter)."""
    return numpy_helper.from_array(np.zeros(dims, np.float32 if t == F
                                            else np.int64), name)


def bigdims(name, dims):
    """A tensor proto with the given dims and no data (too large to hold)."""
    t = T()
    t.name = name
    t.data_type = F
    t.dims.extend(dims)
    return t


def iw(name, vals):
    return numpy_helper.from_array(np.array(vals, np.int64), name)


def fw(name, vals):
    return numpy_helper.from_array(np.array(vals, np.float32), name)


def save(name, nodes, inputs, outputs, inits=(), opset=13, vinfo=(),
         check=False):
    g = h.make_graph(nodes, name, inputs, outputs, list(inits),
                     value_info=list(vinfo))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)],
                     producer_name="make_models.py")
    m.ir_version = 7 if opset < 15 else 8
    if check:
        onnx.checker.check_model(m)
    onnx.save(m, os.path.join(OUT, name + ".onnx"))


def N(op, ins, outs, name=None, **kw):
    return h.make_node(op, ins, outs, name=name or outs[0], **kw)


def main():
    os.makedirs(OUT, exist_ok=True)
    # A plain CNN: Conv+BN+Relu, MaxPool, Conv+Relu, GlobalAveragePool,
    # Flatten, Gemm (opset 13).
    save("cnn", [
        N("Conv", ["x", "w1", "b1"], ["c1"], kernel_shape=[3, 3],
          pads=[1, 1, 1, 1]),
        N("BatchNormalization", ["c1", "s", "bb", "mu", "var"], ["bn"]),
        N("Relu", ["bn"], ["r1"]),
        N("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        N("Conv", ["p1", "w2"], ["c2"], kernel_shape=[3, 3], strides=[2, 2]),
        N("Relu", ["c2"], ["r2"]),
        N("GlobalAveragePool", ["r2"], ["gp"]),
        N("Flatten", ["gp"], ["fl"]),
        N("Gemm", ["fl", "wf", "bf"], ["y"], transB=1),
    ], [vi("x", [1, 3, 32, 32])], [vi("y", [1, 10])],
        [w("w1", [16, 3, 3, 3]), w("b1", [16]), w("s", [16]), w("bb", [16]),
         w("mu", [16]), w("var", [16]), w("w2", [32, 16, 3, 3]),
         w("wf", [10, 32]), w("bf", [10])])
    # Conv geometry: non-square kernel and strides, asymmetric pads,
    # dilation, groups; a depthwise conv with Clip(0,6) as inputs.
    save("conv_geom", [
        N("Conv", ["x", "w1"], ["c1"], kernel_shape=[3, 5], strides=[2, 1],
          pads=[0, 1, 2, 3], dilations=[2, 1], group=2),
        N("Conv", ["c1", "w2"], ["c2"], kernel_shape=[3, 3], group=8,
          pads=[1, 1, 1, 1]),
        N("Clip", ["c2", "lo", "hi"], ["y"]),
    ], [vi("x", [1, 4, 17, 20])], [vi("y", None)],
        [w("w1", [8, 2, 3, 5]), w("w2", [8, 1, 3, 3]), fw("lo", 0.0),
         fw("hi", 6.0)], opset=11)
    # auto_pad SAME_UPPER / SAME_LOWER / VALID on odd sizes.
    save("autopad", [
        N("Conv", ["x", "w1"], ["c1"], kernel_shape=[4, 4], strides=[2, 2],
          auto_pad="SAME_UPPER"),
        N("Conv", ["c1", "w2"], ["c2"], kernel_shape=[4, 3], strides=[3, 2],
          auto_pad="SAME_LOWER"),
        N("Conv", ["c2", "w3"], ["y"], kernel_shape=[2, 2], strides=[2, 2],
          auto_pad="VALID"),
    ], [vi("x", [1, 3, 15, 13])], [vi("y", None)],
        [w("w1", [4, 3, 4, 4]), w("w2", [4, 4, 4, 3]), w("w3", [4, 4, 2, 2])],
        opset=11)
    # Pools: ceil_mode (the last window starts inside), count_include_pad,
    # dilation (opset 10 MaxPool), global max pool.
    save("pool", [
        N("MaxPool", ["x"], ["p1"], kernel_shape=[3, 3], strides=[2, 2],
          ceil_mode=1),
        N("AveragePool", ["p1"], ["p2"], kernel_shape=[3, 2],
          strides=[2, 2], pads=[1, 0, 1, 1], count_include_pad=1,
          ceil_mode=1),
        N("MaxPool", ["p2"], ["p3"], kernel_shape=[2, 2], dilations=[2, 2]),
        N("GlobalMaxPool", ["p3"], ["y"]),
    ], [vi("x", [1, 8, 112, 57])], [vi("y", None)], opset=10)
    # numpy broadcasting of elementwise ops.
    save("broadcast", [
        N("Add", ["x", "b3"], ["a"]),
        N("Mul", ["a", "row"], ["m"]),
        N("Sub", ["m", "x"], ["s"]),
        N("Div", ["s", "sc"], ["y"]),
    ], [vi("x", [2, 3, 8, 8])], [vi("y", None)],
        [w("b3", [3, 1, 1]), w("row", [1, 1, 8, 1]), fw("sc", 2.0)])
    # Opset 9: Upsample scales input, Pad and Slice and Squeeze/Unsqueeze
    # attributes, Clip min/max attributes.
    save("opset9", [
        N("Upsample", ["x", "sc"], ["u"], mode="nearest"),
        N("Pad", ["u"], ["p"], pads=[0, 0, 1, 2, 0, 0, 3, 4]),
        N("Slice", ["p"], ["sl"], starts=[1, 0], ends=[-1, 1000],
          axes=[2, 3]),
        N("Clip", ["sl"], ["cl"], min=0.0, max=6.0),
        N("ReduceMean", ["cl"], ["rm"], axes=[1], keepdims=0),
        N("Unsqueeze", ["rm"], ["un"], axes=[1]),
        N("Squeeze", ["un"], ["y"], axes=[1]),
    ], [vi("x", [1, 2, 5, 6])], [vi("y", None)],
        [fw("sc", [1, 1, 2, 2])], opset=9)
    # Opset 10: Resize(X, scales), Slice with inputs and a negative step.
    save("opset10", [
        N("Resize", ["x", "sc"], ["r"], mode="nearest"),
        N("Slice", ["r", "st", "en", "ax", "sp"], ["y"]),
    ], [vi("x", [1, 2, 5, 6])], [vi("y", None)],
        [fw("sc", [1, 1, 1.5, 2]), iw("st", [-1, 0]), iw("en", [-100, 12]),
         iw("ax", [2, 3]), iw("sp", [-2, 3])], opset=10)
    # Opset 11: Pad pads input, Clip inputs, Resize roi/scales/sizes.
    save("opset11", [
        N("Pad", ["x", "pads"], ["p"]),
        N("Clip", ["p", "lo"], ["c"]),
        N("Resize", ["c", "roi", "", "sizes"], ["y"], mode="linear"),
    ], [vi("x", [1, 2, 5, 6])], [vi("y", None)],
        [iw("pads", [0, 0, 2, 0, 0, 0, 0, 1]), fw("lo", 0.0),
         fw("roi", []), iw("sizes", [1, 2, 9, 20])], opset=11)
    # Opset 13: Split sizes input, Squeeze/Unsqueeze axes inputs,
    # ReduceSum axes input, Softmax.
    save("opset13", [
        N("Split", ["x", "sp"], ["a", "b"], axis=1),
        N("Unsqueeze", ["a", "ax0"], ["ua"]),
        N("Squeeze", ["ua", "ax0"], ["sa"]),
        N("ReduceSum", ["b", "ax23"], ["rs"], keepdims=1),
        N("Mul", ["sa", "rs"], ["m"]),
        N("Softmax", ["m"], ["y"], axis=1),
    ], [vi("x", [1, 6, 4, 4])], [vi("y", None)],
        [iw("sp", [3, 3]),
         iw("ax0", [0]), iw("ax23", [2, 3])])
    # Opset 17: LayerNormalization op, Gelu as the Erf decomposition,
    # batched and broadcast MatMul, a weight MatMul with its bias Add.
    save("opset17", [
        N("MatMul", ["x", "wq"], ["q"]),
        N("Add", ["bq", "q"], ["qb"]),
        N("Div", ["qb", "sqrt2"], ["d"]),
        N("Erf", ["d"], ["e"]),
        N("Add", ["e", "one"], ["e1"]),
        N("Mul", ["qb", "e1"], ["g"]),
        N("Mul", ["g", "half"], ["gl"]),
        N("LayerNormalization", ["gl", "gam", "bet"], ["ln"], axis=-1),
        N("Reshape", ["ln", "hshape"], ["hd"]),
        N("Transpose", ["hd"], ["ht"], perm=[0, 2, 1, 3]),
        N("Transpose", ["hd"], ["kt"], perm=[0, 2, 3, 1]),
        N("MatMul", ["ht", "kt"], ["sc"]),
        N("MatMul", ["sc", "shared"], ["y"]),
    ], [vi("x", [2, 10, 32]), vi("shared", [4, 10, 5])], [vi("y", None)],
        [w("wq", [32, 64]), w("bq", [64]), fw("sqrt2", 1.4142135),
         fw("one", 1.0), fw("half", 0.5), w("gam", [64]), w("bet", [64]),
         iw("hshape", [2, 10, 4, 16])], opset=17)
    # Opset 18: ReduceMean axes as an input, over the spatial axes (a
    # pool) and over channels (a reduce); Split num_outputs.
    save("opset18", [
        N("ReduceMean", ["x", "hw"], ["gp"], keepdims=1),
        N("ReduceMean", ["x", "c"], ["rc"], keepdims=0),
        N("Split", ["x"], ["s0", "s1", "s2"], axis=2, num_outputs=3),
        N("Add", ["s0", "gp"], ["y"]),
    ], [vi("x", [1, 4, 7, 6])], [vi("y", None), vi("rc", None),
                                  vi("s1", None), vi("s2", None)],
        [iw("hw", [2, 3]), iw("c", [1])], opset=18)
    # The reductions norms export as (F.normalize, torch.norm: ReduceL2,
    # ReduceL1), keepdims and axes, LpNormalization, ReduceSumSquare; at
    # opset 18 the axes are an input.
    save("reduce_norms", [
        N("ReduceL2", ["x"], ["l2"], axes=[1, 2], keepdims=1),
        N("ReduceL1", ["x"], ["l1"], axes=[-1], keepdims=0),
        N("ReduceL2", ["x"], ["all"], keepdims=0),
        N("ReduceSumSquare", ["x"], ["ss"], axes=[3], keepdims=1),
        N("LpNormalization", ["x"], ["lp"], axis=-1, p=2),
        N("Div", ["x", "l2"], ["y"]),
    ], [vi("x", [2, 7, 7, 32])], [vi("y", None), vi("l1", None),
                                   vi("all", None), vi("ss", None),
                                   vi("lp", None)], opset=13)
    save("reduce_norms18", [
        N("ReduceL2", ["x", "ax"], ["l2"], keepdims=1),
        N("ReduceL1", ["x", "ax"], ["l1"], keepdims=0),
        N("ReduceL2", ["x"], ["same"], noop_with_empty_axes=1),
        N("Div", ["x", "l2"], ["y"]),
    ], [vi("x", [2, 7, 7, 32])], [vi("y", None), vi("l1", None),
                                   vi("same", None)], [iw("ax", [1, 2])],
        opset=18)
    # Fusion patterns: SiLU, HardSwish, a decomposed LayerNorm, and an
    # activation that cannot fuse (its input has two consumers).
    save("fusion", [
        N("Conv", ["x", "w1"], ["c1"], kernel_shape=[1, 1]),
        N("Sigmoid", ["c1"], ["s1"]),
        N("Mul", ["c1", "s1"], ["silu"]),
        N("Conv", ["silu", "w2"], ["c2"], kernel_shape=[1, 1]),
        N("HardSigmoid", ["c2"], ["hs"], alpha=1.0 / 6, beta=0.5),
        N("Mul", ["hs", "c2"], ["hsw"]),
        N("Conv", ["hsw", "w3"], ["c3"], kernel_shape=[1, 1]),
        N("Relu", ["c3"], ["r3"]),
        N("Add", ["r3", "c3"], ["res"]),
        N("Reshape", ["res", "tok"], ["t"]),
        N("ReduceMean", ["t"], ["mean"], axes=[-1]),
        N("Sub", ["t", "mean"], ["dd"]),
        N("Pow", ["dd", "two"], ["sq"]),
        N("ReduceMean", ["sq"], ["var"], axes=[-1]),
        N("Add", ["var", "eps"], ["ve"]),
        N("Sqrt", ["ve"], ["sd"]),
        N("Div", ["dd", "sd"], ["nm"]),
        N("Mul", ["nm", "gam"], ["ng"]),
        N("Add", ["ng", "bet"], ["y"]),
    ], [vi("x", [1, 8, 4, 4])], [vi("y", None)],
        [w("w1", [8, 8, 1, 1]), w("w2", [8, 8, 1, 1]), w("w3", [8, 8, 1, 1]),
         iw("tok", [1, 8, 16]), fw("two", 2.0), fw("eps", 1e-5),
         w("gam", [16]), w("bet", [16])])
    # Embedding lookup by int64 token ids, then a weight MatMul.
    save("embed", [
        N("Gather", ["table", "ids"], ["e"]),
        N("MatMul", ["e", "wo"], ["y"]),
    ], [vi("ids", [2, 7], T.INT64)], [vi("y", None)],
        [w("table", [100, 16]), w("wo", [16, 4])])
    # Conv1d, rank 3, and ConvTranspose.
    save("conv1d", [
        N("Conv", ["x", "w1"], ["c1"], kernel_shape=[5], strides=[2],
          pads=[2, 1]),
        N("MaxPool", ["c1"], ["p1"], kernel_shape=[2], strides=[2]),
        N("Unsqueeze", ["p1", "ax"], ["u"]),
        N("ConvTranspose", ["u", "wt"], ["y"], kernel_shape=[1, 4],
          strides=[1, 2], pads=[0, 1, 0, 1], output_padding=[0, 1]),
    ], [vi("x", [1, 4, 31])], [vi("y", None)],
        [w("w1", [6, 4, 5]), iw("ax", [2]), w("wt", [6, 3, 1, 4])])
    # Weights as graph inputs with declared shapes (export_params=False).
    save("weights_as_inputs", [
        N("Conv", ["x", "cw", "cb"], ["c"], kernel_shape=[3, 3]),
        N("Relu", ["c"], ["r"]),
        N("Flatten", ["r"], ["f"]),
        N("Gemm", ["f", "fw"], ["y"], transB=1),
    ], [vi("x", [1, 3, 6, 6]), vi("cw", [4, 3, 3, 3]), vi("cb", [4]),
        vi("fw", [5, 64])], [vi("y", None)])
    # External data whose file is absent: only dims are read.
    t = w("wext", [16, 3, 3, 3])
    t.ClearField("raw_data")
    t.data_location = T.EXTERNAL
    for k, v in (("location", "absent-weights.bin"), ("offset", "0"),
                 ("length", str(16 * 27 * 4))):
        e = t.external_data.add()
        e.key, e.value = k, v
    save("external", [
        N("Conv", ["x", "wext"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    ], [vi("x", [1, 3, 8, 8])], [vi("y", None)], [t], check=False)
    # A symbolic batch dim: needs -i.
    save("symbolic", [
        N("Conv", ["x", "w1"], ["y"], kernel_shape=[3, 3]),
    ], [vi("x", ["batch", 3, 8, 8])], [vi("y", None)], [w("w1", [2, 3, 3, 3])])
    # Two data inputs, for -i without a name.
    save("two_inputs", [N("Add", ["a", "b"], ["y"])],
         [vi("a", [1, 4]), vi("b", [1, 4])], [vi("y", None)])
    # Nodes not in topological order (Kahn).
    save("unsorted", [
        N("Relu", ["c"], ["y"]),
        N("Conv", ["m", "w1"], ["c"], kernel_shape=[1, 1]),
        N("MaxPool", ["x"], ["m"], kernel_shape=[2, 2], strides=[2, 2]),
    ], [vi("x", [1, 3, 8, 8])], [vi("y", None)], [w("w1", [2, 3, 1, 1])],
        check=False)
    # Bad graphs.
    save("cycle", [
        N("Add", ["x", "b"], ["a"], name="add_a"),
        N("Relu", ["a"], ["b"], name="relu_b"),
    ], [vi("x", [1, 4])], [vi("b", None)], check=False)
    save("dangling", [N("Add", ["x", "nowhere"], ["y"], name="add1")],
         [vi("x", [1, 4])], [vi("y", None)], check=False)
    save("unsupported", [
        N("Relu", ["x"], ["r"]),
        h.make_node("FooBar", ["r"], ["f"], name="foo1"),
        N("Relu", ["f"], ["y"]),
    ], [vi("x", [1, 4, 3, 3])], [vi("y", None)],
        vinfo=[vi("f", [1, 4, 6, 6])], check=False)
    save("unsupported_noshape", [
        h.make_node("FooBar", ["x"], ["y"], name="foo1"),
    ], [vi("x", [1, 4, 3, 3])], [vi("y", None)], check=False)
    # -k: unknown reductions (a newer op name, a custom domain's op with
    # keepdims) take their output from axes and keepdims.
    save("keep_reduce", [
        h.make_node("ReduceL3", ["x"], ["r1"], name="red1", axes=[1],
                    keepdims=0),
        h.make_node("L2Norm", ["x"], ["r2"], name="red2", axes=[2, 3],
                    domain="com.example", keepdims=1),
        h.make_node("ReduceFoo", ["x"], ["r3"], name="red3"),
        N("Add", ["r2", "x"], ["y"]),
    ], [vi("x", [1, 8, 5, 6])], [vi("y", None), vi("r1", None),
                                  vi("r3", None)], check=False)
    save("unsupported_two", [
        h.make_node("FooBar", ["x", "x2"], ["y"], name="foo2"),
    ], [vi("x", [1, 4, 3, 3]), vi("x2", [1, 4, 3, 3])], [vi("y", None)],
        check=False)
    # -k on ops with no operand: one whose only input is absent (""),
    # one with no inputs at all; each row takes its output's geometry.
    save("keep_noinput", [
        h.make_node("FooBar", [""], ["f"], name="foo1"),
        h.make_node("FooBar", [], ["g"], name="foo2"),
        N("Add", ["x", "f"], ["y"], name="add1"),
    ], [vi("x", [1, 4, 3, 3])], [vi("y", None), vi("g", [2, 8])],
        vinfo=[vi("f", [1, 4, 3, 3])], check=False)
    # Empty tensors, as torch.roll by 0 exports them (swin at a size the
    # window does not divide): an empty Slice (no row), an activation of
    # it (no row), a Concat of it with the rest (a row of the rest's bytes).
    save("empty_slice", [
        N("Slice", ["x", "s4", "e4", "ax1"], ["a"], name="empty"),
        N("Slice", ["x", "s0", "e4", "ax1"], ["b"], name="all"),
        N("Relu", ["a"], ["ra"], name="relu_empty"),
        N("Concat", ["b", "a"], ["c"], name="cat", axis=1),
        N("Conv", ["c", "w1"], ["y"], name="conv1", kernel_shape=[1, 1]),
    ], [vi("x", [1, 4, 3, 3])], [vi("y", None), vi("ra", None)],
        [iw("s4", [4]), iw("e4", [4]), iw("s0", [0]), iw("ax1", [1]),
         w("w1", [2, 4, 1, 1])])
    # A product over an empty K: nothing to cost, refused.
    save("empty_matmul", [
        N("Slice", ["x", "s0", "e0", "ax3"], ["a"], name="empty"),
        N("MatMul", ["a", "w1"], ["y"], name="mm"),
    ], [vi("x", [1, 4, 3, 3])], [vi("y", None)],
        [iw("s0", [0]), iw("e0", [0]), iw("ax3", [3]), w("w1", [0, 5])])
    # QDQ quantization (torch's quantized export, onnxruntime's QDQ
    # format): Quantize/DequantizeLinear resolved, the Conv's weight a
    # DequantizeLinear of an int8 constant, the Relu fused; a Transpose
    # of the quantized output.
    wq = numpy_helper.from_array(np.zeros((8, 4, 3, 3), np.int8), "wq")
    save("qdq", [
        N("QuantizeLinear", ["x", "sx", "zx"], ["xq"], name="q"),
        N("DequantizeLinear", ["xq", "sx", "zx"], ["xd"], name="dq"),
        N("DequantizeLinear", ["wq", "sw"], ["wd"], name="dqw"),
        N("Conv", ["xd", "wd"], ["c"], name="conv1", kernel_shape=[3, 3],
          pads=[1, 1, 1, 1]),
        N("Relu", ["c"], ["r"], name="relu1"),
        N("QuantizeLinear", ["r", "sx", "zx"], ["rq"], name="q2"),
        # moved as uint8 (1 byte an element whatever -t says)
        N("Transpose", ["rq"], ["rt"], name="tr", perm=[0, 1, 3, 2]),
        N("DequantizeLinear", ["rt", "sx", "zx"], ["y"], name="dq2"),
    ], [vi("x", [1, 4, 8, 8])], [vi("y", None)],
        [fw("sx", 0.1), numpy_helper.from_array(np.array(128, np.uint8), "zx"),
         fw("sw", 0.05), wq])
    # QOperator quantization (onnxruntime's quantizer, the int8 models of
    # the ONNX model zoo): QLinearConv, ConvInteger, QLinearMatMul,
    # MatMulInteger and com.microsoft's QLinearAdd, QLinearConcat,
    # QLinearGlobalAveragePool read as the float ops they compute.
    def ms(op, ins, outs, name, **kw):
        return h.make_node(op, ins, outs, name=name, domain="com.microsoft",
                           **kw)
    q8 = lambda n, d: numpy_helper.from_array(np.zeros(d, np.int8), n)
    zu = lambda n: numpy_helper.from_array(np.array(0, np.uint8), n)
    save("qop", [
        N("QuantizeLinear", ["x", "s", "z"], ["xq"], name="q"),
        N("QLinearConv", ["xq", "s", "z", "w1", "s", "z8", "s", "z", "b1"],
          ["c1"], name="qconv", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        N("ConvInteger", ["xq", "w2", "z"], ["c2"], name="iconv",
          kernel_shape=[1, 1]),
        # int32 out of ConvInteger: 4 bytes an element
        N("Add", ["c2", "c2"], ["c2s"], name="iadd"),
        N("DequantizeLinear", ["c2s", "s"], ["c2f"], name="dq2"),
        N("QuantizeLinear", ["c2f", "s", "z"], ["c2q"], name="q2"),
        ms("QLinearAdd", ["c1", "s", "z", "c2q", "s", "z", "s", "z"],
           ["a"], "qadd"),
        ms("QLinearConcat", ["s", "z", "a", "s", "z", "c1", "s", "z"],
           ["cat"], "qcat", axis=1),
        ms("QLinearGlobalAveragePool", ["cat", "s", "z", "s", "z"], ["g"],
           "qgap", channels_last=0),
        N("Flatten", ["g"], ["f"], name="flat"),
        N("QLinearMatMul", ["f", "s", "z", "w3", "s", "z8", "s", "z"],
          ["mm"], name="qmm"),
        N("MatMulInteger", ["mm", "w4"], ["y"], name="imm"),
    ], [vi("x", [1, 4, 8, 8])], [vi("y", None)],
        [fw("s", 0.1), zu("z"),
         numpy_helper.from_array(np.array(0, np.int8), "z8"),
         q8("w1", (8, 4, 3, 3)),
         numpy_helper.from_array(np.zeros(8, np.int32), "b1"),
         numpy_helper.from_array(np.zeros((8, 4, 1, 1), np.uint8), "w2"),
         q8("w3", (16, 10)),
         numpy_helper.from_array(np.zeros((10, 5), np.uint8), "w4")])
    # A detector's score mask: NonZero at its bound (every element), its
    # indices transposed for GatherND, which picks [N, 4] boxes.
    save("nonzero", [
        N("Greater", ["sc", "th"], ["m"], name="mask"),
        N("NonZero", ["m"], ["nz"], name="nz"),
        N("Transpose", ["nz"], ["ix"], name="tr", perm=[1, 0]),
        N("GatherND", ["bx", "ix"], ["y"], name="pick"),
    ], [vi("sc", [1, 50]), vi("bx", [1, 50, 4])], [vi("y", None)],
        [fw("th", 0.5)])
    save("gathernd_bad", [
        N("GatherND", ["bx", "ix"], ["y"], name="pick"),
    ], [vi("bx", [1, 50, 4]), vi("ix", [7, 4], T.INT64)], [vi("y", None)])
    # -k without value_info: what the consumers fix.  The Conv's weights
    # fix the channels (6), the other dims are the input's.
    save("keep_conv", [
        h.make_node("FooBar", ["x"], ["f"], name="foo1"),
        N("Conv", ["f", "w1"], ["y"], name="conv1", kernel_shape=[3, 3]),
    ], [vi("x", [1, 4, 8, 8])], [vi("y", None)], [w("w1", [8, 6, 3, 3])],
        check=False)
    # A MatMul's weight fixes the last dim (K = 32); two outputs in use.
    save("keep_matmul", [
        h.make_node("FooBar", ["x"], ["f", "g"], name="foo1"),
        N("MatMul", ["f", "w1"], ["y"], name="fc1"),
        N("MatMul", ["g", "w2"], ["z"], name="fc2"),
    ], [vi("x", [1, 5, 16])], [vi("y", None), vi("z", None)],
        [w("w1", [32, 10]), w("w2", [16, 10])], check=False)
    # A Reshape to a constant shape (a Constant node after the op) fixes
    # the element count: 72 (taken as the Reshape's shape) and 36 (the
    # input's count: the input's shape).
    save("keep_reshape", [
        h.make_node("FooBar", ["x"], ["f", "g"], name="foo1"),
        h.make_node("Constant", [], ["s72"], name="c72",
                    value=numpy_helper.from_array(np.array([1, 72],
                                                           np.int64))),
        h.make_node("Constant", [], ["s36"], name="c36",
                    value=numpy_helper.from_array(np.array([1, 36],
                                                           np.int64))),
        N("Reshape", ["f", "s72"], ["rf"], name="r72"),
        N("Reshape", ["g", "s36"], ["rg"], name="r36"),
        N("Gemm", ["rf", "wf"], ["y"], name="fc", transB=1),
        N("Relu", ["rg"], ["z"]),
    ], [vi("x", [1, 4, 3, 3])], [vi("y", None), vi("z", None)],
        [w("wf", [10, 72])], check=False)
    # The Conv fixes rank and channels, but two data inputs leave the
    # other dims open: the error names what is missing.
    save("keep_conv_two", [
        h.make_node("FooBar", ["x", "x2"], ["f"], name="foo2"),
        N("Conv", ["f", "w1"], ["y"], name="conv1", kernel_shape=[3, 3]),
    ], [vi("x", [1, 4, 8, 8]), vi("x2", [1, 4, 8, 8])], [vi("y", None)],
        [w("w1", [8, 6, 3, 3])], check=False)
    save("overflow", [N("Relu", ["x"], ["y"])],
         [vi("x", [1 << 31, 1 << 31, 1 << 31])], [vi("y", None)])
    save("overflow_weight", [N("MatMul", ["x", "big"], ["y"])],
         [vi("x", [1, 4])], [vi("y", None)], check=False,
         inits=[bigdims("big", [4, 1 << 62, 1 << 20])])
    save("negative_dim", [N("MatMul", ["x", "neg"], ["y"])],
         [vi("x", [1, 4])], [vi("y", None)], inits=[bigdims("neg", [4, -3])])
    # a name past the 40 bytes an initializer's report quotes
    long = "w" * 39 + "xyz"
    save("negative_dim_long", [N("MatMul", ["x", long], ["y"])],
         [vi("x", [1, 4])], [vi("y", None)], inits=[bigdims(long, [4, -3])])
    save("zero_dim", [N("Relu", ["x"], ["y"])], [vi("x", [1, 0, 4])],
         [vi("y", None)])
    save("add_mismatch", [
        N("Conv", ["x", "w1"], ["c"], kernel_shape=[1, 1]),
        N("Add", ["x", "c"], ["y"], name="add_res"),
    ], [vi("x", [1, 3, 8, 8])], [vi("y", None)], [w("w1", [5, 3, 1, 1])])
    save("gemm_k", [
        N("Conv", ["x", "w1"], ["c"], kernel_shape=[3, 3], strides=[2, 2],
          pads=[1, 1, 1, 1]),
        N("Flatten", ["c"], ["f"]),
        N("Gemm", ["f", "wf"], ["y"], name="fc", transB=1),
    ], [vi("x", [1, 3, 8, 8])], [vi("y", None)],
        [w("w1", [8, 3, 3, 3]), w("wf", [10, 32])])
    save("conv_channels", [
        N("Conv", ["x", "w1"], ["y"], name="conv1", kernel_shape=[3, 3]),
    ], [vi("x", [1, 4, 8, 8])], [vi("y", None)], [w("w1", [8, 3, 3, 3])])
    # Not ONNX: a valid protobuf without a graph.
    m = onnx.ModelProto()
    m.ir_version = 7
    with open(os.path.join(OUT, "nograph.onnx"), "wb") as f:
        f.write(m.SerializeToString())
    # Opset 20 Gelu op after a weight MatMul (fused), and standalone.
    save("gelu20", [
        N("MatMul", ["x", "w1"], ["m"]),
        N("Gelu", ["m"], ["g"]),
        N("Add", ["g", "x2"], ["a"]),
        N("Gelu", ["x2"], ["y2"], approximate="tanh"),
        N("Add", ["a", "y2"], ["y"]),
    ], [vi("x", [3, 8]), vi("x2", [3, 4])], [vi("y", None)],
        [w("w1", [8, 4])], opset=20)
    # Older zoo ops (opset 9): LRN, Sum of three, PRelu with a slope, Elu,
    # Dropout, Concat, a Transpose that moves only dims of 1, Softmax.
    save("zoo_ops", [
        N("Conv", ["x", "w1"], ["c"], kernel_shape=[1, 1]),
        N("PRelu", ["c", "slope"], ["pr"]),
        N("LRN", ["pr"], ["l"], size=5),
        N("Elu", ["x"], ["e"]),
        N("Sum", ["l", "e", "x"], ["s"]),
        N("Dropout", ["s"], ["d"]),
        N("Concat", ["d", "l"], ["cc"], axis=1),
        N("GlobalAveragePool", ["cc"], ["g"]),
        N("Transpose", ["g"], ["t"], perm=[0, 2, 3, 1]),
        N("Flatten", ["t"], ["f"]),
        N("Softmax", ["f"], ["y"]),
    ], [vi("x", [1, 4, 5, 5])], [vi("y", None)],
        [w("w1", [4, 4, 1, 1]), w("slope", [4, 1, 1])], opset=9)
    # Integer shape arithmetic folded to constants: Shape, Slice,
    # ReduceProd, ConstantOfShape, Div, Mul, Gather, Concat, Range, Equal,
    # Where, Sub, Cast, feeding Reshape and Expand.
    I = T.INT64
    save("shapechain", [
        N("Shape", ["x"], ["shp"]),
        N("Slice", ["shp", "c2", "c4"], ["hw"]),
        N("ReduceProd", ["hw"], ["p"], keepdims=1),
        N("ConstantOfShape", ["one1"], ["ones"],
          value=h.make_tensor("v", I, [1], [1])),
        N("Div", ["p", "c2"], ["half"]),
        N("Mul", ["ones", "c2"], ["two"]),
        N("Gather", ["shp", "i01"], ["nc"]),
        N("Concat", ["nc", "two", "half"], ["ns"], axis=0),
        N("Cast", ["ns"], ["nsf"], to=T.FLOAT),
        N("Cast", ["nsf"], ["ns2"], to=I),
        N("Reshape", ["x", "ns2"], ["r"]),
        N("Range", ["z0", "three", "one0"], ["rg"]),
        N("Equal", ["rg", "one0"], ["eq"]),
        N("Where", ["eq", "five", "rg"], ["wh"]),
        N("Slice", ["wh", "c1", "c2"], ["w5"]),
        N("Sub", ["w5", "c3"], ["w2"]),
        N("Concat", ["nc", "w2", "half"], ["es"], axis=0),
        N("Expand", ["r", "es"], ["y"]),
    ], [vi("x", [1, 3, 8, 8])], [vi("y", None)],
        [iw("c1", [1]), iw("c2", [2]), iw("c3", [3]), iw("c4", [4]),
         iw("one1", [1]), iw("i01", [0, 1]),
         numpy_helper.from_array(np.array(0, np.int64), "z0"),
         numpy_helper.from_array(np.array(3, np.int64), "three"),
         numpy_helper.from_array(np.array(1, np.int64), "one0"),
         iw("five", [5])])
    # Opset 18 Resize with scales for the listed axes only.
    save("resize18", [
        N("Resize", ["x", "", "sc"], ["y"], mode="nearest", axes=[3, 2]),
    ], [vi("x", [1, 2, 5, 6])], [vi("y", None)], [fw("sc", [2.0, 3.0])],
        opset=18)
    # W*x: the data input is MatMul's second operand (stays data), and a
    # weight given as a later graph input.
    save("wx", [N("MatMul", ["w", "x"], ["m"]), N("MatMul", ["m", "w2"], ["y"])],
         [vi("x", [8, 3]), vi("w2", [3, 5])], [vi("y", None)],
         [w("w", [4, 8])])
    # Random bytes (fixed seed) and an empty file.
    rnd = np.random.RandomState(7).randint(0, 256, 600).astype(np.uint8)
    with open(os.path.join(OUT, "random.onnx"), "wb") as f:
        f.write(rnd.tobytes())
    open(os.path.join(OUT, "empty.onnx"), "wb").close()
    fpad()
    einsum()
    control()
    fusion2()
    rnn()


def rnn():
    """Recurrent ops: a reverse LSTM with layout 1 (batch first) and no
    initial state, a vanilla RNN given its initial h, a GRU whose W does
    not fit its hidden size."""
    save("rnn", [
        N("LSTM", ["x", "W", "R", "B"], ["y", "yh", "yc"],
          hidden_size=6, direction="reverse", layout=1),
        N("RNN", ["x2", "Wr", "Rr", "", "", "h0"], ["y2"], hidden_size=4),
    ], [vi("x", [2, 3, 5]), vi("x2", [3, 1, 5]), vi("h0", [1, 1, 4])],
        [vi("y", [2, 3, 1, 6]), vi("y2", [3, 1, 1, 4])],
        [w("W", [1, 24, 5]), w("R", [1, 24, 6]), w("B", [1, 48]),
         w("Wr", [1, 4, 5]), w("Rr", [1, 4, 4])], opset=14, check=True)
    save("rnn_bad", [N("GRU", ["x", "W", "R"], ["y"], hidden_size=8)],
         [vi("x", [3, 1, 5])], [vi("y", None)],
         [w("W", [1, 18, 5]), w("R", [1, 18, 6])], check=False)


def fusion2():
    """Activations written out, each after a weight MatMul so that the
    fused act shows on the gemm row: GELU's tanh form with both tails
    (x*0.5 first, and x*(...)*0.5), x*sigmoid(1.702x), and HardSwish as
    x*relu6(x+3)/6 with the /6 after and before the product."""
    c = lambda n, v: fw(n, v)
    nodes, inits = [], [w("w%d" % i, [8, 8]) for i in range(5)]
    inits += [c("half", 0.5), c("three", 3.0), c("k3", 0.044715),
              c("s2p", 0.7978845608), c("one", 1.0), c("q", 1.702),
              c("six", 6.0), c("zero", 0.0)]

    def mm(i, x):
        nodes.append(N("MatMul", [x, "w%d" % i], ["g%d" % i]))
        return "g%d" % i

    def tanh_gelu(x, p, tail):
        nodes.extend([
            N("Pow", [x, "three"], [p + "pow"]),
            N("Mul", ["k3", p + "pow"], [p + "m1"]),
            N("Add", [x, p + "m1"], [p + "a1"]),
            N("Mul", [p + "a1", "s2p"], [p + "m2"]),
            N("Tanh", [p + "m2"], [p + "tanh"]),
            N("Add", [p + "tanh", "one"], [p + "a2"])])
        if tail:
            nodes.extend([N("Mul", [x, "half"], [p + "h"]),
                          N("Mul", [p + "h", p + "a2"], [p + "out"])])
        else:
            nodes.extend([N("Mul", [x, p + "a2"], [p + "xa"]),
                          N("Mul", [p + "xa", "half"], [p + "out"])])
        return p + "out"
    y = tanh_gelu(mm(0, "x"), "t1", True)
    y = tanh_gelu(mm(1, y), "t2", False)
    g = mm(2, y)
    nodes.extend([N("Mul", [g, "q"], ["qm"]), N("Sigmoid", ["qm"], ["qs"]),
                  N("Mul", [g, "qs"], ["qg"])])
    g = mm(3, "qg")
    nodes.extend([N("Add", [g, "three"], ["h1a"]),
                  N("Clip", ["h1a", "zero", "six"], ["h1c"]),
                  N("Mul", [g, "h1c"], ["h1m"]),
                  N("Div", ["h1m", "six"], ["h1"])])
    g = mm(4, "h1")
    nodes.extend([N("Add", [g, "three"], ["h2a"]),
                  N("Clip", ["h2a", "zero", "six"], ["h2c"]),
                  N("Div", ["h2c", "six"], ["h2d"]),
                  N("Mul", ["h2d", g], ["h2"])])
    save("fusion2", nodes, [vi("x", [1, 4, 8])], [vi("h2", [1, 4, 8])],
         inits, check=True)


def einsum():
    """Einsum as the matrix products attention writes: batched Q*K^T and
    scores*V over heads, the ellipsis form with a broadcast operand, the
    implicit output form, a weight product, and one that is not a matrix
    product (a label summed over one operand)."""
    E = lambda eq, a, b, o: N("Einsum", [a, b], [o], equation=eq)
    save("einsum", [
        E("bhid,bhjd->bhij", "q", "k", "s"),
        E("bhij,bhjd->bhid", "s", "v", "c"),
        E("...ij,...jk->...ik", "c", "m", "e"),
        E("b h i d, d e -> b h i e", "e", "w", "g"),
        E("ij,jk", "x2", "y2", "z2"),
        E("bij,bkj->bik", "p", "r", "t"),
    ], [vi("q", [2, 4, 8, 16]), vi("k", [2, 4, 10, 16]),
        vi("v", [2, 4, 10, 16]), vi("m", [4, 16, 6]), vi("x2", [3, 5]),
        vi("y2", [5, 7]), vi("p", [2, 3, 5]), vi("r", [2, 4, 5])],
        [vi("g", [2, 4, 8, 12]), vi("z2", [3, 7]), vi("t", [2, 3, 4])],
        [w("w", [6, 12])], check=True)
    save("einsum_sum", [N("Einsum", ["a", "b"], ["c"],
                          equation="bij,bjk->bi")],
         [vi("a", [2, 3, 4]), vi("b", [2, 4, 5])], [vi("c", [2, 3])],
         check=True)


def control():
    """If with a condition folded from shapes: the branch taken is spliced
    in its place (then: a Conv of a branch weight and a nested If whose
    else branch is taken; else: a Relu); a condition given at run time is
    refused, or kept under -k with the If's declared shapes."""
    def g(name, nodes, outs, inits=()):
        return h.make_graph(nodes, name, [], [vi(o, None) for o in outs],
                            list(inits))
    inner = N("If", ["c2"], ["u"], name="inner",
              then_branch=g("t2", [N("Sigmoid", ["a"], ["u1"])], ["u1"]),
              else_branch=g("e2", [N("Tanh", ["a"], ["u2"])], ["u2"]))
    then = g("then", [
        N("Conv", ["x", "wb"], ["a"], name="bconv", kernel_shape=[3, 3],
          pads=[1, 1, 1, 1]),
        N("Constant", [], ["c2"], name="c2",
          value=numpy_helper.from_array(np.array(False))),
        inner,
        N("Add", ["u", "x"], ["b"], name="badd"),
    ], ["b", "a"], [w("wb", [4, 4, 3, 3])])
    other = g("else", [N("Relu", ["x"], ["r"], name="brelu")], ["r", "x"])
    save("if", [
        N("Size", ["x"], ["n"], name="size"),
        N("Greater", ["n", "zero"], ["c"], name="cond"),
        N("If", ["c"], ["y", "z"], name="if1", then_branch=then,
          else_branch=other),
        N("MatMul", ["y", "wm"], ["out"], name="fc"),
    ], [vi("x", [1, 4, 8, 8])], [vi("out", None), vi("z", None)],
        [iw("zero", 0), w("wm", [8, 5])])
    # The same If on a condition that is a graph input: known only when
    # the model runs.  Its outputs are declared (for -k).
    save("if_runtime", [
        N("If", ["c"], ["y", "z"], name="if1", then_branch=then,
          else_branch=other),
        N("MatMul", ["y", "wm"], ["out"], name="fc"),
    ], [vi("x", [1, 4, 8, 8]), vi("c", [], T.BOOL)],
        [vi("out", [1, 4, 8, 5]), vi("z", [1, 4, 8, 8])], [w("wm", [8, 5])],
        vinfo=[vi("y", [1, 4, 8, 8])])
    # A branch with one output for an If with two.
    save("if_bad", [
        N("Size", ["x"], ["n"], name="size"),
        N("Greater", ["n", "zero"], ["c"], name="cond"),
        N("If", ["c"], ["y", "z"], name="if1", then_branch=g("t1", [
            N("Relu", ["x"], ["r"])], ["r"]), else_branch=other),
    ], [vi("x", [1, 4, 8, 8])], [vi("y", None), vi("z", None)],
        [iw("zero", 0)])


def fpad():
    """PyTorch's asymmetric F.pad before a strided conv (opset 13): the
    pads reach Pad through a chain of Shape/Slice/Concat/Reshape nodes."""
    import torch
    import torch.nn.functional as Fn

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = torch.nn.Conv2d(3, 8, 3, stride=2, bias=False)
            self.conv2 = torch.nn.Conv2d(8, 8, 3, bias=False)

        def forward(self, x):
            y = self.conv(Fn.pad(x, (0, 1, 0, 1)))
            return self.conv2(Fn.pad(y, (2, 1, 1, 0), value=1.0))
    torch.onnx.export(M().eval(), torch.zeros(1, 3, 16, 16),
                      os.path.join(OUT, "fpad.onnx"), opset_version=13,
                      input_names=["x"], output_names=["y"])


if __name__ == "__main__":
    sys.exit(main())
