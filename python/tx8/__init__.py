"""tx8: compile ONNX models for the TX8 accelerator and run them on its chip model, from Python.

    import numpy as np, tx8
    bundle = tx8.compile("model.onnx")                 # or ONNX bytes, an onnx.ModelProto, a torch.nn.Module
    (probs,) = bundle.run([np.zeros((1, 3, 32, 32), np.float32)])
    print(bundle.cycles, bundle.inputs, bundle.outputs)

The same compiler and runtime as the tx8-aot command line, in process (the C++ API in tx8/Api/, bound by the
_tx8 extension); errors are tx8.Error with the one line tx8-aot prints. See docs/python.md.
"""
import logging
import os
import shutil
import tempfile
import weakref
from pathlib import Path
from collections.abc import Sequence
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _tx8

__all__ = ["compile", "load", "diff", "Bundle", "TensorInfo", "DiffRow", "Diff", "Error", "UsageError",
           "ModelImportError", "CompileError", "BundleError", "RunError", "__version__"]
__version__ = _tx8.version()

logger = logging.getLogger("tx8")



def _tool_directory() -> Path:
    """<prefix>/bin: this file is <prefix>/lib/python3/dist-packages/tx8/__init__.py, installed or in the build tree
    (another install directory under the prefix: the nearest parent with bin/tx8-aot)."""
    here = Path(__file__).resolve().parent
    for prefix in here.parents:
        if (prefix / "bin" / "tx8-aot").is_file():
            return prefix / "bin"
    return here.parents[3] / "bin"


# The tools and the SDK bundles are built against are found from <prefix>/bin, as tx8-aot finds them from its own
# directory.
_tx8.set_tool_directory(str(_tool_directory()))


class Error(Exception):
    """A tx8 error; str(e) is the one line `tx8-aot` prints after "tx8-aot: error: "."""

    def __init__(self, message: str, diagnostics: Sequence[str] = ()):
        super().__init__(message)
        self.message = message
        #: every diagnostic of the failed call, as tx8-aot prints them ("error: ...", "warning: ...", notes)
        self.diagnostics = list(diagnostics)


class UsageError(Error, ValueError):
    """A bad argument or option (tx8-aot exits 2), or inputs that are not the model's."""


class ModelImportError(Error):
    """The model cannot be read or imported (named so as not to shadow Python's ImportError)."""


class CompileError(Error):
    """The compiler's pipeline, codegen or writing the bundle failed."""


class BundleError(Error):
    """A bundle directory cannot be loaded: missing, corrupt, edited after compile, or of another version."""


class RunError(Error):
    """Building or running a bundle failed."""


_ERRORS = {"usage": UsageError, "import": ModelImportError, "compile": CompileError, "bundle": BundleError,
           "run": RunError}


def _call(function, *args, **kwargs):
    """Calls the extension, raising its failures as tx8's exception classes and logging the warnings."""
    try:
        return function(*args, **kwargs)
    except _tx8.Failure as failure:
        kind, message, diagnostics = failure.args
        for line in diagnostics:
            if not line.startswith("error: "):
                logger.warning("%s", line)
        raise _ERRORS.get(kind, Error)(message, diagnostics) from None


def _log_diagnostics(diagnostics: Sequence[str]) -> None:
    for line in diagnostics:
        logger.warning("%s", line)


# numpy dtypes of the model's element types. bf16 has no numpy dtype: its values cross as their uint16 bits.
_NUMPY = {"f32": np.float32, "f16": np.float16, "bf16": np.uint16, "f64": np.float64, "i8": np.int8,
          "u8": np.uint8, "i32": np.int32, "i64": np.int64, "bool": np.bool_}
_NAMES = {np.dtype(t): name for name, t in _NUMPY.items() if name != "bf16"}


def _to_tensor(array, where: str) -> Tuple[str, List[int], bytes]:
    a = np.asarray(array)
    name = _NAMES.get(a.dtype)
    if name is None:
        raise UsageError(f"{where}: numpy dtype {a.dtype} is not one tx8 runs (float32, float16, float64, int8, "
                         "uint8, int32, int64, bool)")
    return name, list(a.shape), np.ascontiguousarray(a).tobytes()


def _from_tensor(tensor) -> np.ndarray:
    dtype, shape, data = tensor
    return np.frombuffer(data, dtype=_NUMPY[dtype]).reshape(shape)


