#!/usr/bin/python3
# check_layers.py: an independent oracle for onnx2layers.
#
# usage: check_layers.py [-i name=NxCxHxW ...] [-t dtype] MODEL.onnx LAYERS.csv
#
# Recomputes, from the ONNX file alone, what every row of a layers.csv must
# say, and prints one line per disagreement ("oracle: MODEL: row R (NAME):
# column C: want X, got Y"); exit status 1 on any, 0 when the table agrees.
# Shapes come from onnx's own shape inference (python3-onnx), helped by a
# small numpy evaluator for the integer sub-graphs that only compute shapes
# (Shape -> Gather -> Div -> Slice chains, which onnx 1.12 cannot propagate);
# which nodes become rows, what they fuse, and every GEMM view, MAC and byte
# count follow the written contract (DESIGN.md and the lead's contract
# notes), implemented here again without looking at the C code.
#
# Rules used for which nodes are rows (independent of onnx2layers; the
# contract's, plus the fusions onnx2layers(1) documents):
#  - not emitted: nodes computing only constants (every input constant or a
#    Shape), Constant, Shape, Size, ConstantOfShape, and the shape-only ops
#    Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout, Cast; a
#    Transpose that keeps the order of its non-1 dims (it moves no data);
#  - a BatchNormalization whose input is a Conv's sole consumer is folded
#    into that Conv; a zero constant Pad of spatial axes whose only
#    consumer is a Conv becomes that Conv's padding; an Add of N constant
#    values after a weight MatMul (the bias) joins the gemm row;
#  - the decomposed LayerNorm (ReduceMean, Sub, Pow 2, ReduceMean, Add,
#    Sqrt, Div, optional Mul and Add by constants) is one norm row;
#  - an activation whose input is an emitted layer's only output with no
#    other consumer is fused into that layer's act column; so are the
#    patterns x*Sigmoid(x) (silu), x*HardSigmoid(x) (hardswish), the Erf
#    form of GELU, x*(Erf(x/sqrt2)+1)*0.5 (gelu), its tanh form
#    0.5*x*(1+Tanh(0.79788*(x+0.044715*x^3))) with either tail, and
#    x*Sigmoid(1.702*x) (gelu), x*Clip(x+3,0,6)/6 with the /6 before or
#    after the product (hardswish); such a pattern that cannot fuse is
#    one act row of its own;
#  - everything else is one row, named after the node (or OpType_INDEX, the
#    node's index in the file, when the node has no name); a pattern's row
#    may carry the name of any of its nodes.
# Where the contract leaves a column open the oracle accepts the choices
# named in the code (e.g. a standalone activation's act: none or itself;
# the op of Slice/Split/Pad/... rows is not checked).
# -c checks only the Conv/Gemm/MatMul rows; --dump prints the oracle's own
# expected rows (for debugging, never to make goldens).
import argparse
import csv
import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper, shape_inference

ESZ = {"fp16": 2, "bf16": 2, "fp32": 4, "fp64": 8, "fp8": 1, "int8": 1,
       "uint8": 1, "int16": 2, "int32": 4, "int64": 8, "bool": 1}
INT_ESZ = {TensorProto.INT64: 8, TensorProto.INT32: 4, TensorProto.INT16: 2,
           TensorProto.INT8: 1, TensorProto.UINT8: 1, TensorProto.UINT16: 2,
           TensorProto.UINT32: 4, TensorProto.UINT64: 8, TensorProto.BOOL: 1}
SHAPE_ONLY = {"Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity",
              "Dropout", "Cast"}
CONST_SRC = {"Constant", "Shape", "Size", "ConstantOfShape"}
ACTS = {"Relu": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh",
        "HardSigmoid": "hardsigmoid", "HardSwish": "hardswish",
        "LeakyRelu": None, "PRelu": None, "Elu": None, "Selu": None,
        "Softplus": None, "Gelu": "gelu", "Clip": None, "Mish": None}
POOLS = {"MaxPool", "AveragePool", "LpPool"}
GPOOLS = {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}
ELTWISE = {"Add", "Sub", "Mul", "Div", "Pow", "Sum", "Max", "Min", "Mean",
           "Sqrt", "Exp", "Log", "Neg", "Abs", "Reciprocal", "Erf", "Floor",
           "Ceil", "Not", "And", "Or", "Equal", "Less", "Greater", "Where",
           "Mod"}
NORMS = {"BatchNormalization", "LayerNormalization", "InstanceNormalization",
         "LRN", "GroupNormalization"}
REDUCES = {"ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd",
           "ReduceL2", "ReduceL1", "ReduceSumSquare", "ReduceLogSumExp",
           "ArgMax", "ArgMin"}
MAXEVAL = 1 << 16	# largest tensor the constant evaluator computes


def attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


# ---- constant evaluation of shape sub-graphs ---------------------------

def const_of(node):
    a = attrs(node)
    if "value" in a:
        return numpy_helper.to_array(a["value"])
    for k, f in (("value_int", np.int64), ("value_float", np.float32)):
        if k in a:
            return np.array(a[k], dtype=f)
    for k, f in (("value_ints", np.int64), ("value_floats", np.float32)):
        if k in a:
            return np.array(a[k], dtype=f)
    return None


