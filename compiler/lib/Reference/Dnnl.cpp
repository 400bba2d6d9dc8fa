//===- Dnnl.cpp - oneDNN glue for the reference kernels -------------------===//

#include "Dnnl.h"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <new>
#include <string>

namespace tx8::ref::dnnlx {

dnnl::engine &cpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

memory::dims toDims(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return {1};
  return memory::dims(shape.begin(), shape.end());
}

memory::desc plainDesc(const memory::dims &dims) {
  memory::dims strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;)
    strides[i - 1] = strides[i] * std::max<memory::dim>(dims[i], 1);
  return memory::desc(dims, memory::data_type::f32, strides);
}

memory::desc stridedDesc(const memory::dims &dims, const memory::dims &strides) {
  return memory::desc(dims, memory::data_type::f32, strides);
}

memory wrap(const memory::desc &md, const float *data) {
  return memory(md, cpuEngine(), const_cast<float *>(data));
}

void execute(const dnnl::primitive &prim, const Args &args) {
  dnnl::stream stream(cpuEngine());
  prim.execute(stream, args);
  stream.wait();
}

namespace {
// Scoped single-threading. omp_set_num_threads changes the nthreads ICV of the calling thread only,
// so other threads of the process (and the caller after we return) keep their setting. oneDNN reads
// omp_get_max_threads() both when creating and when executing a primitive.
class OneThread {
public:
  OneThread() : saved_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneThread() { omp_set_num_threads(saved_); }
  OneThread(const OneThread &) = delete;
  OneThread &operator=(const OneThread &) = delete;

private:
  int saved_;
};
} // namespace

Status run(const char *op, const std::function<Status()> &body) {
  OneThread pin;
  try {
    return body();
  } catch (const dnnl::error &e) {
    return Status::error(std::string(op) + ": oneDNN: " + e.what() + " (status " + std::to_string(e.status) + ")");
  } catch (const std::bad_alloc &) {
    return Status::error(std::string(op) + ": out of memory");
  } catch (const std::exception &e) {
    return Status::error(std::string(op) + ": " + e.what());
  }
}

} // namespace tx8::ref::dnnlx