class TensorInfo(NamedTuple):
    """An input or output of a model: its name, shape and numpy dtype."""
    name: str
    shape: Tuple[int, ...]
    dtype: np.dtype


def _infos(entries) -> List[TensorInfo]:
    return [TensorInfo(name, tuple(shape), np.dtype(_NUMPY[dtype])) for name, dtype, shape in entries]


class Bundle:
    """A compiled model: a bundle directory (main.c, consts.bin, manifest.json, ...), built and run on demand."""

    def __init__(self, native, owned_dir: Optional[str] = None):
        self._native = native
        self._last = None          # the last run's _tx8.RunResult
        self._last_inputs = None   # and its inputs (for trace() and report() when it recorded no trace)
        # a compile into a temporary directory: removed with this object (save() copies it first)
        self._cleanup = weakref.finalize(self, shutil.rmtree, owned_dir, True) if owned_dir else None

    @property
    def dir(self) -> str:
        return self._native.dir

    @property
    def inputs(self) -> List[TensorInfo]:
        return _infos(self._native.inputs)

    @property
    def outputs(self) -> List[TensorInfo]:
        return _infos(self._native.outputs)

    @property
    def target(self) -> str:
        """What the bundle was compiled for (run()'s default): "cmodel" or "riscv"."""
        return self._native.target

    @property
    def model_name(self) -> str:
        return self._native.model_name

    @property
    def cycles(self) -> Optional[int]:
        """The simulated cycles of the last run (None before the first)."""
        return self._last.cycles if self._last is not None else None

    def __repr__(self) -> str:
        return f"<tx8.Bundle {self.model_name!r} at {self.dir!r}, target {self.target}>"

    def _ordered(self, inputs) -> Tuple[list, List[str]]:
        """The inputs in the model's order, with where each came from for messages."""
        names = [i.name for i in self.inputs]
        if isinstance(inputs, dict):
            unknown = [k for k in inputs if k not in names]
            if unknown:
                raise UsageError(f"the model has no input '{unknown[0]}' (its inputs: {', '.join(names)})")
            missing = [n for n in names if n not in inputs]
            if missing:
                raise UsageError(f"no value for input '{missing[0]}'")
            return [inputs[n] for n in names], [f"inputs['{n}']" for n in names]
        if isinstance(inputs, np.ndarray):
            inputs = [inputs]
        inputs = list(inputs)
        if len(inputs) != len(names):
            raise UsageError(f"{len(inputs)} inputs given, the model has {len(names)}")
        return inputs, [f"inputs[{i}]" for i in range(len(inputs))]

    def run(self, inputs, target: Optional[str] = None, *, trace: bool = False) -> List[np.ndarray]:
        """Builds the bundle for `target` (default: its own; once per Bundle) and runs it on `inputs`: a list in
        the model's input order, a dict by name, or one array. Returns the outputs in order; `cycles` is then the
        run's simulated cycles. trace=True records the run's timeline for trace() and report()."""
        ordered, sources = self._ordered(inputs)
        tensors = [_to_tensor(a, s) for a, s in zip(ordered, sources)]
        result = _call(self._native.run, tensors, sources, target or "", trace)
        self._last, self._last_inputs = result, tensors
        logger.info("%s", self._native.run_summary(result))
        return [_from_tensor(t) for t in result.outputs]

    def _traced(self):
        """The last run if it recorded a trace, else a run with one on the last run's inputs (zeros at first)."""
        if self._last is not None and self._last.traced:
            return self._last
        if self._last_inputs is None:  # zeros: the chip model's cycles do not depend on the values
            tensors = [(dtype, list(shape), np.zeros(shape, _NUMPY[dtype]).tobytes())
                       for _, dtype, shape in self._native.inputs]
        else:
            tensors = self._last_inputs
        sources = [f"inputs[{i}]" for i in range(len(tensors))]
        target = self._last.target if self._last is not None else ""
        self._last = _call(self._native.run, tensors, sources, target, True)
        self._last_inputs = tensors
        return self._last

    def trace(self, path: Union[str, os.PathLike]) -> str:
        """Writes the timeline of the last run (run again with a trace if it recorded none) as a Chrome / Perfetto
        trace-event JSON file; returns "trace: N slices, K KiB -> path"."""
        return _call(self._native.write_trace, self._traced(), os.fspath(path))

    def report(self, path: Union[str, os.PathLike], *, trace_file: Optional[str] = None) -> str:
        """Writes the report page (one self-contained HTML file: per-group cycles against the estimate, roofline,
        engines, memory, graph) of the last run (traced as trace() does), or of `trace_file` (a `tx8-aot run
        --trace` JSON); returns tx8-aot report's summary line."""
        if trace_file is not None:
            return _call(self._native.write_report_from_trace_file, os.fspath(trace_file), os.fspath(path))
        return _call(self._native.write_report, self._traced(), os.fspath(path))

    def save(self, dir: Union[str, os.PathLike]) -> "Bundle":
        """Copies the bundle's files (not its build trees) to `dir`, which must not exist; returns it loaded."""
        dest = os.fspath(dir)
        if os.path.exists(dest):
            raise UsageError(f"{dest}: already exists")
        shutil.copytree(self.dir, dest, ignore=shutil.ignore_patterns("build-*"))
        return load(dest)


