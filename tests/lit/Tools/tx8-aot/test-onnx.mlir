// `tx8-aot test-onnx` on ONNX backend test directories: PASS lines and exit 0 when the reference matches,
// exit 3 with the worst element when it does not (the Tanh model with the Sigmoid test's expected output).
// RUN: tx8-aot test-onnx %onnx_testdata/pytorch-converted/test_Sigmoid | FileCheck %s --check-prefix=PASS
// RUN: rm -rf %t && mkdir -p %t/mixed
// RUN: cp %onnx_testdata/pytorch-converted/test_Tanh/model.onnx %t/mixed/
// RUN: cp -r %onnx_testdata/pytorch-converted/test_Sigmoid/test_data_set_0 %t/mixed/
// RUN: tx8-aot test-onnx %t/mixed > %t/mixed.log; test $? -eq 3
// RUN: FileCheck %s --check-prefix=FAIL < %t/mixed.log
// RUN: not tx8-aot test-onnx %t 2>&1 | FileCheck %s --check-prefix=NOMODEL
// RUN: not tx8-aot 2>&1 | FileCheck %s --check-prefix=NOCMD
// RUN: tx8-aot --version | FileCheck %s --check-prefix=VERSION

// PASS: PASS test_data_set_0 output '1': ok, max |err|
// PASS: PASSED: {{.*}}test_Sigmoid on reference (1 data set(s))
// FAIL: FAIL test_data_set_0 output '1': {{[0-9]+}} of 120 elements differ; worst at flat index {{[0-9]+}}: got {{.*}}, expected {{.*}} (rtol 0.001, atol 1e-07)
// FAIL: FAILED: {{.*}}mixed on reference
// NOMODEL: tx8-aot: error: {{.*}}model.onnx: cannot read the model: No such file or directory
// NOCMD: tx8-aot: error: no command given (import, reference, compile, run, test-onnx, memory, diff, report)
// VERSION: tx8-aot 0.1.0
func.func private @unused()
