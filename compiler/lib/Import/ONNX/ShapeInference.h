//===- ShapeInference.h - ONNX shape inference that cannot take the importer down -*- C++ -*-===//
//
// Debian's libonnx 1.12 crashes (SEGV, SIGFPE) in some shape-inference functions on malformed models: a
// Conv whose weight has another rank than its input, a ConvTranspose on a rank-2 input, a pool with stride
// 0 (upstream fixed such checks after 1.12). Two defences, so `tx8-aot` answers with an error instead of
// dying with the model's problem unnamed:
//  - guards in front of the inference functions of the conv/pool family check ranks and attribute lengths
//    and values first (a failed guard leaves that node's shapes uninferred; the converters then name it);
//  - the inference itself runs in a forked child that sends the inferred types back, so a crash or a hang
//    of the library in a case no guard covers becomes an error of the import.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_IMPORT_ONNX_SHAPEINFERENCE_H
#define TX8_IMPORT_ONNX_SHAPEINFERENCE_H

#include <string>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace tx8be::onnx_import {

/// Runs lenient ONNX shape inference (node-level errors leave shapes unknown) with data propagation on
/// `model`, behind the guards, and with the inferred value_info and output types merged into it. On failure
/// returns false with a one-line reason in `error`.
bool inferShapes(onnx::ModelProto &model, std::string &error);

/// The same in a forked child that sends the types back: false also when the child died (how is in
/// `error`). Inference of the largest models we compile takes well under a second: a child still running
/// after `timeoutSeconds` is looping on a malformed model and is stopped.
bool inferShapesIsolated(onnx::ModelProto &model, std::string &error, unsigned timeoutSeconds = 120);

/// Installs the guards in front of libonnx's inference functions (once per process; idempotent). Exposed
/// for tests that call onnx::shape_inference directly.
void installShapeInferenceGuards();

} // namespace tx8be::onnx_import

#endif // TX8_IMPORT_ONNX_SHAPEINFERENCE_H
