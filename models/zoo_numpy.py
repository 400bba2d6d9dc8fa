#!/usr/bin/python3
"""A float64 numpy interpreter of the ONNX operators the model zoo (models/make_zoo.py) uses, and the zoo's
graph statistics (parameters, multiply-accumulates).

The interpreter gives the expected outputs (output_<k>.pb) the golden model and the chip are checked against: it
runs every node in float64 whatever the model's types, straight from the ONNX operator documents, and knows
nothing of tx8-aot. It covers: Conv (groups, pads, strides, dilations), Gemm, MatMul, Add, Sub, Mul, Div, Pow,
Sqrt, Erf, Tanh, Relu, Sigmoid, Clip (bounds as inputs or attributes), MaxPool / AveragePool (pads, ceil_mode,
count_include_pad), GlobalAveragePool, BatchNormalization, LRN, Concat, Reshape, Transpose, Flatten, Softmax,
LayerNormalization, ReduceMean, Gather, DepthToSpace, Constant, ConstantOfShape, Shape, Unsqueeze, Squeeze,
Identity, Dropout (inference). Anything else raises NotImplementedError naming the node.

Usage:
  zoo_numpy.py stats MODEL.onnx            prints "params <n> macs <n> nodes <n>"
  zoo_numpy.py run MODEL.onnx INPUT.pb...  prints each output's shape and a checksum
"""
import math
import sys

import numpy as np
import onnx
from onnx import TensorProto, numpy_helper, shape_inference

_erf = np.frompyfunc(math.erf, 1, 1)


def _attrs(node):
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _f64(a):
    """Floating values computed in float64; integer values (indices, shapes) keep their integer type."""
    a = np.asarray(a)
    return a.astype(np.float64) if a.dtype.kind == "f" else a


def _pool_geometry(x_hw, kernel, strides, pads, dilations, ceil_mode):
    """Output extents and the extra end padding ceil_mode needs (a window must start inside the input or its
    begin padding, as PyTorch and ONNX's reference do)."""
    r = len(kernel)
    out, extra = [], []
    for i in range(r):
        eff = (kernel[i] - 1) * dilations[i] + 1
        span = x_hw[i] + pads[i] + pads[i + r] - eff
        o = (-(-span // strides[i]) if ceil_mode else span // strides[i]) + 1
        if ceil_mode and (o - 1) * strides[i] >= x_hw[i] + pads[i]:
            o -= 1
        out.append(o)
        extra.append(max(0, (o - 1) * strides[i] + eff - (x_hw[i] + pads[i] + pads[i + r])))
    return out, extra


def _windows(xp, kernel, strides, dilations, out):
    """Yields (kernel offset, the strided view of xp the offset reads for every output position)."""
    for idx in np.ndindex(*kernel):
        sl = tuple(slice(k * d, k * d + s * (o - 1) + 1, s) for k, d, s, o in zip(idx, dilations, strides, out))
        yield idx, xp[(Ellipsis,) + sl]


def conv(x, w, b, a):
    n, c = x.shape[:2]
    r = x.ndim - 2
    kernel = list(w.shape[2:])
    strides = a.get("strides", [1] * r)
    dilations = a.get("dilations", [1] * r)
    pads = a.get("pads", [0] * 2 * r)
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise NotImplementedError("Conv auto_pad")
    g = a.get("group", 1)
    m = w.shape[0]
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pads[i], pads[i + r]) for i in range(r)])
    out, _ = _pool_geometry(x.shape[2:], kernel, strides, pads, dilations, False)
    cg, mg = c // g, m // g
    wg = w.reshape(g, mg, cg, *kernel)
    y = np.zeros((n, g, mg, int(np.prod(out))))
    for idx, view in _windows(xp, kernel, strides, dilations, out):
        # [g, mg, cg] @ [n, g, cg, P] -> [n, g, mg, P]
        y += np.matmul(wg[(slice(None), slice(None), slice(None)) + idx], view.reshape(n, g, cg, -1))
    y = y.reshape(n, m, *out)
    if b is not None:
        y += b.reshape((1, m) + (1,) * r)
    return y


