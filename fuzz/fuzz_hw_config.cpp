//===- fuzz_hw_config.cpp - libFuzzer: a --hw file -> the hardware config ---===//
//
// `tx8-aot compile --hw hw.json` on hostile bytes, exactly as tx8be::readHwConfig (compiler/lib/Driver/Compile.cpp)
// goes on after reading the file: checkJsonDepth, llvm::json::parse, the object's fields through
// parseHwConfigJson (hw_config.def's ranges, tx8_hw_config_check's rules). Every input must give a Status; a config
// that is accepted must pass tx8_hw_config_check again.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Compile.h"
#include "tx8/Reference/BoundedFile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string path = "fuzz.json";
  std::string text(reinterpret_cast<const char *>(data), size);
  if (!tx8::ref::checkJsonDepth(text, path).ok())
    return 0;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json) {
    llvm::consumeError(json.takeError());
    return 0;
  }
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return 0;
  tx8_hw_config config = tx8_hw_config_default();
  tx8::ref::Status s = tx8be::parseHwConfigJson(*object, path, config);
  if (s.ok() && tx8_hw_config_check(&config)) {
    std::fprintf(stderr, "fuzz_hw_config: an accepted config fails tx8_hw_config_check: %s\n",
                 tx8_hw_config_check(&config));
    std::abort();
  }
  return 0;
}