def load(dir: Union[str, os.PathLike]) -> Bundle:
    """Loads a bundle directory (tx8-aot compile's, or Bundle.save's), its files checked against the manifest."""
    return Bundle(_call(_tx8.Bundle.load, os.fspath(dir)))


def _options(precision: str, tiles: Optional[int], chips: int, hw, target: str, input_shapes,
             scratch: str) -> "_tx8.CompileOptions":
    if chips != 1:
        raise UsageError(f"chips={chips}: one chip only (multi-chip compiles are not supported yet)")
    options = _tx8.CompileOptions()
    options.target = target
    options.precision = precision
    options.tiles = tiles
    if isinstance(hw, dict):  # fields of the hardware config; the API reads a --hw file
        import json
        path = os.path.join(scratch, "hw.json")
        with open(path, "w") as f:
            json.dump(hw, f)
        options.hw_file = path
    elif hw is not None:
        options.hw_file = os.fspath(hw)
    if input_shapes:
        options.input_shapes = [f"{name}={'x'.join(str(d) for d in shape)}" for name, shape in input_shapes.items()]
    return options


def _model(model, example_inputs, scratch: str) -> Tuple[str, bytes, str]:
    """(path, bytes, name) for the extension: a file is compiled where it is, everything else as ONNX bytes."""
    if isinstance(model, (str, os.PathLike)):
        return os.fspath(model), b"", ""
    if isinstance(model, (bytes, bytearray, memoryview)):
        return "", bytes(model), "model.onnx"
    if hasattr(model, "SerializeToString"):  # onnx.ModelProto
        name = (getattr(getattr(model, "graph", None), "name", "") or "model") + ".onnx"
        return "", model.SerializeToString(), name
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(model, torch.nn.Module):
        if example_inputs is None:
            raise UsageError("a torch.nn.Module needs example_inputs (a tensor or a tuple of them) to be exported")
        args = example_inputs if isinstance(example_inputs, (tuple, list)) else (example_inputs,)
        args = tuple(torch.as_tensor(a) for a in args)
        path = os.path.join(scratch, type(model).__name__ + ".onnx")
        was_training = model.training
        model.eval()
        try:
            torch.onnx.export(model, args, path, input_names=[f"input_{i}" for i in range(len(args))],
                              opset_version=13, do_constant_folding=True)
        finally:
            model.train(was_training)
        with open(path, "rb") as f:
            return "", f.read(), os.path.basename(path)
    raise UsageError(f"model: expected a path, ONNX bytes, an onnx.ModelProto or a torch.nn.Module, not "
                     f"{type(model).__name__}")


