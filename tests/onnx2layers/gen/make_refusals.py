#!/usr/bin/python3
# Models for the "every number right or refused" cases of onnx2layers
# (constant-folded Range, Softmax axes, opset imports), built with the
# helpers of make_models.py.  The files are committed; rerun only to change
# one:  /usr/bin/python3 tests/onnx2layers/gen/make_refusals.py
import os

import numpy as np
import onnx
from onnx import TensorProto as T, helper as h, numpy_helper

from make_models import N, OUT, save, vi


def scalar(name, t, v):
    return N("Constant", [], [name],
             value=h.make_tensor(name + "_v", t, [], [v]))


def rng(name, t, start, limit, delta, n):
    """x[1, n] + Range(start, limit, delta): accepted only if it has n values."""
    save(name, [scalar("s", t, start), scalar("l", t, limit),
                scalar("d", t, delta), N("Range", ["s", "l", "d"], ["r"]),
                N("Add", ["x", "r"], ["y"])],
         [vi("x", [1, n], t)], [vi("y", [1, n], t)])


def main():
    # float32: ceil((56.49f - 0) / 0.07f) in single precision, as ONNX's
    # definition computes it in the input type, is 807 (in double: 808).
    rng("range_f807", T.FLOAT, 0.0, 56.49, 0.07, 807)
    # int64 near the top of the range: 10 values (a double difference is 0).
    rng("range_i64top", T.INT64, 2**63 - 11, 2**63 - 1, 1, 10)
    # int64 values from -(2^63 - 1) in steps of 2^62: i * delta overflows a
    # signed product on the way to values that all fit.
    rng("range_i64wrap", T.INT64, -(2**63 - 1), 2**63 - 1, 2**62, 4)
    # Softmax axis 2 of a rank-2 input.
    save("softmax_axis", [N("Softmax", ["x"], ["y"], axis=2)],
         [vi("x", [1, 10])], [vi("y", [1, 10])])
    # Relu without any opset_import, and at an opset from the future.
    for name, ops in (("noopset", []), ("opset99", [h.make_opsetid("", 99)])):
        g = h.make_graph([N("Relu", ["x"], ["y"])], name,
                         [vi("x", [1, 10])], [vi("y", [1, 10])])
        m = h.make_model(g, opset_imports=ops, producer_name="make_refusals.py")
        del m.opset_import[:]
        m.opset_import.extend(ops)
        m.ir_version = 8
        onnx.save(m, os.path.join(OUT, name + ".onnx"))
    # An int64 initializer of 4 values whose raw_data holds 3 bytes.
    t = numpy_helper.from_array(np.zeros([4], np.int64), "shp")
    t.raw_data = b"\0\0\0"
    save("rawdata_short", [N("Reshape", ["x", "shp"], ["y"])],
         [vi("x", [1, 10])], [vi("y", [1, 10])], [t])
    # A conv weight too large to keep (its data is skipped unread) whose
    # raw_data holds 100 bytes of the 147456 its dims need.
    t = numpy_helper.from_array(np.zeros([64, 64, 3, 3], np.float32), "w")
    t.raw_data = b"\0" * 100
    save("rawdata_big_short", [N("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
         [vi("x", [1, 64, 8, 8])], [vi("y", [1, 64, 8, 8])], [t])
    # Range(0, 56.49f, 0.07f) has 807 values; the model declares 808 for it.
    save("range_decl808", [scalar("s", T.FLOAT, 0.0), scalar("l", T.FLOAT, 56.49),
                           scalar("d", T.FLOAT, 0.07),
                           N("Range", ["s", "l", "d"], ["r"]),
                           N("Add", ["x", "r"], ["y"])],
         [vi("x", [1, 807])], [vi("y", [1, 807])], vinfo=[vi("r", [808])])


if __name__ == "__main__":
    main()
