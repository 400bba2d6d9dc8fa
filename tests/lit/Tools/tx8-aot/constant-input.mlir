// `tx8-aot test-onnx --constant-input NAME`: graph input NAME is compiled as the constant its test data gives it.
// ONNX's node tests feed Dropout's ratio and training_mode as graph inputs; with both compiled in, the training-mode
// Dropout of ratio 0 is the identity (its mask all true) and the tests pass, on the reference and the cmodel.
// Without the option the import refuses it; a ratio that is not 0 stays refused. A name no input_<k>.pb holds, a
// name given twice, a value the input cannot take, and a later data set that gives another value are errors.
// RUN: tx8-aot test-onnx %onnx_testdata/node/test_training_dropout_zero_ratio_mask --constant-input r --constant-input t | FileCheck %s --check-prefix=PASS
// RUN: tx8-aot test-onnx %onnx_testdata/node/test_training_dropout_zero_ratio --constant-input r --constant-input t --target cmodel | FileCheck %s --check-prefix=CMODEL
// RUN: not tx8-aot test-onnx %onnx_testdata/node/test_training_dropout_zero_ratio 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUN: not tx8-aot test-onnx %onnx_testdata/node/test_training_dropout --constant-input r --constant-input t 2>&1 | FileCheck %s --check-prefix=RANDOM
// RUN: not tx8-aot test-onnx %onnx_testdata/node/test_training_dropout_zero_ratio --constant-input q 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: tx8-aot test-onnx %onnx_testdata/node/test_training_dropout_zero_ratio --constant-input r --constant-input r 2> %t.twice; test $? -eq 2
// RUN: FileCheck %s --check-prefix=TWICE < %t.twice
// RUN: rm -rf %t && mkdir -p %t/shape %t/sets
// RUN: cp %onnx_testdata/node/test_sigmoid_example/model.onnx %t/shape/
// RUN: cp -r %onnx_testdata/node/test_training_dropout_zero_ratio/test_data_set_0 %t/shape/
// RUN: not tx8-aot test-onnx %t/shape --constant-input x 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: cp %onnx_testdata/node/test_training_dropout_zero_ratio/model.onnx %t/sets/
// RUN: cp -r %onnx_testdata/node/test_training_dropout_zero_ratio/test_data_set_0 %t/sets/
// RUN: cp -r %onnx_testdata/node/test_training_dropout_zero_ratio/test_data_set_0 %t/sets/test_data_set_1
// RUN: chmod -R u+w %t/sets
// RUN: cp %onnx_testdata/node/test_training_dropout/test_data_set_0/input_1.pb %t/sets/test_data_set_1/input_1.pb
// RUN: not tx8-aot test-onnx %t/sets --constant-input r --constant-input t 2>&1 | FileCheck %s --check-prefix=OTHER

// PASS: PASS test_data_set_0 output 'y': ok, max |err| 0
// PASS: PASS test_data_set_0 output 'z': ok, max |err| 0
// PASS: PASSED: {{.*}}test_training_dropout_zero_ratio_mask on reference (1 data set(s))
// CMODEL: PASSED: {{.*}}test_training_dropout_zero_ratio on cmodel (1 data set(s)
// RUNTIME: training_mode (input #2) must be a constant, or the ratio a constant 0
// RANDOM: training-mode Dropout (training_mode true) with a ratio that is not a constant 0 drops at random, which is not supported
// UNKNOWN: tx8-aot: error: --constant-input q: no input_<k>.pb of {{.*}}test_data_set_0 holds a tensor named 'q'
// TWICE: tx8-aot: error: --constant-input r: given twice
// SHAPE: constant input 'x': graph input 'x' is FLOAT [3], the value FLOAT (3, 4, 5)
// OTHER: tx8-aot: error: {{.*}}test_data_set_1: input 'r' is not the value compiled in ({{.*}}test_data_set_0's; --constant-input)
func.func private @unused()