def evaluate(node, ins, opset):
    """numpy value of a node's first output, or None if not handled."""
    op, a = node.op_type, attrs(node)
    x = ins[0] if ins else None
    if op == "Identity" or op == "Dropout":
        return x
    if op == "Gather":
        return np.take(x, ins[1], axis=a.get("axis", 0))
    if op == "Unsqueeze":
        axes = a["axes"] if "axes" in a else list(ins[1])
        r = x.ndim + len(axes)
        for ax in sorted(d % r for d in axes):
            x = np.expand_dims(x, ax)
        return x
    if op == "Squeeze":
        axes = a.get("axes") if opset < 13 else \
            (list(ins[1]) if len(ins) > 1 and ins[1] is not None else None)
        return np.squeeze(x, axis=tuple(axes) if axes is not None else None)
    if op == "Concat":
        return np.concatenate([np.atleast_1d(v) for v in ins], a["axis"])
    if op in ("Add", "Sub", "Mul"):
        f = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply}[op]
        return f(ins[0], ins[1]).astype(np.result_type(ins[0], ins[1]))
    if op == "Div":
        if np.issubdtype(ins[0].dtype, np.integer):
            return np.trunc(ins[0] / ins[1]).astype(ins[0].dtype)
        return ins[0] / ins[1]
    if op == "Cast":
        t = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[a["to"]]
        return x.astype(t)
    if op == "Reshape":
        shape = [int(d) for d in ins[1]]
        shape = [x.shape[i] if d == 0 else d for i, d in enumerate(shape)]
        return x.reshape(shape)
    if op == "Slice":
        if opset < 10:
            starts, ends = a["starts"], a["ends"]
            axes, steps = a.get("axes"), None
        else:
            starts, ends = list(ins[1]), list(ins[2])
            axes = list(ins[3]) if len(ins) > 3 and ins[3] is not None else None
            steps = list(ins[4]) if len(ins) > 4 and ins[4] is not None else None
        axes = axes if axes is not None else list(range(len(starts)))
        steps = steps if steps is not None else [1] * len(starts)
        sl = [slice(None)] * x.ndim
        for s, e, ax, st in zip(starts, ends, axes, steps):
            sl[int(ax)] = slice(int(s), int(e), int(st))
        return x[tuple(sl)]
    if op == "ConstantOfShape":
        v = numpy_helper.to_array(a["value"]) if "value" in a else \
            np.zeros(1, np.float32)
        return np.full([int(d) for d in ins[0]], v.reshape(-1)[0], v.dtype)
    if op == "Range":
        return np.arange(ins[0], ins[1], ins[2])
    if op == "Equal":
        return np.equal(ins[0], ins[1])
    if op == "Where":
        return np.where(ins[0], ins[1], ins[2])
    if op == "Expand":
        return x * np.ones([int(d) for d in ins[1]], x.dtype)
    if op == "Transpose":
        return np.transpose(x, a.get("perm"))
    if op == "Tile":
        return np.tile(x, [int(v) for v in ins[1]])
    if op in ("Less", "Greater", "Min", "Max", "Mod", "And", "Or"):
        f = {"Less": np.less, "Greater": np.greater, "Min": np.minimum,
             "Max": np.maximum, "Mod": np.fmod if a.get("fmod") else np.mod,
             "And": np.logical_and, "Or": np.logical_or}[op]
        return f(ins[0], ins[1])
    if op == "Not":
        return np.logical_not(x)
    if op in ("Floor", "Ceil", "Sqrt", "Neg", "Abs"):
        return {"Floor": np.floor, "Ceil": np.ceil, "Sqrt": np.sqrt,
                "Neg": np.negative, "Abs": np.abs}[op](x)
    if op == "ReduceProd":
        return np.prod(x, keepdims=bool(a.get("keepdims", 1)))
    return None


def dims_of(vi):
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        return None
    d = [x.dim_value if x.HasField("dim_value") else None
         for x in tt.shape.dim]
    return d


def infer(model):
    """name -> (dims list or None, elem_type) after onnx shape inference."""
    try:
        m = shape_inference.infer_shapes(model, strict_mode=False,
                                         data_prop=True)
    except Exception as e:	# inference gave up: keep what is declared
        print("oracle: warning: shape inference: %s" % e, file=sys.stderr)
        m = model
    info = {}
    for vi in list(m.graph.input) + list(m.graph.value_info) + \
            list(m.graph.output):
        info[vi.name] = (dims_of(vi), vi.type.tensor_type.elem_type)
    for t in m.graph.initializer:
        info[t.name] = (list(t.dims), t.data_type)
    return info


def shapes_and_values(model):
    """Infer shapes, folding constant integer sub-graphs until nothing
    changes.  Returns (info, values)."""
    opset = next((o.version for o in model.opset_import
                  if o.domain in ("", "ai.onnx")), 13)
    values = {}
    for t in model.graph.initializer:
        if t.data_location != TensorProto.EXTERNAL and \
                np.prod(t.dims, dtype=np.int64) <= MAXEVAL:
            values[t.name] = numpy_helper.to_array(t)
    work = onnx.ModelProto()
    work.CopyFrom(model)
    # Before IR version 4 an initializer must also be a graph input, or
    # inference ignores it; the folded constants added below are not.
    work.ir_version = max(work.ir_version, 4)
    for _ in range(50):
        info = infer(work)
        new = False
        for n in model.graph.node:
            if not n.output or n.output[0] in values:
                continue
            v = None
            if n.op_type == "Constant":
                v = const_of(n)
            elif n.op_type == "Shape":
                d = info.get(n.input[0], (None, 0))[0]
                if d is not None and None not in d:
                    a = attrs(n)
                    v = np.array(d, np.int64)[a.get("start", 0):
                                              a.get("end", len(d))]
            elif n.op_type == "Size":
                d = info.get(n.input[0], (None, 0))[0]
                if d is not None and None not in d:
                    v = np.array(int(np.prod(d)), np.int64)
            elif all(i == "" or i in values for i in n.input):
                ins = [values[i] if i else None for i in n.input]
                # A ConstantOfShape of a large shape makes a weight: its
                # dims come from shape inference, its values are not needed.
                if n.op_type == "ConstantOfShape" and \
                        np.prod(ins[0]) > MAXEVAL:
                    continue
                try:
                    v = evaluate(n, ins, opset)
                except Exception:
                    v = None
            if v is not None and np.size(v) <= MAXEVAL:
                values[n.output[0]] = np.asarray(v)
                new = True
        if not new:
            return info, values
        # Replace every node whose outputs are all known by initializers,
        # so that onnx's inference sees them as data.
        g = work.graph
        keep = [n for n in model.graph.node
                if not all(o in values for o in n.output if o)]
        have = {t.name for t in model.graph.initializer}
        del g.node[:]
        g.node.extend(keep)
        del g.initializer[:]
        g.initializer.extend(model.graph.initializer)
        for k, v in values.items():
            if k not in have:
                g.initializer.append(numpy_helper.from_array(v, k))
    return info, values


# ---- the model's expected rows -----------------------------------------

def layout(d, kind="token"):
    """(batch, c, h, w) of a shape in the contract's layout rules."""
    d = list(d)
    if len(d) > 4:
        d = [int(np.prod(d[:len(d) - 3]))] + d[len(d) - 3:]
    if len(d) == 4:
        return d[0], d[1], d[2], d[3]
    if len(d) == 3:
        if kind == "ncl":
            return d[0], d[1], 1, d[2]
        return d[0], d[2], d[1], 1
    if len(d) == 2:
        return d[0], d[1], 1, 1
    if len(d) == 1:
        return 1, d[0], 1, 1
    return 1, 1, 1, 1


