//===- OpLibHost.cpp - Calling OpLib's query functions from the compiler --===//
#include "tx8/Support/OpLibHost.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "tx8/hal_cmodel.h"

namespace {
tx8_hal *openHost() {
  // The chip model allocates SPM/DDR lazily (calloc / pages on first touch), so an unused chip is cheap.
  static tx8_hal *hal = nullptr;
  static std::once_flag once;
  std::call_once(once, [] {
    tx8_hw_config cfg = tx8::hwConfig();
    hal = tx8_hal_open(&cfg);
    if (!hal) {
      std::fprintf(stderr, "tx8 compiler: cannot open the host HAL for OpLib queries\n");
      std::abort();
    }
  });
  return hal;
}
} // namespace

static tx8_hw_config &mutableConfig() {
  static tx8_hw_config config = tx8_hw_config_default();
  return config;
}

const tx8_hw_config &tx8::hwConfig() { return mutableConfig(); }

void tx8::setHwConfig(const tx8_hw_config &config) { mutableConfig() = config; }

void tx8::bindOpLibHost() { tx8_hal_cmodel_bind(openHost(), 0); }
