#!/usr/bin/python3
# gqa_models.py DIR: writes the small decode-step fixtures of tests/llm/gqa.sh,
# built with python3-onnx's helper API the way torch.onnx.export writes a
# LLaMA-style attention block at decode (transformers' LlamaAttention):
# q, k, v projections, the heads split by Reshape and Transpose, the new
# token's k and v concatenated after the past ones along the sequence
# axis (the KV cache), the cache repeated to the query heads, K
# transposed, q.K^T / sqrt(d), Softmax, p.V, the heads merged, the output
# projection.  Shapes come from Shape sub-graphs of the cache, as the
# exporter writes them with dynamic batch and past length, so that
# onnx2layers -i re-shapes the step.
#
#   gqa_repeat_kv  8 query heads, 2 key/value heads: repeat_kv as torch
#                  exports hidden[:, :, None].expand(...).reshape(...):
#                  Unsqueeze, Expand (its size through torch's Where/Equal
#                  guard of -1 sizes), Reshape
#   gqa_tile       the same repeated by Tile on the heads axis
#   gqa_gather     the same repeated by a Gather of heads (indices
#                  0 0 0 0 1 1 1 1)
#   mqa_expand     multi-query: 8 query heads, one key/value head,
#                  the cache broadcast by Expand
#   gqa_uneven     a Gather of heads 0 0 0 0 0 1 1 1: no grouping (each
#                  key/value head not read by as many query heads), so
#                  the Gather is made and keeps its row
#   gqa_shared     gqa_repeat_kv whose repeated keys are also a graph
#                  output ("repeated_key"): that copy is made, so its
#                  Expand keeps its row
#   kv_layout      8 heads, no repetition, the past cache stored as
#                  [B, L, H, D] and transposed to [B, H, L, D] before the
#                  Concat (a Transpose whose input is the resident cache)
#
# Sizes: width 128, head_dim 16, past 127 (context 128), batch 1, fp32
# weights (onnx2layers -t fp16 is its default): a key cache of 2 heads is
# 2 x 128 x 16 x 2 = 8192 bytes at fp16.
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
I64 = TensorProto.INT64
D, HD, P = 128, 16, 127


def w(name, *dims):
    return numpy_helper.from_array(
        np.random.RandomState(len(name)).randn(*dims).astype(np.float32) *
        0.02, name)


def ints(name, vals):
    return numpy_helper.from_array(np.array(vals, dtype=np.int64), name)


class G:
    def __init__(self):
        self.nodes, self.inits, self.k = [], [], 0

    def op(self, op, ins, **attrs):
        self.k += 1
        out = "%s_%d" % (op.lower(), self.k)
        self.nodes.append(helper.make_node(op, ins, [out],
                                           name="/attn/%s_%d" % (op, self.k),
                                           **attrs))
        return out

    def c(self, vals):
        self.k += 1
        name = "c%d" % self.k
        self.inits.append(ints(name, vals))
        return name

    def dim(self, t, lo, hi):
        """Shape(t)[lo:hi] as a 1-D int64 tensor."""
        return self.op("Slice", [self.op("Shape", [t]), self.c([lo]),
                                 self.c([hi])])


def heads(g, x, wname, nh, kv_layout=False):
    """x [B,1,D] @ W -> [B,nh,1,HD] (or [B,1,nh,HD] with kv_layout)."""
    y = g.op("MatMul", [x, wname])
    shp = g.op("Concat", [g.dim(x, 0, 1), g.c([1, nh, HD])], axis=0)
    y = g.op("Reshape", [y, shp])
    return y if kv_layout else g.op("Transpose", [y], perm=[0, 2, 1, 3])