def prod(d):
    p = 1
    for x in d:
        p *= int(x)
    return p


class Model:
    def __init__(self, model, dtype):
        self.m = model
        self.g = model.graph
        self.esz = ESZ[dtype]
        self.info, self.values = shapes_and_values(model)
        g = self.g
        self.names = []
        for i, n in enumerate(g.node):
            self.names.append(n.name if n.name else "%s_%d" % (n.op_type, i))
        self.producer = {}
        self.consumers = {}
        for i, n in enumerate(g.node):
            for o in n.output:
                if o:
                    self.producer[o] = i
            for x in n.input:
                if x:
                    self.consumers.setdefault(x, []).append(i)
        self.graph_outputs = {o.name for o in g.output}
        self.const = {t.name for t in g.initializer}
        for i, n in enumerate(g.node):
            ins = [x for x in n.input if x]
            if n.op_type in CONST_SRC or all(x in self.const for x in ins):
                self.const.update(o for o in n.output if o)
        self.build_rows()

    def shape(self, name):
        return self.info.get(name, (None, 0))[0]

    def tbytes(self, name):
        """Bytes of a tensor: integer tensors keep their element size."""
        d, t = self.info.get(name, (None, 0))
        if d is None or None in d:
            return None
        return prod(d) * INT_ESZ.get(t, self.esz)

    def nconsumers(self, t):
        return len(self.consumers.get(t, [])) + \
            (1 if t in self.graph_outputs else 0)

    def moves_data(self, n):
        d = self.shape(n.input[0])
        if d is None:
            return True
        perm = attrs(n).get("perm", list(range(len(d)))[::-1])
        big = [p for p in perm if d[p] != 1]
        return big != sorted(big)

    def is_scalar_const(self, t, val=None):
        if t not in self.values:
            return False
        v = self.values[t]
        return v.size == 1 and (val is None or abs(float(v.reshape(-1)[0])
                                                   - val) < 1e-3)

    # The cache in its own layout (onnx2layers(1) KV CACHE), read here from
    # the ONNX rules alone: a past cache is a graph input seen through
    # data-moving ops; a Concat of it with data is the cache update; a
    # Transpose, Expand, Tile or Gather of heads of a cache whose output
    # reaches only MatMuls and updates (through the K_VIEW ops) moves
    # nothing.
    KV_VIEW = ("Transpose", "Reshape", "Squeeze", "Unsqueeze", "Expand",
               "Tile", "Identity", "Cast", "Gather")
    KV_PASS = ("Reshape", "Squeeze", "Unsqueeze", "Identity", "Cast",
               "Flatten")

    def kv_gather_ok(self, n):
        if len(n.input) < 2 or n.input[1] not in self.values:
            return False
        ix = self.values[n.input[1]]
        if ix.ndim == 0:
            return True
        d = self.shape(n.input[0])
        ax = attrs(n).get("axis", 0)
        if ix.ndim != 1 or d is None or None in d:
            return False
        h = d[ax]
        cnt = [0] * h
        for v in ix.reshape(-1):
            v = int(v) + (h if v < 0 else 0)
            if not 0 <= v < h:
                return False
            cnt[v] += 1
        return cnt[0] > 0 and len(set(cnt)) == 1

    def kv_root(self, t):
        for _ in range(64):
            p = self.producer.get(t)
            if p is None:
                return t
            n = self.g.node[p]
            if n.op_type not in self.KV_VIEW or \
                    (n.op_type == "Gather" and (len(n.input) < 2 or
                                                n.input[1] not in self.const)):
                return t
            t = n.input[0]
        return t

    def kv_fold(self):
        g = self.g
        inputs = {i.name for i in g.input} - self.const

        def past(t):
            return self.kv_root(t) in inputs
        self.kv_updates = set()
        for n in g.node:
            if n.op_type == "Concat" and \
                    any(past(x) for x in n.input if x) and \
                    any(not past(x) and x not in self.const
                        for x in n.input if x):
                self.kv_updates.add(n.output[0])
        fold = set()
        if not self.kv_updates:
            return fold

        def cache(t):
            r = self.kv_root(t)
            return r in inputs or r in self.kv_updates

        def only_kv(t):
            if t in self.graph_outputs:
                return False
            for c in self.consumers.get(t, []):
                u = g.node[c]
                if u.op_type == "MatMul" or (u.op_type == "Concat" and
                                             u.output[0] in self.kv_updates):
                    continue
                if (u.op_type in self.KV_PASS or movesop(u)) and \
                        u.input[0] == t and all(only_kv(o) for o in u.output):
                    continue
                return False
            return True

        def movesop(n):
            if n.op_type == "Gather":
                return len(n.input) > 1 and n.input[1] in self.values and \
                    self.values[n.input[1]].ndim == 1 and self.kv_gather_ok(n)
            return n.op_type in ("Transpose", "Expand", "Tile")
        for i, n in enumerate(g.node):
            if movesop(n) and cache(n.input[0]) and \
                    all(only_kv(o) for o in n.output if o):
                fold.add(i)
        return fold

    def build_rows(self):
        g = self.g
        skip = set(self.kv_fold())	# node indices not emitted
        self.group = {}		# emitted head -> [node indices]
        self.act = {}		# head -> act name
        self.last = {}		# head -> tensor the row outputs
        owner = {}		# tensor -> head of the row producing it
        for i, n in enumerate(g.node):
            outs = [o for o in n.output if o]
            if all(o in self.const for o in outs) or \
                    n.op_type in SHAPE_ONLY or n.op_type in CONST_SRC or \
                    (n.op_type == "Transpose" and not self.moves_data(n)):
                skip.add(i)
        # BN folded into a Conv whose only consumer it is.
        for i, n in enumerate(g.node):
            if i in skip or n.op_type != "BatchNormalization":
                continue
            p = self.producer.get(n.input[0])
            if p is not None and g.node[p].op_type == "Conv" and \
                    p not in skip and self.nconsumers(n.input[0]) == 1:
                skip.add(i)
                self.group.setdefault(p, [p]).append(i)
        # A zero constant Pad of spatial axes feeding only a Conv becomes
        # the Conv's padding.
        self.padfold = {}	# conv -> Pad node
        for i, n in enumerate(g.node):
            if i in skip or n.op_type != "Pad":
                continue
            c = self.consumers.get(n.output[0], [])
            pads = self.pad_amounts(n)
            if len(c) == 1 and g.node[c[0]].op_type == "Conv" and \
                    n.output[0] not in self.graph_outputs and \
                    g.node[c[0]].input[0] == n.output[0] and \
                    pads is not None and c[0] not in skip:
                skip.add(i)
                self.padfold[c[0]] = i
        # The decomposed LayerNorm is one norm row.
        self.kind = {}
        for i, n in enumerate(g.node):
            if i in skip or n.op_type != "ReduceMean":
                continue
            ln = self.match_layernorm(i)
            if ln is not None:
                for j in ln[1:]:
                    skip.add(j)
                self.group[i] = ln
                self.kind[i] = "norm"
        for i, n in enumerate(g.node):
            if i in skip:
                continue
            self.group.setdefault(i, [i])
        # A constant bias Add after a weight MatMul joins the gemm.
        for i, n in enumerate(g.node):
            if i not in self.group or n.op_type != "MatMul" or \
                    n.input[1] not in self.const:
                continue
            y = n.output[0]
            c = self.consumers.get(y, [])
            if len(c) != 1 or y in self.graph_outputs:
                continue
            a = g.node[c[0]]
            other = [v for v in a.input if v != y]
            # The bias holds N values (one per output feature) and the
            # Add leaves the MatMul's shape alone.
            bshape = self.shape(other[0]) if other else None
            if a.op_type == "Add" and len(other) == 1 and \
                    other[0] in self.const and c[0] in self.group and \
                    self.shape(a.output[0]) == self.shape(y) and \
                    bshape is not None and None not in bshape and \
                    self.shape(y) and prod(bshape) == self.shape(y)[-1] and \
                    (not bshape or bshape[-1] == self.shape(y)[-1]):
                del self.group[c[0]]
                skip.add(c[0])
                self.group[i].append(c[0])
        for h, grp in self.group.items():
            self.last[h] = g.node[grp[-1]].output[0]
            self.act[h] = "none"
            owner[self.last[h]] = h
        # Activation fusion, in file order.  Only into a layer whose last
        # node has one output: an act on one output of a Split is not the
        # Split's.  A multi-node pattern that cannot fuse is one act row.
        for i, n in enumerate(g.node):
            if i in skip or i not in self.group:
                continue
            x = n.input[0] if n.input else ""
            fused = self.match_act(i, x)
            if fused is None:
                continue
            name, nodes, out = fused
            h = owner.get(x)
            if h is None or self.act[h] != "none" or h == i or \
                    len([o for o in g.node[self.group[h][-1]].output
                         if o]) != 1:
                if len(nodes) > 1:
                    for j in nodes[1:]:
                        skip.add(j)
                        self.group.pop(j, None)
                    self.group[i] = nodes
                    self.kind[i] = "actpat"
                    self.act[i] = name
                    self.last[i] = out
                    owner[out] = i
                continue
            for j in nodes:
                skip.add(j)
                self.group.pop(j, None)
                self.group[h].append(j)
            self.act[h] = name
            self.last[h] = out
            owner[out] = h
        self.heads = sorted(self.group)

    def pad_amounts(self, n):
        """Spatial pads [(begin, end)] of a zero constant Pad of a rank-3+
        tensor that pads only axes 2.., or None."""
        a = attrs(n)
        mode = a.get("mode", b"constant")
        mode = mode.decode() if isinstance(mode, bytes) else mode
        if mode != "constant":
            return None
        if "pads" in a:
            pads, val = list(a["pads"]), a.get("value", 0.0)
        else:
            if len(n.input) < 2 or n.input[1] not in self.values:
                return None
            pads = [int(v) for v in self.values[n.input[1]]]
            val = 0.0
            if len(n.input) > 2 and n.input[2]:
                if n.input[2] not in self.values:
                    return None
                val = float(self.values[n.input[2]].reshape(-1)[0])
            if len(n.input) > 3 and n.input[3]:
                return None	# axes input (opset 18): not handled here
        r = len(pads) // 2
        if val != 0.0 or r < 3 or any(pads[j] != 0 or pads[j + r] != 0
                                      for j in range(2)) or \
                any(p < 0 for p in pads):
            return None
        return [(pads[j], pads[j + r]) for j in range(2, r)]

    def match_layernorm(self, i):
        """Nodes of a decomposed LayerNorm starting at ReduceMean i."""
        g, C = self.g, self.consumers

        def only(t, op):
            c = C.get(t, [])
            if len(c) != 1 or t in self.graph_outputs or \
                    g.node[c[0]].op_type != op:
                return None
            return c[0]
        r1 = g.node[i]
        x = r1.input[0]
        c = C.get(r1.output[0], [])
        if len(c) != 1 or g.node[c[0]].op_type != "Sub" or \
                list(g.node[c[0]].input) != [x, r1.output[0]]:
            return None
        sub = c[0]
        d = g.node[sub].output[0]
        cs = C.get(d, [])
        if len(cs) != 2 or d in self.graph_outputs:
            return None
        pw = [j for j in cs if g.node[j].op_type == "Pow"]
        dv = [j for j in cs if g.node[j].op_type == "Div"]
        if len(pw) != 1 or len(dv) != 1 or \
                not self.is_scalar_const(g.node[pw[0]].input[1], 2.0):
            return None
        r2 = only(g.node[pw[0]].output[0], "ReduceMean")
        if r2 is None:
            return None
        ad = only(g.node[r2].output[0], "Add")
        if ad is None:
            return None
        sq = only(g.node[ad].output[0], "Sqrt")
        if sq is None or only(g.node[sq].output[0], "Div") != dv[0] or \
                list(g.node[dv[0]].input) != [d, g.node[sq].output[0]]:
            return None
        nodes = [i, sub, pw[0], r2, ad, sq, dv[0]]
        t = g.node[dv[0]].output[0]
        for op in ("Mul", "Add"):
            j = only(t, op)
            if j is None:
                break
            other = [v for v in g.node[j].input if v != t]
            if len(other) != 1 or other[0] not in self.const:
                break
            nodes.append(j)
            t = g.node[j].output[0]
        return nodes

    def match_act(self, i, x):
        """(act, nodes, output) if node i starts a fusable activation on x."""
        g, C = self.g, self.consumers
        n = g.node[i]
        cons = C.get(x, [])
        if x in self.graph_outputs:
            return None
        if n.op_type in ACTS and len(cons) == 1:
            name = ACTS[n.op_type]
            if n.op_type == "Clip":
                a = attrs(n)
                lo = a.get("min") if len(n.input) < 2 or not n.input[1] \
                    else self.values.get(n.input[1])
                hi = a.get("max") if len(n.input) < 3 or not n.input[2] \
                    else self.values.get(n.input[2])
                if lo is not None and hi is not None and \
                        float(lo) == 0.0 and float(hi) == 6.0:
                    name = "relu6"
            return (name, [i], n.output[0])
        if n.op_type in ("Sigmoid", "HardSigmoid") and len(cons) == 2:
            s = n.output[0]
            sc = C.get(s, [])
            if len(sc) == 1 and s not in self.graph_outputs:
                m = g.node[sc[0]]
                if m.op_type == "Mul" and set(m.input) == {x, s}:
                    return ("silu" if n.op_type == "Sigmoid" else "hardswish",
                            [i, sc[0]], m.output[0])
        if n.op_type == "Div" and len(cons) == 2 and \
                self.is_scalar_const(n.input[1], 2 ** 0.5):
            chain = [i]
            t = n.output[0]
            for op in ("Erf", "Add", "Mul", "Mul"):
                c = C.get(t, [])
                if len(c) != 1 or t in self.graph_outputs:
                    return None
                m = g.node[c[0]]
                if m.op_type != op:
                    return None
                other = [v for v in m.input if v != t]
                if op == "Add" and not (len(other) == 1 and
                                        self.is_scalar_const(other[0], 1.0)):
                    return None
                if len(chain) == 3 and other != [x]:
                    return None
                if len(chain) == 4 and not (len(other) == 1 and
                                            self.is_scalar_const(other[0], 0.5)):
                    return None
                chain.append(c[0])
                t = m.output[0]
            return ("gelu", chain, t)
        return self.match_written(i, x)

    def only1(self, t):
        """The one consumer node of t (not a graph output), or None."""
        c = self.consumers.get(t, [])
        if len(c) != 1 or t in self.graph_outputs:
            return None
        return c[0]

    def scal(self, node, t, val, rel):
        """The operand of node other than t if it is a scalar constant."""
        other = [v for v in node.input if v != t]
        if len(other) != 1 or other[0] not in self.values:
            return False
        v = self.values[other[0]]
        return v.size == 1 and abs(float(v.reshape(-1)[0]) - val) <= \
            rel * abs(val)

    def match_written(self, i, x):
        """The tanh and sigmoid forms of GELU and HardSwish written out,
        when node i is the pattern's first node in file order."""
        g = self.g
        cons = self.consumers.get(x, [])

        def op(j, name):
            return j is not None and g.node[j].op_type == name

        def half_tail(a2, nodes):
            m = self.only1(g.node[a2].output[0])
            if not op(m, "Mul"):
                return None
            y = [v for v in g.node[m].input if v != g.node[a2].output[0]]
            if y == [x]:
                m2 = self.only1(g.node[m].output[0])
                if op(m2, "Mul") and self.scal(g.node[m2],
                                               g.node[m].output[0], 0.5, 1e-6):
                    return nodes + [m, m2], g.node[m2].output[0]
                return None
            h = self.producer.get(y[0]) if len(y) == 1 else None
            if op(h, "Mul") and h in cons and self.scal(g.node[h], x, 0.5,
                                                         1e-6) and \
                    self.only1(y[0]) == m:
                return nodes + [h, m], g.node[m].output[0]
            return None
        res = None
        if len(cons) == 3:
            for p in cons:
                if not (op(p, "Pow") and g.node[p].input[0] == x and
                        self.scal(g.node[p], x, 3, 1e-9)):
                    continue
                m1 = self.only1(g.node[p].output[0])
                if not (op(m1, "Mul") and self.scal(
                        g.node[m1], g.node[p].output[0], 0.044715, 1e-3)):
                    continue
                a1 = self.only1(g.node[m1].output[0])
                if not (op(a1, "Add") and a1 in cons):
                    continue
                m2 = self.only1(g.node[a1].output[0])
                if not (op(m2, "Mul") and self.scal(
                        g.node[m2], g.node[a1].output[0], 0.7978845608,
                        1e-3)):
                    continue
                th = self.only1(g.node[m2].output[0])
                a2 = self.only1(g.node[th].output[0]) if op(th, "Tanh") \
                    else None
                if not (op(a2, "Add") and self.scal(
                        g.node[a2], g.node[th].output[0], 1, 1e-9)):
                    continue
                r = half_tail(a2, [p, m1, a1, m2, th, a2])
                if r is not None:
                    res = ("gelu",) + r
        elif len(cons) == 2:
            for p in cons:
                q = g.node[p]
                if op(p, "Mul") and self.scal(q, x, 1.702, 1e-3):
                    s = self.only1(q.output[0])
                    m = self.only1(g.node[s].output[0]) if op(s, "Sigmoid") \
                        else None
                    if op(m, "Mul") and set(g.node[m].input) == \
                            {x, g.node[s].output[0]}:
                        res = ("gelu", [p, s, m], g.node[m].output[0])
                if op(p, "Add") and self.scal(q, x, 3, 0):
                    c = self.only1(q.output[0])
                    if not op(c, "Clip") or self.match_act(c, q.output[0]) \
                            is None or self.match_act(
                                c, q.output[0])[0] != "relu6":
                        continue
                    co = g.node[c].output[0]
                    d = self.only1(co)
                    if op(d, "Mul") and set(g.node[d].input) == {x, co}:
                        e = self.only1(g.node[d].output[0])
                        if (op(e, "Div") and self.scal(
                                g.node[e], g.node[d].output[0], 6, 0)) or \
                                (op(e, "Mul") and self.scal(
                                    g.node[e], g.node[d].output[0], 1 / 6,
                                    1e-6)):
                            res = ("hardswish", [p, c, d, e],
                                   g.node[e].output[0])
                    elif (op(d, "Div") and self.scal(g.node[d], co, 6, 0)) \
                            or (op(d, "Mul") and self.scal(g.node[d], co,
                                                           1 / 6, 1e-6)):
                        e = self.only1(g.node[d].output[0])
                        if op(e, "Mul") and set(g.node[e].input) == \
                                {x, g.node[d].output[0]}:
                            res = ("hardswish", [p, c, d, e],
                                   g.node[e].output[0])
        if res is None or min(res[1]) != i:
            return None
        return (res[0], sorted(res[1]), res[2])


