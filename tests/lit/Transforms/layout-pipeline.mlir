// The layout stage as the driver runs it (buildLayoutPipeline): fold-constants, infer-shapes, layout-init,
// layout-transmit, layout-align-to-npu, layout-align-opt.
// RUN: tx8-opt %s --pass-pipeline='builtin.module(func.func(tx8be-fold-constants,tx8be-infer-shapes,tx8be-layout-init,tx8be-layout-transmit,tx8be-layout-align-to-npu,tx8be-layout-align-opt))' | FileCheck %s

// The passes change device images only, never values: the reference interpreter gives bit-identical outputs
// before and after them on real exported models (a conv, a batchnorm, a linear layer with Gemm transB and
// one without bias: Constant -> Transpose -> MatMul).
// RUN: rm -rf %t && mkdir -p %t
// RUN: tx8-aot import %onnx_testdata/pytorch-converted/test_Conv2d/model.onnx > %t/Conv2d.mlir
// RUN: tx8-opt %t/Conv2d.mlir --pass-pipeline='builtin.module(func.func(tx8be-fold-constants,tx8be-infer-shapes,tx8be-layout-init,tx8be-layout-transmit,tx8be-layout-align-to-npu,tx8be-layout-align-opt))' -o %t/Conv2d.out.mlir
// RUN: tx8-aot reference %t/Conv2d.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_Conv2d/test_data_set_0 --out %t/Conv2d.before > %t/Conv2d.log
// RUN: tx8-aot reference %t/Conv2d.out.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_Conv2d/test_data_set_0 --out %t/Conv2d.after > %t/Conv2d.log
// RUN: diff -r %t/Conv2d.before %t/Conv2d.after
// RUN: tx8-aot import %onnx_testdata/pytorch-converted/test_BatchNorm2d_eval/model.onnx > %t/BatchNorm2d_eval.mlir
// RUN: tx8-opt %t/BatchNorm2d_eval.mlir --pass-pipeline='builtin.module(func.func(tx8be-fold-constants,tx8be-infer-shapes,tx8be-layout-init,tx8be-layout-transmit,tx8be-layout-align-to-npu,tx8be-layout-align-opt))' -o %t/BatchNorm2d_eval.out.mlir
// RUN: tx8-aot reference %t/BatchNorm2d_eval.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_BatchNorm2d_eval/test_data_set_0 --out %t/BatchNorm2d_eval.before > %t/BatchNorm2d_eval.log
// RUN: tx8-aot reference %t/BatchNorm2d_eval.out.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_BatchNorm2d_eval/test_data_set_0 --out %t/BatchNorm2d_eval.after > %t/BatchNorm2d_eval.log
// RUN: diff -r %t/BatchNorm2d_eval.before %t/BatchNorm2d_eval.after
// RUN: tx8-aot import %onnx_testdata/pytorch-converted/test_Linear/model.onnx > %t/Linear.mlir
// RUN: tx8-opt %t/Linear.mlir --pass-pipeline='builtin.module(func.func(tx8be-fold-constants,tx8be-infer-shapes,tx8be-layout-init,tx8be-layout-transmit,tx8be-layout-align-to-npu,tx8be-layout-align-opt))' -o %t/Linear.out.mlir
// RUN: tx8-aot reference %t/Linear.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_Linear/test_data_set_0 --out %t/Linear.before > %t/Linear.log
// RUN: tx8-aot reference %t/Linear.out.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_Linear/test_data_set_0 --out %t/Linear.after > %t/Linear.log
// RUN: diff -r %t/Linear.before %t/Linear.after
// RUN: tx8-aot import %onnx_testdata/pytorch-converted/test_Linear_no_bias/model.onnx > %t/Linear_no_bias.mlir
// RUN: tx8-opt %t/Linear_no_bias.mlir --pass-pipeline='builtin.module(func.func(tx8be-fold-constants,tx8be-infer-shapes,tx8be-layout-init,tx8be-layout-transmit,tx8be-layout-align-to-npu,tx8be-layout-align-opt))' -o %t/Linear_no_bias.out.mlir
// RUN: tx8-aot reference %t/Linear_no_bias.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_Linear_no_bias/test_data_set_0 --out %t/Linear_no_bias.before > %t/Linear_no_bias.log
// RUN: tx8-aot reference %t/Linear_no_bias.out.mlir --inputs-dir %onnx_testdata/pytorch-converted/test_Linear_no_bias/test_data_set_0 --out %t/Linear_no_bias.after > %t/Linear_no_bias.log
// RUN: diff -r %t/Linear_no_bias.before %t/Linear_no_bias.after
// RUN: FileCheck %s --check-prefix=LINEAR < %t/Linear_no_bias.out.mlir
// LINEAR-NOT: tx8be.Transpose
// LINEAR: tx8be.MatMul %arg0, %{{.*}} {dev_info = {{.*}}, layout_str = "Tensor"} : (tensor<4x10xf32>, tensor<10x8xf32>)

