//===- OpLibHost.h - Calling OpLib's query functions from the compiler -*- C++ -*-===//
//
// OpLib's size queries (op_batchnorm_inference_imm_size, ...) read the hardware config through the HAL
// (tx8_hal_config()), which answers only on a thread bound to a HAL. The compiler therefore owns one cmodel
// HAL, opened on first use with tx8_hw_config_default(), and binds the calling thread to it before a query.
// Caveat: the binding is per thread and replaces any other binding the thread had (a test that runs the cmodel
// itself must rebind its own HAL after asking the compiler).
//
//===----------------------------------------------------------------------===//
#ifndef TX8_SUPPORT_OPLIBHOST_H
#define TX8_SUPPORT_OPLIBHOST_H

#include "tx8/hw_config.h"

namespace tx8 {

/// The hardware config the compiler plans for (tx8_hw_config_default() unless setHwConfig changed it).
const tx8_hw_config &hwConfig();
/// Replaces the config the compiler plans for (tx8-aot --hw). Call before compiling anything: the OpLib host
/// HAL is opened once, with the config of that moment.
void setHwConfig(const tx8_hw_config &config);

/// Binds the calling thread to the compiler's HAL so that OpLib query functions may be called.
void bindOpLibHost();

} // namespace tx8

#endif // TX8_SUPPORT_OPLIBHOST_H