def pool(x, a, kind):
    r = x.ndim - 2
    kernel = a["kernel_shape"]
    strides = a.get("strides", [1] * r)
    dilations = a.get("dilations", [1] * r)
    pads = a.get("pads", [0] * 2 * r)
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise NotImplementedError("pool auto_pad")
    out, extra = _pool_geometry(x.shape[2:], kernel, strides, pads, dilations, a.get("ceil_mode", 0))
    widths = [(0, 0), (0, 0)] + [(pads[i], pads[i + r] + extra[i]) for i in range(r)]
    if kind == "max":
        xp = np.pad(x, widths, constant_values=-np.inf)
        y = np.full(x.shape[:2] + tuple(out), -np.inf)
        for _, view in _windows(xp, kernel, strides, dilations, out):
            y = np.maximum(y, view)
        return y
    xp = np.pad(x, widths)
    # the divisor: the real elements (count_include_pad=0) or those plus the explicit pads, never the ceil_mode
    # extension
    ones = np.ones(x.shape[2:])
    if a.get("count_include_pad", 0):
        ones = np.pad(ones, [(pads[i], pads[i + r]) for i in range(r)], constant_values=1.0)
        ones = np.pad(ones, [(0, extra[i]) for i in range(r)])
    else:
        ones = np.pad(ones, [(pads[i], pads[i + r] + extra[i]) for i in range(r)])
    y = np.zeros(x.shape[:2] + tuple(out))
    cnt = np.zeros(tuple(out))
    for (_, view), (_, cview) in zip(_windows(xp, kernel, strides, dilations, out),
                                     _windows(ones, kernel, strides, dilations, out)):
        y += view
        cnt += cview
    return y / cnt


def lrn(x, a):
    size = a["size"]
    alpha, beta, bias = a.get("alpha", 1e-4), a.get("beta", 0.75), a.get("bias", 1.0)
    c = x.shape[1]
    sq = x * x
    lo, hi = (size - 1) // 2, -(-(size - 1) // 2)
    s = np.zeros_like(x)
    for ch in range(c):
        s[:, ch] = sq[:, max(0, ch - lo):min(c, ch + hi + 1)].sum(axis=1)
    return x / (bias + alpha / size * s) ** beta


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def reshape(x, shape, allowzero=0):
    shape = [int(v) for v in shape]
    if not allowzero:
        shape = [x.shape[i] if v == 0 else v for i, v in enumerate(shape)]
    return x.reshape(shape)


