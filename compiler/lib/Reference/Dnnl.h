//===- Dnnl.h - oneDNN glue for the reference kernels (internal) -*- C++ -*-===//
//
// One CPU engine for the process, plain row-major f32 memory descriptors, and runDnnl(), which
// executes a kernel body with oneDNN pinned to one thread and turns any exception into a Status.
//
//===----------------------------------------------------------------------===//
#ifndef TX8_LIB_REFERENCE_DNNL_H
#define TX8_LIB_REFERENCE_DNNL_H

#include "tx8/Reference/Status.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace tx8::ref::dnnlx {

using dnnl::memory;
using Args = std::unordered_map<int, memory>;

dnnl::engine &cpuEngine();

/// Dims of a shape for oneDNN (a scalar becomes {1}).
memory::dims toDims(const std::vector<int64_t> &shape);
/// f32, dense, row-major ("abcd...") descriptor.
memory::desc plainDesc(const memory::dims &dims);
/// f32 descriptor with explicit element strides.
memory::desc stridedDesc(const memory::dims &dims, const memory::dims &strides);
/// Memory over caller-owned f32 data. oneDNN takes a non-const pointer; inputs are never written.
memory wrap(const memory::desc &md, const float *data);

/// Execute one primitive on a fresh stream of the CPU engine and wait.
void execute(const dnnl::primitive &prim, const Args &args);

/// Run `body` with the OpenMP thread count of this thread set to 1 (restored afterwards), converting
/// dnnl::error and other exceptions into "<op>: ..." errors.
Status run(const char *op, const std::function<Status()> &body);

} // namespace tx8::ref::dnnlx

#endif // TX8_LIB_REFERENCE_DNNL_H
