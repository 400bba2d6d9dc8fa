/* Force-included into every C++ file of an ASan build (cmake/Tx8Sanitizers.cmake).
 *
 * LLVM's headers poison and unpoison BumpPtrAllocator slabs when the including file is built with ASan
 * (llvm/Support/Compiler.h: LLVM_ADDRESS_SANITIZER_BUILD; llvm/Support/Allocator.h). Debian's LLVM and MLIR
 * libraries are not instrumented: a slab that our instrumented copy of an inline function poisons is then handed
 * out by their uninstrumented copy without being unpoisoned, and the next access from our code is reported as
 * use-after-poison (e.g. in mlir::Dialect::addType while an MLIRContext loads the builtin dialect). Turn the
 * manual poisoning off, as in the uninstrumented libraries; ASan's own checks (redzones, use after free) stay. */
#ifndef TX8_ASAN_LLVM_HEADERS_H
#define TX8_ASAN_LLVM_HEADERS_H
#if defined(__has_include)
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h> /* include-guarded: Compiler.h's own #include adds nothing */
#endif
#endif
#undef __asan_poison_memory_region
#undef __asan_unpoison_memory_region
#define __asan_poison_memory_region(p, size) ((void)(p), (void)(size))
#define __asan_unpoison_memory_region(p, size) ((void)(p), (void)(size))
#endif