// A small residual CNN: the image is packed NHWC by the host, every feature map stays NHWC, the conv weights
// are stored HWIO, the classifier's weight is stored pre-transposed, and no ChannelNorm is left (the pooled
// 1x4x1x1 map is NHWC and NCHW at once).
// CHECK-LABEL: func.func @cnn
// CHECK-SAME: (%arg0: tensor<1x3x8x8xf32> {tx8be.layout_str = "NHWC", tx8be.mem_layout = #tx8be.layout<Tensor>})
// CHECK-SAME: -> (tensor<1x2xf32> {tx8be.layout_str = "Tensor", tx8be.mem_layout = #tx8be.layout<Tensor>})
// CHECK-NOT: ChannelNorm
// CHECK-DAG: %[[W1:.*]] = tx8be.Constant {layout_str = "HWIO"} dense<1.000000e-01> : tensor<4x3x3x3xf32>
// CHECK-DAG: %[[W2:.*]] = tx8be.Constant {layout_str = "HWIO"} dense<2.500000e-01> : tensor<4x4x1x1xf32>
// CHECK: %[[C1:.*]] = tx8be.Conv %arg0, %[[W1]], %{{.*}} {dev_info = {{.*}}layout_str = "NHWC"
// CHECK: %[[BN:.*]] = tx8be.BatchNorm_Inference %[[C1]], {{.*}}layout_str = "NHWC"
// CHECK: %[[R1:.*]] = tx8be.Relu %[[BN]] {{.*}}layout_str = "NHWC"
// CHECK: %[[C2:.*]] = tx8be.Conv %[[R1]], %[[W2]] {{.*}}layout_str = "NHWC"
// CHECK: %[[A:.*]] = tx8be.Add %[[R1]], %[[C2]] {{.*}}layout_str = "NHWC"
// CHECK: %[[P:.*]] = tx8be.MaxPool %[[A]] {{.*}}layout_str = "NHWC"
// CHECK: %[[G:.*]] = tx8be.GlobalAvgPool %[[P]] {{.*}}layout_str = "NHWC"
// CHECK: %[[F:.*]] = tx8be.Reshape %[[G]] {{.*}}layout_str = "Tensor"
// CHECK: %[[FC:.*]] = tx8be.Constant dense<{{\[\[}}1.000000e+00, 1.000000e+00], [2.000000e+00, 2.000000e+00], [3.000000e+00, 3.000000e+00], [4.000000e+00, 4.000000e+00]]> : tensor<4x2xf32>
// CHECK: %[[Y:.*]] = tx8be.Gemm %[[F]], %[[FC]] {{.*}}layout_str = "Tensor"
// CHECK-NOT: transB
// CHECK: tx8be.Softmax %[[Y]] {{.*}}layout_str = "Tensor"
// CHECK-NOT: ChannelNorm
func.func @cnn(%x: tensor<1x3x8x8xf32>) -> tensor<1x2xf32> {
  %w1 = tx8be.Constant dense<0.1> : tensor<4x3x3x3xf32>
  %b1 = tx8be.Constant dense<0.0> : tensor<4xf32>
  %s = tx8be.Constant dense<1.0> : tensor<4xf32>
  %m = tx8be.Constant dense<0.5> : tensor<4xf32>
  %w2 = tx8be.Constant dense<0.25> : tensor<4x4x1x1xf32>
  %fc = tx8be.Constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<2x4xf32>
  %c1 = tx8be.Conv %x, %w1, %b1 {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %bn = tx8be.BatchNorm_Inference %c1, %s, %b1, %m, %s : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r1 = tx8be.Relu %bn : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = tx8be.Conv %r1, %w2 : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %a = tx8be.Add %r1, %c2 : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = tx8be.MaxPool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %g = tx8be.GlobalAvgPool %p : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %f = tx8be.Reshape %g : (tensor<1x4x1x1xf32>) -> tensor<1x4xf32>
  %y = tx8be.Gemm %f, %fc {transB = true} : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x2xf32>
  %z = tx8be.Softmax %y : (tensor<1x2xf32>) -> tensor<1x2xf32>
  return %z : tensor<1x2xf32>
}
