# lit configuration of the tx8 compiler tests (loaded by the generated lit.site.cfg.py).
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "TX8"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".onnxtxt"]
config.excludes = ["Inputs"]  # files the tests read, not tests
config.test_source_root = config.tx8_lit_source_dir
config.test_exec_root = config.tx8_lit_binary_dir

# FileCheck, not, count from LLVM 19; tx8-opt from this build (fatal if it has not been built).
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# The C compiler `tx8-aot run` builds bundles with: a sanitizer build's SDK needs clang (scripts/sanitize.sh sets CC).
llvm_config.with_system_environment(["CC"])
llvm_config.add_tool_substitutions(
    [ToolSubst("tx8-opt", unresolved="fatal"), ToolSubst("tx8-aot", unresolved="fatal")], [config.tx8_tools_dir])
# The ONNX backend test data (libonnx-testdata): real exported models for the import tests.
config.substitutions.append(("%onnx_testdata", config.tx8_onnx_testdata_dir))