def compile(model, *, example_inputs=None, input_shapes: Optional[Dict[str, Sequence[int]]] = None,
            precision: str = "fp32", tiles: Optional[int] = 16, chips: int = 1, hw=None, target: str = "cmodel",
            out: Optional[Union[str, os.PathLike]] = None,
            progress: Optional[Callable[[str, float], None]] = None) -> Bundle:
    """Compiles `model` into a bundle, as `tx8-aot compile` does.

    model: a path (.onnx, or .mlir in TOSA or tx8be), ONNX bytes, an onnx.ModelProto, or a torch.nn.Module
    (exported with torch.onnx.export on `example_inputs`). input_shapes: {input: shape} for symbolic dims.
    precision: fp32, tf32, bf16 or fp16 (the format the NE reads conv/gemm inputs in). tiles: 1..16 (None: every
    tile). hw: a dict of hardware config fields, or a JSON file of them. target: cmodel or riscv. out: the bundle
    directory (default: a temporary one, removed with the Bundle; Bundle.save keeps a copy). progress: called as
    progress(step, seconds) after each step of more than a second (the "tx8" logger gets the same at INFO).
    """
    scratch = tempfile.mkdtemp(prefix="tx8-")
    try:
        path, data, name = _model(model, example_inputs, scratch)
        options = _options(precision, tiles, chips, hw, target, input_shapes, scratch)

        def step(what: str, seconds: float) -> None:
            logger.info("%s... %.1f s", what, seconds)
            if progress is not None:
                progress(what, seconds)

        dest = os.fspath(out) if out is not None else os.path.join(scratch, "bundle")
        _, _, _, diagnostics, summary = _call(_tx8.compile, path, data, name, dest, options, step)
        _log_diagnostics(diagnostics)
        logger.info("%s", summary)
        native = _call(_tx8.Bundle.load, dest)
    except BaseException:
        shutil.rmtree(scratch, True)
        raise
    if out is not None:
        shutil.rmtree(scratch, True)
        return Bundle(native)
    return Bundle(native, owned_dir=scratch)


class DiffRow(NamedTuple):
    """One node output of a diff and how the device's value compares with the reference's."""
    node: str
    op_type: str
    tensor: str
    kind: str            # "computed", "constant" (folded at import) or "unused"
    dtype: str
    shape: str
    ok: bool             # within the tolerance (True for rows not compared)
    compared: bool
    max_abs_error: float
    max_rel_error: float
    cosine: float
    mismatches: int
    problem: str


class Diff(Sequence):
    """The rows of tx8.diff, one per ONNX node output in topological order (a sequence of DiffRow)."""

    def __init__(self, native):
        self._native = native
        self.rows = [DiffRow(r.node, r.op_type, r.tensor, r.kind, r.dtype, r.shape, r.ok or not r.compared,
                             r.compared, r.max_abs_error, r.max_rel_error, r.cosine, r.mismatches, r.problem)
                     for r in native.rows]
        #: the debug build's simulated cycles
        self.cycles = native.cycles

    def __getitem__(self, i):
        return self.rows[i]

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def first_divergence(self) -> Optional[DiffRow]:
        """The first row beyond the tolerance, or None."""
        i = self._native.first_divergence
        return self.rows[i] if i >= 0 else None

    @property
    def summary(self) -> str:
        return self._native.summary()

    def table(self, tsv: bool = False) -> str:
        """The table as tx8-aot diff prints it."""
        return self._native.table(tsv)

    def write_files(self, dir: Union[str, os.PathLike]) -> None:
        """DIR/device/<tensor>.npy, DIR/reference/<tensor>.npy and DIR/diff.tsv (tx8-aot diff --out)."""
        _call(self._native.write_files, os.fspath(dir))


def diff(model, inputs, *, example_inputs=None, input_shapes=None, precision: str = "fp32",
         tiles: Optional[int] = 16, hw=None, target: str = "cmodel", rtol: float = 1e-3, atol: float = 1e-7,
         keep_bundle: Optional[str] = None) -> Diff:
    """Every ONNX node's output on the device against the reference, as `tx8-aot diff` (the model as for
    compile(); `inputs` a list in input order, a dict by name, or one array)."""
    scratch = tempfile.mkdtemp(prefix="tx8-")
    try:
        path, data, name = _model(model, example_inputs, scratch)
        options = _options(precision, tiles, 1, hw, target, input_shapes, scratch)
        if isinstance(inputs, dict):
            names = list(inputs)
            arrays = [inputs[n] for n in names]
            sources = [f"inputs['{n}']" for n in names]
        else:
            arrays = [inputs] if isinstance(inputs, np.ndarray) else list(inputs)
            names, sources = [], [f"inputs[{i}]" for i in range(len(arrays))]
        tensors = [_to_tensor(a, s) for a, s in zip(arrays, sources)]
        native, diagnostics = _call(_tx8.diff, path, data, name, tensors, names, options, rtol, atol,
                                    os.fspath(keep_bundle) if keep_bundle else "")
        _log_diagnostics(diagnostics)
        return Diff(native)
    finally:
        shutil.rmtree(scratch, True)