# ---- expected geometry of one row --------------------------------------

def pads_of(n, a, ins, ks, strides, dils):
    """[(begin, end)] per spatial axis, auto_pad resolved."""
    r = len(ks)
    ap = a.get("auto_pad", b"NOTSET")
    ap = ap.decode() if isinstance(ap, bytes) else ap
    if ap in ("SAME_UPPER", "SAME_LOWER"):
        out = []
        for j in range(r):
            i = ins[j]
            o = -(-i // strides[j])
            tot = max(0, (o - 1) * strides[j] + (ks[j] - 1) * dils[j] + 1 - i)
            small, big = tot // 2, tot - tot // 2
            out.append((small, big) if ap == "SAME_UPPER" else (big, small))
        return out
    if ap == "VALID":
        return [(0, 0)] * r
    p = a.get("pads", [0] * (2 * r))
    return [(p[j], p[j + r]) for j in range(r)]


def expect(M, h):
    """dict column -> expected value for the row headed by node h, plus
    the ONNX op type; raises KeyError when a shape is unknown."""
    g = M.g
    n = g.node[h]
    op = n.op_type
    a = attrs(n)
    acts = [x for x in n.input if x and x not in M.const]
    consts = [x for x in n.input if x and x in M.const]
    out = M.shape(M.last[h])
    if out is None or None in out:
        raise KeyError(M.last[h])
    e = {"name": M.names[h], "onnx_op": op, "act": M.act[h],
         "kernel_h": 1, "kernel_w": 1, "stride_h": 1, "stride_w": 1,
         "pad_top": 0, "pad_left": 0, "pad_bottom": 0, "pad_right": 0,
         "dil_h": 1, "dil_w": 1, "groups": 1}
    esz = M.esz

    def need(t):
        d = M.shape(t)
        if d is None or None in d:
            raise KeyError(t)
        return d

    if M.kind.get(h) == "actpat":	# an activation pattern on its own
        x = need(n.input[0])
        b, c, hh, ww = layout(x)
        ob, oc, oh, ow = layout(out)
        e.update(op="act", batch=b, in_c=c, in_h=hh, in_w=ww, out_c=oc,
                 out_h=oh, out_w=ow, in_bytes=M.tbytes(n.input[0]),
                 weight_bytes=0, gemm_m=0, gemm_n=0, gemm_k=0, gemm_batch=0)
    elif h in M.kind:		# decomposed LayerNorm
        grp = M.group[h]
        x = need(n.input[0])
        b, c, hh, ww = layout(x)
        ob, oc, oh, ow = layout(out)
        wb = 0
        for j in grp[7:]:	# the scale Mul and bias Add
            for v in g.node[j].input:
                if v in M.const:
                    wb += M.tbytes(v)
        e.update(op="norm", batch=b, in_c=c, in_h=hh, in_w=ww, out_c=oc,
                 out_h=oh, out_w=ow, in_bytes=M.tbytes(n.input[0]),
                 weight_bytes=wb, gemm_m=0, gemm_n=0, gemm_k=0, gemm_batch=0)
    elif op in ("Conv", "ConvTranspose"):
        xin = n.input[0]
        if h in M.padfold:	# a Pad folded into the conv's padding
            xin = g.node[M.padfold[h]].input[0]
        x, w = need(xin), need(n.input[1])
        kind = "ncl" if len(x) == 3 else "token"
        b, c, hh, ww = layout(x, kind)
        ob, oc, oh, ow = layout(out, kind)
        ks = a.get("kernel_shape", w[2:])
        r = len(ks)
        st = a.get("strides", [1] * r)
        dl = a.get("dilations", [1] * r)
        grp = a.get("group", 1)
        pads = pads_of(n, a, need(n.input[0])[2:], ks, st, dl) \
            if op == "Conv" else \
            [(p, q) for p, q in zip(a.get("pads", [0] * 2 * r)[:r],
                                    a.get("pads", [0] * 2 * r)[r:])]
        if h in M.padfold:
            extra = M.pad_amounts(g.node[M.padfold[h]])
            pads = [(p + q, r_ + s_) for (p, r_), (q, s_) in
                    zip(pads, extra)]
        if r == 1:
            ks, st, dl, pads = [1] + list(ks), [1] + list(st), \
                [1] + list(dl), [(0, 0)] + pads
        e.update(op="conv", batch=b, in_c=c, in_h=hh, in_w=ww, out_c=oc,
                 out_h=oh, out_w=ow, kernel_h=ks[0], kernel_w=ks[1],
                 stride_h=st[0], stride_w=st[1], dil_h=dl[0], dil_w=dl[1],
                 pad_top=pads[0][0], pad_bottom=pads[0][1],
                 pad_left=pads[1][0], pad_right=pads[1][1], groups=grp)
        e["gemm_m"] = b * oh * ow
        e["gemm_n"] = oc // grp
        e["gemm_k"] = c // grp * ks[0] * ks[1]
        e["gemm_batch"] = grp
        e["weight_bytes"] = prod(w) * esz
        e["in_bytes"] = prod(x) * esz
        if op == "ConvTranspose":	# the contract gives no GEMM view
            for k in ("gemm_m", "gemm_n", "gemm_k", "gemm_batch"):
                e[k] = None
    elif op == "Gemm" or (op == "MatMul" and n.input[1] in M.const):
        x, w = need(n.input[0]), need(n.input[1])
        if op == "Gemm":
            if a.get("transA", 0):
                x = [x[1], x[0]]
            k, nn = (w[1], w[0]) if a.get("transB", 0) else (w[0], w[1])
        else:
            k, nn = w[-2], w[-1]
        b = x[0] if len(x) > 1 else 1
        mid = prod(x[1:-1]) if len(x) > 2 else 1
        e.update(op="gemm", batch=b, in_h=mid, in_w=1, in_c=x[-1],
                 out_c=out[-1], out_h=mid, out_w=1)
        e.update(gemm_m=b * mid, gemm_n=nn, gemm_k=k, gemm_batch=1,
                 weight_bytes=k * nn * esz, in_bytes=prod(x) * esz)
    elif op == "MatMul":
        x, y = need(n.input[0]), need(n.input[1])
        mm, k = (x[-2], x[-1]) if len(x) >= 2 else (1, x[0])
        nn = y[-1] if len(y) >= 2 else 1
        lead = out[:-2] if len(x) >= 2 and len(y) >= 2 else []
        gb = prod(lead)
        b = out[0] if len(out) >= 3 else 1
        e.update(op="matmul", batch=b, in_w=gb // b, in_h=mm, in_c=k,
                 out_h=mm, out_c=nn, out_w=gb // b, gemm_batch=gb, gemm_m=mm,
                 gemm_n=nn, gemm_k=k, weight_bytes=0,
                 in_bytes=(prod(x) + prod(y)) * esz)
    else:
        first = need(acts[0]) if acts else [1]
        kind = "ncl" if (op in POOLS or op in GPOOLS) and len(first) == 3 \
            else "token"
        b, c, hh, ww = layout(first, kind)
        ob, oc, oh, ow = layout(out, kind)
        e.update(batch=b, in_c=c, in_h=hh, in_w=ww, out_c=oc, out_h=oh,
                 out_w=ow)
        ib = [M.tbytes(x) for x in acts]
        wb = [M.tbytes(x) for x in consts]
        if None in ib or None in wb:
            raise KeyError(n.name)
        e["in_bytes"], e["weight_bytes"] = sum(ib), sum(wb)
        e.update(gemm_m=0, gemm_n=0, gemm_k=0, gemm_batch=0)
        if op in POOLS:
            ks = a["kernel_shape"]
            r = len(ks)
            st = a.get("strides", [1] * r)
            dl = a.get("dilations", [1] * r)
            pads = pads_of(n, a, first[2:], ks, st, dl)
            if r == 1:
                ks, st, dl, pads = [1] + ks, [1] + st, [1] + dl, \
                    [(0, 0)] + pads
            e.update(op="pool", kernel_h=ks[0], kernel_w=ks[1],
                     stride_h=st[0], stride_w=st[1], dil_h=dl[0],
                     dil_w=dl[1], pad_top=pads[0][0], pad_bottom=pads[0][1],
                     pad_left=pads[1][0], pad_right=pads[1][1])
        elif op in GPOOLS or (op == "ReduceMean" and len(first) == 4 and
                              sorted(d % 4 for d in M.reduce_axes(n))
                              == [2, 3]):
            e.update(op="pool", kernel_h=hh, kernel_w=ww)
        elif op == "Gather" and consts and n.input[0] in M.const and \
                M.info.get(n.input[1], (0, 0))[1] in INT_ESZ:
            ids = need(n.input[1])
            if len(ids) == 1:
                ids = [1] + ids
            e.update(op="embed", in_c=1, batch=prod(ids[:-1]),
                     in_h=ids[-1], in_w=1)
        elif op in ELTWISE:
            e["op"] = ("eltwise", "act") if op in ("Erf", "Sqrt", "Exp",
                                                   "Log", "Neg", "Abs",
                                                   "Reciprocal") \
                else "eltwise"
        elif op in ACTS:
            # A standalone activation: act may name it or say none.
            e["op"] = "act"
            e["act"] = ("none", ACTS[op] or op.lower()) \
                if ACTS[op] or op != "Clip" else None
        elif op in ("Softmax", "LogSoftmax"):
            e["op"] = "softmax"
        elif op in NORMS:
            e["op"] = "norm"
        elif op in REDUCES:
            e["op"] = "reduce"
        elif op == "Concat":
            e["op"] = "concat"
        elif op == "Transpose":
            e["op"] = "transpose"
        elif op in ("Resize", "Upsample"):
            e["op"] = "resize"
        else:
            e["op"] = None	# the contract does not say: not checked
    if op == "ConvTranspose":
        # Every input position meets every weight once (scatter or col2im
        # view alike): N*H_in*W_in * C_in*(C_out/g)*kh*kw.
        x = need(n.input[0])
        e["macs"] = prod(x[:1] + x[2:]) * prod(need(n.input[1]))
    elif e["op"] in ("conv", "gemm", "matmul"):
        e["macs"] = e["gemm_batch"] * e["gemm_m"] * e["gemm_n"] * e["gemm_k"]
    else:
        e["macs"] = 0
    e["out_bytes"] = prod(out) * INT_ESZ.get(M.info[M.last[h]][1], esz)
    return e


def reduce_axes(self, n):
    a = attrs(n)
    if "axes" in a:
        return a["axes"]
    if len(n.input) > 1 and n.input[1] in self.values:
        return [int(v) for v in self.values[n.input[1]]]
    return list(range(len(self.shape(n.input[0]) or [])))


Model.reduce_axes = reduce_axes


def preds_of(M, h, rowid):
    """Row ids producing the activations that enter row h's nodes."""
    head_of = {}
    for hh, grp in M.group.items():
        for j in grp:
            for o in M.g.node[j].output:
                head_of[o] = hh
    out = set()

    def trace(t, seen):
        if t in head_of:
            return [head_of[t]]
        p = M.producer.get(t)
        if p is None or t in M.const or p in seen:
            return []
        seen.add(p)
        r = []
        for x in M.g.node[p].input:
            if x and x not in M.const:
                r += trace(x, seen)
        return r
    for j in M.group[h]:
        for x in M.g.node[j].input:
            if not x or x in M.const:
                continue
            for p in trace(x, set()):
                if p != h:
                    if rowid[p] >= 0:
                        out.add(rowid[p])
    return sorted(out)


# ---- comparing ---------------------------------------------------------

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-i", action="append", default=[])
    ap.add_argument("-t", default="fp16")
    ap.add_argument("-c", action="store_true",
                    help="check only the Conv, Gemm and MatMul rows")
    ap.add_argument("--dump", action="store_true",
                    help="print the oracle's own rows instead (debugging)")
    ap.add_argument("model")
    ap.add_argument("layers", nargs="?")
    args = ap.parse_args()
    tag = args.model.rsplit("/", 1)[-1]
    model = onnx.load(args.model, load_external_data=False)
    g = model.graph
    inits = {t.name for t in g.initializer}
    data_inputs = [i for i in g.input if i.name not in inits]
    for spec in args.i:
        name, _, dims = spec.rpartition("=")
        if not name:
            name = data_inputs[0].name
        vi = next(i for i in g.input if i.name == name)
        shp = vi.type.tensor_type.shape
        del shp.dim[:]
        for d in dims.split("x"):
            shp.dim.add().dim_value = int(d)
    if args.i:
        del g.value_info[:]
        for o in g.output:
            o.type.tensor_type.ClearField("shape")
    M = Model(model, args.t)
    if args.dump:
        for h in M.heads:
            try:
                e = expect(M, h)
            except KeyError as ex:
                e = {"unknown": str(ex)}
            e["preds"] = preds_of(M, h, {hh: k for k, hh in
                                         enumerate(M.heads)})
            print(e)
        return 0
    with open(args.layers, newline="") as f:
        rows = list(enumerate(csv.DictReader(f)))
    # A pattern's row may take the name of any of its nodes.
    alias = {M.names[j]: M.names[h] for h in M.kind for j in M.group[h]}
    for _, r in rows:
        if r.get("name") in alias:
            r["name"] = alias[r["name"]]
    bad = []

    def mismatch(msg):
        bad.append("oracle: %s: %s" % (tag, msg))

    # Row index in the table of every name, before any filtering.
    seen = {}
    for k, r in rows:
        nm = r.get("name", "")
        if nm in seen:
            mismatch("row %d: node %s already row %d" % (k, nm, seen[nm]))
        seen.setdefault(nm, k)
    for k, r in rows:
        if r.get("layer") != str(k):
            mismatch("row %d: column layer: want %d, got %s" %
                     (k, k, r.get("layer")))
    if args.c:
        # Only the GEMM-like layers: those rows must exist, once each, and
        # be right; what the other nodes become is not checked.
        keep = [h for h in M.heads
                if g.node[h].op_type in ("Conv", "Gemm", "MatMul")]
        names = {M.names[h] for h in keep}
        M.heads = keep
        rows = [(k, r) for k, r in rows if r.get("name") in names or
                r.get("op") in ("conv", "gemm", "matmul")]

    want = [M.names[h] for h in M.heads]
    got = [r.get("name", "") for _, r in rows]
    byname = {M.names[h]: h for h in M.heads}
    allnames = {nm: i for i, nm in enumerate(M.names)}
    if len(rows) != len(want):
        mismatch("row count: want %d, got %d" % (len(want), len(rows)))
    for nm in sorted(set(want) - set(got)):
        h = byname[nm]
        mismatch("missing row for node %s (%s)" % (nm, g.node[h].op_type))
    for k, r in rows:
        nm = r.get("name", "")
        if nm not in byname:
            i = allnames.get(nm)
            why = "no such node" if i is None else \
                "node %s is not a layer by the oracle's rules" % \
                g.node[i].op_type
            mismatch("row %d: extra row %s (op %s): %s" %
                     (k, nm, r.get("op"), why))
    for i, n in enumerate(g.node):
        if n.op_type in ("Conv", "Gemm", "MatMul") and \
                M.names[i] in byname and got.count(M.names[i]) != 1:
            mismatch("%s %s appears in %d rows" % (n.op_type, M.names[i],
                                                   got.count(M.names[i])))
    if [x for x in got if x in byname] != [x for x in want if x in seen]:
        mismatch("rows are not in the file's node order")
    # Row by row, for every row the oracle also expects.
    for k, r in rows:
        nm = r.get("name", "")
        if nm not in byname:
            continue
        h = byname[nm]
        try:
            e = expect(M, h)
        except KeyError as ex:
            mismatch("row %d (%s): oracle cannot infer shape of %s" %
                     (k, nm, ex))
            continue
        e["dtype"] = args.t
        if r.get("resident") == "kv":
            # A KV cache (pf-formats(7) resident): the cache is MatMul's B
            # operand, resident like weights, one instance per cache
            # matrix, broadcast query heads as rows; which rows read a
            # cache is tests/llm/llm.sh's check.  The cache's Concat is
            # an append whose byte counts follow the new token only.
            n = g.node[h]
            if n.op_type == "MatMul":
                y = M.shape(n.input[1])
                esz = ESZ[args.t]
                inst = 1
                for d in y[:-2]:
                    inst *= d
                # the cache as stored: its update's elements over k x n
                # (the heads a repeat made are rows, not instances)
                root = M.kv_root(n.input[1])
                kn = e["gemm_k"] * e["gemm_n"]
                if root in M.kv_updates and M.shape(root) and kn and \
                        prod(M.shape(root)) % kn == 0 and \
                        prod(M.shape(root)) // kn < inst:
                    inst = prod(M.shape(root)) // kn
                if inst and e["gemm_batch"] % inst == 0:
                    e["gemm_m"] *= e["gemm_batch"] // inst
                    e["gemm_batch"] = inst
                e["weight_bytes"] = inst * e["gemm_k"] * e["gemm_n"] * esz
                e["in_bytes"] = e["gemm_batch"] * e["gemm_m"] * \
                    e["gemm_k"] * esz
            else:
                e["in_bytes"] = e["out_bytes"] = e["weight_bytes"] = None
        if not args.c:
            # preds: the rows producing the activations the row reads.
            p = preds_of(M, h, {hh: seen.get(M.names[hh], -1)
                                for hh in M.heads})
            e["preds"] = " ".join(str(x) for x in p)
        for col, v in e.items():
            if v is None:
                continue
            g_ = r.get(col)
            if g_ is None:
                mismatch("row %d (%s): missing column %s" % (k, nm, col))
                continue
            if col == "preds":
                ok = sorted(g_.split(), key=lambda x: int(x) if
                            x.isdigit() else -1) == v.split()
            elif isinstance(v, tuple):
                ok = g_ in v
            else:
                ok = g_ == str(v)
            if not ok:
                mismatch("row %d (%s): column %s: want %s, got %s" %
                         (k, nm, col, "|".join(v) if isinstance(v, tuple)
                          else v, g_))
    for b in bad:
        print(b)
    if not bad:
        print("oracle: %s: %d rows agree" % (tag, len(rows)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