def depth_to_space(x, bs, mode):
    n, c, h, w = x.shape
    if mode in (b"CRD", "CRD"):
        t = x.reshape(n, c // (bs * bs), bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
    else:
        t = x.reshape(n, bs, bs, c // (bs * bs), h, w).transpose(0, 3, 4, 1, 5, 2)
    return t.reshape(n, c // (bs * bs), h * bs, w * bs)


def _axes(node, a, ins, opset, pos):
    """Axes of Squeeze/Unsqueeze/ReduceMean: an attribute before the opset that made them an input."""
    if len(ins) > pos and ins[pos] is not None:
        return [int(v) for v in ins[pos]]
    return a.get("axes")


def run_node(node, ins, opset):
    """ins: the node's input values (None for an omitted optional input). Returns the list of outputs."""
    op, a = node.op_type, _attrs(node)
    x = ins[0] if ins else None
    if op == "Conv":
        return [conv(x, ins[1], ins[2] if len(ins) > 2 else None, a)]
    if op == "Gemm":
        A = ins[0].T if a.get("transA", 0) else ins[0]
        B = ins[1].T if a.get("transB", 0) else ins[1]
        y = a.get("alpha", 1.0) * (A @ B)
        if len(ins) > 2 and ins[2] is not None:
            y = y + a.get("beta", 1.0) * ins[2]
        return [y]
    if op == "MatMul":
        return [np.matmul(ins[0], ins[1])]
    binary = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Pow": np.power}
    if op in binary:
        return [binary[op](ins[0], ins[1])]
    unary = {"Sqrt": np.sqrt, "Tanh": np.tanh, "Relu": lambda v: np.maximum(v, 0.0),
             "Sigmoid": lambda v: 1.0 / (1.0 + np.exp(-v)), "Erf": lambda v: _erf(v).astype(np.float64),
             "Identity": lambda v: v, "Dropout": lambda v: v}
    if op in unary:
        return [unary[op](x)]
    if op == "Clip":
        lo = ins[1] if len(ins) > 1 and ins[1] is not None else a.get("min", -np.inf)
        hi = ins[2] if len(ins) > 2 and ins[2] is not None else a.get("max", np.inf)
        return [np.minimum(np.maximum(x, lo), hi)]
    if op == "MaxPool":
        return [pool(x, a, "max")]
    if op == "AveragePool":
        return [pool(x, a, "avg")]
    if op == "GlobalAveragePool":
        return [x.mean(axis=tuple(range(2, x.ndim)), keepdims=True)]
    if op == "BatchNormalization":
        shape = (1, -1) + (1,) * (x.ndim - 2)
        scale, bias, mean, var = (v.reshape(shape) for v in ins[1:5])
        return [(x - mean) / np.sqrt(var + a.get("epsilon", 1e-5)) * scale + bias]
    if op == "LRN":
        return [lrn(x, a)]
    if op == "Concat":
        return [np.concatenate(ins, axis=a["axis"])]
    if op == "Reshape":
        return [reshape(x, ins[1], a.get("allowzero", 0))]
    if op == "Transpose":
        return [np.transpose(x, a.get("perm"))]
    if op == "Flatten":
        ax = a.get("axis", 1) % max(x.ndim, 1)
        return [x.reshape(int(np.prod(x.shape[:ax])), -1)]
    if op == "Softmax":
        if opset < 13:
            raise NotImplementedError("Softmax before opset 13")
        return [softmax(x, a.get("axis", -1))]
    if op == "LayerNormalization":
        axis = a.get("axis", -1) % x.ndim
        axes = tuple(range(axis, x.ndim))
        mean = x.mean(axis=axes, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
        y = (x - mean) / np.sqrt(var + a.get("epsilon", 1e-5)) * ins[1]
        if len(ins) > 2 and ins[2] is not None:
            y = y + ins[2]
        return [y]
    if op == "ReduceMean":
        axes = _axes(node, a, ins, opset, 1) if opset >= 18 else a.get("axes")
        axes = tuple(range(x.ndim)) if axes is None else tuple(int(v) % x.ndim for v in axes)
        return [x.mean(axis=axes, keepdims=bool(a.get("keepdims", 1)))]
    if op == "Gather":
        return [np.take(x, ins[1].astype(np.int64), axis=a.get("axis", 0))]
    if op == "DepthToSpace":
        return [depth_to_space(x, a["blocksize"], a.get("mode", b"DCR"))]
    if op == "Constant":
        return [_f64(numpy_helper.to_array(a["value"]))]
    if op == "ConstantOfShape":
        v = numpy_helper.to_array(a["value"]) if "value" in a else np.zeros(1, np.float32)
        return [_f64(np.full([int(d) for d in x], v.reshape(-1)[0], dtype=v.dtype))]
    if op == "Shape":
        return [np.array(x.shape, dtype=np.int64)]
    if op == "Unsqueeze":
        axes = _axes(node, a, ins, opset, 1) if opset >= 13 else a["axes"]
        rank = x.ndim + len(axes)
        y = x
        for ax in sorted(int(v) % rank for v in axes):
            y = np.expand_dims(y, ax)
        return [y]
    if op == "Squeeze":
        axes = _axes(node, a, ins, opset, 1) if opset >= 13 else a.get("axes")
        if axes is None:
            return [np.squeeze(x)]
        return [np.squeeze(x, axis=tuple(int(v) % x.ndim for v in axes))]
    raise NotImplementedError("zoo_numpy: no %s (node %s)" % (op, node.name))


def run(model, feeds, env=None):
    """model: ModelProto; feeds: {input name: numpy array}. Returns the graph outputs (float64 for floating
    values) in order; env (a dict), when given, receives every value."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 1)
    env = {} if env is None else env
    env.update({t.name: _f64(numpy_helper.to_array(t)) for t in model.graph.initializer})
    for k, v in feeds.items():
        env[k] = _f64(v)
    for node in model.graph.node:
        ins = [env[n] if n else None for n in node.input]
        outs = run_node(node, ins, opset)
        for n, v in zip(node.output, outs):
            if n:
                env[n] = v
    return [env[o.name] for o in model.graph.output]


def _static_copy(model):
    """A copy shape inference accepts: IR version at most 8 (ONNX 1.12's), symbolic extents set to 1."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    m.ir_version = min(m.ir_version, 8)
    for vi in list(m.graph.input) + list(m.graph.output):
        for d in vi.type.tensor_type.shape.dim:
            if d.HasField("dim_param"):
                d.Clear()
                d.dim_value = 1
    return shape_inference.infer_shapes(m, strict_mode=True, data_prop=True)


def _run_shapes(m):
    """Every value's shape from a run of the interpreter on zero inputs (batch 1)."""
    init = {t.name for t in m.graph.initializer}
    feeds = {}
    for vi in m.graph.input:
        if vi.name in init:
            continue
        dtype = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[vi.type.tensor_type.elem_type]
        feeds[vi.name] = np.zeros([d.dim_value for d in vi.type.tensor_type.shape.dim], dtype)
    env = {}
    run(m, feeds, env)
    return {k: list(np.shape(v)) for k, v in env.items()}


def stats(model):
    """(parameters: elements of the floating initializers and Constant nodes, multiply-accumulates of Conv / Gemm /
    MatMul at batch 1, nodes)."""
    m = _static_copy(model)
    shapes = {}
    for vi in list(m.graph.input) + list(m.graph.value_info) + list(m.graph.output):
        shapes[vi.name] = [d.dim_value for d in vi.type.tensor_type.shape.dim]
    for t in m.graph.initializer:
        shapes[t.name] = list(t.dims)
    floating = (TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16, TensorProto.BFLOAT16)
    params = sum(int(np.prod(t.dims)) for t in m.graph.initializer if t.data_type in floating)
    for node in m.graph.node:
        if node.op_type == "Constant":
            v = _attrs(node).get("value")
            if v is not None:
                params += int(np.prod(v.dims)) if v.data_type in floating else 0
                shapes[node.output[0]] = list(v.dims)
    heavy = [n for n in m.graph.node if n.op_type in ("Conv", "MatMul", "Gemm")]
    if any(not shapes.get(v) for n in heavy for v in (n.input[0], n.output[0])):
        shapes.update(_run_shapes(m))  # shapes inference could not follow (a computed Reshape shape)
    macs = 0
    for node in heavy:
        out = shapes.get(node.output[0])
        if node.op_type == "Conv":
            w = shapes[node.input[1]]
            macs += int(np.prod(out)) * int(np.prod(w[1:]))
        elif node.op_type == "MatMul":
            a = shapes[node.input[0]]
            macs += int(np.prod(out)) * (a[-1] if len(a) > 1 else a[0])
        elif node.op_type == "Gemm":
            a = shapes[node.input[0]]
            k = a[0] if _attrs(node).get("transA", 0) else a[1]
            macs += int(np.prod(out)) * k
    return params, macs, len(m.graph.node)


def main(argv):
    if len(argv) >= 2 and argv[0] == "stats":
        p, m, n = stats(onnx.load(argv[1]))
        print("params %d macs %d nodes %d" % (p, m, n))
        return 0
    if len(argv) >= 2 and argv[0] == "run":
        model = onnx.load(argv[1])
        names = [i.name for i in model.graph.input if i.name not in {t.name for t in model.graph.initializer}]
        feeds = {}
        for n, path in zip(names, argv[2:]):
            t = onnx.TensorProto()
            with open(path, "rb") as fh:
                t.ParseFromString(fh.read())
            feeds[n] = numpy_helper.to_array(t)
        for o, v in zip(model.graph.output, run(model, feeds)):
            print("%s %s sum %.17g" % (o.name, v.shape, float(np.sum(v))))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