def repeat(g, kv, how, hkv, nrep):
    """The cache [B,hkv,L,HD] repeated to [B,hkv*nrep,L,HD]."""
    if how == "expand":
        u = g.op("Unsqueeze", [kv, g.c([2])])
        s5 = g.op("Concat", [g.dim(kv, 0, 2), g.c([nrep]), g.dim(kv, 2, 4)],
                  axis=0)
        # torch's expand symbolic: -1 sizes become 1 (Where(Equal(size,
        # -ones), ones, size), ones = ConstantOfShape(Shape(size)))
        ones = g.op("ConstantOfShape", [g.op("Shape", [s5])],
                    value=numpy_helper.from_array(np.array([1], np.int64)))
        neg = g.op("Mul", [ones, g.c(-1)])
        s5 = g.op("Where", [g.op("Equal", [s5, neg]), ones, s5])
        e = g.op("Expand", [u, s5])
        s4 = g.op("Concat", [g.dim(kv, 0, 1), g.c([hkv * nrep]),
                             g.dim(kv, 2, 4)], axis=0)
        return g.op("Reshape", [e, s4])
    if how == "tile":
        return g.op("Tile", [kv, g.c([1, nrep, 1, 1])])
    if how in ("gather", "uneven"):
        idx = [h for h in range(hkv) for _ in range(nrep)]
        if how == "uneven":	# not a grouping: head 0 serves 5, head 1 3
            idx[4] = 0
        return g.op("Gather", [kv, g.c(idx)], axis=1)
    if how == "bcast":
        s4 = g.op("Concat", [g.dim(kv, 0, 1), g.c([hkv * nrep]),
                             g.dim(kv, 2, 4)], axis=0)
        return g.op("Expand", [kv, s4])
    return kv


def model(name, hq, hkv, how, kv_layout=False, shared=False):
    g = G()
    nrep = hq // hkv
    for wn, n in (("Wq", hq), ("Wk", hkv), ("Wv", hkv), ("Wo", hq)):
        g.inits.append(w(wn, D, n * HD) if wn != "Wo" else w(wn, hq * HD, D))
    q = heads(g, "x", "Wq", hq)
    k = heads(g, "x", "Wk", hkv, kv_layout)
    v = heads(g, "x", "Wv", hkv, kv_layout)
    if kv_layout:
        pk = g.op("Transpose", ["past_key"], perm=[0, 2, 1, 3])
        pv = g.op("Transpose", ["past_value"], perm=[0, 2, 1, 3])
        k = g.op("Transpose", [k], perm=[0, 2, 1, 3])
        v = g.op("Transpose", [v], perm=[0, 2, 1, 3])
    else:
        pk, pv = "past_key", "past_value"
    kc = g.op("Concat", [pk, k], axis=2)
    vc = g.op("Concat", [pv, v], axis=2)
    kr = repeat(g, kc, how, hkv, nrep)
    vr = repeat(g, vc, how, hkv, nrep)
    if shared:
        g.nodes.append(helper.make_node("Identity", [kr], ["repeated_key"],
                                        name="/attn/Identity_out"))
    kt = g.op("Transpose", [kr], perm=[0, 1, 3, 2])
    s = g.op("MatMul", [q, kt])
    s = g.op("Div", [s, "scale"])
    p = g.op("Softmax", [s], axis=-1)
    a = g.op("MatMul", [p, vr])
    a = g.op("Transpose", [a], perm=[0, 2, 1, 3])
    shp = g.op("Concat", [g.dim("x", 0, 1), g.c([1, hq * HD])], axis=0)
    a = g.op("Reshape", [a, shp])
    g.nodes.append(helper.make_node("MatMul", [a, "Wo"], ["output"],
                                    name="/attn/o/MatMul"))
    g.inits.append(numpy_helper.from_array(
        np.array(HD ** 0.5, dtype=np.float32), "scale"))
    cache = ["batch", "past", hkv, HD] if kv_layout else \
        ["batch", hkv, "past", HD]
    graph = helper.make_graph(
        g.nodes, name,
        [helper.make_tensor_value_info("x", F, ["batch", 1, D]),
         helper.make_tensor_value_info("past_key", F, cache),
         helper.make_tensor_value_info("past_value", F, cache)],
        [helper.make_tensor_value_info("output", F, ["batch", 1, D])] +
        ([helper.make_tensor_value_info("repeated_key", F, ["batch", hq, "ctx", HD])]
         if shared else []),
        g.inits)
    for vi in graph.input:
        for i, d in enumerate(vi.type.tensor_type.shape.dim):
            if d.dim_param == "batch":
                d.dim_value = 1
            elif d.dim_param == "past":
                d.dim_value = P
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    m.doc_string = "written by tests/llm/gqa_models.py: %s" % name
    onnx.checker.check_model(m)
    return m


MODELS = {
    "gqa_repeat_kv": (8, 2, "expand", False),
    "gqa_tile": (8, 2, "tile", False),
    "gqa_gather": (8, 2, "gather", False),
    "mqa_expand": (8, 1, "bcast", False),
    "gqa_shared": (8, 2, "expand", False, True),
    "gqa_uneven": (8, 2, "uneven", False),
    "kv_layout": (8, 8, "none", True),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, args in MODELS.items():
        onnx.save(model(name, *args), os.path.join(out, name + ".onnx"))


if __name__ == "__main__":
    main()
