//===- PassStatistics.cpp - Counts the tx8be passes keep, and their report ===//
#include "tx8/Transforms/PassStatistics.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

using namespace mlir;
using namespace tx8be;

namespace {

struct Slot {
  explicit Slot(std::string description) : description(std::move(description)) {}
  std::string description;
  std::atomic<uint64_t> value{0};
};

/// Every PassStatistic's slot: by pass argument, then by name in the order the pass declares them. Slots are
/// never freed or moved (a pass may be created at any time, by any thread).
struct Registry {
  std::mutex mutex;
  std::map<std::string, std::vector<std::pair<std::string, std::unique_ptr<Slot>>>> passes;
};

Registry &registry() {
  static Registry instance;
  return instance;
}

/// Collects, for each pass with statistics, the values of its slots before its first run; prints the
/// differences when the pass manager goes.
class StatisticsReport : public PassInstrumentation {
public:
  explicit StatisticsReport(llvm::raw_ostream &os) : os(os) {}
  ~StatisticsReport() override { print(); }

  void runBeforePass(Pass *pass, Operation *) override {
    std::lock_guard<std::mutex> lock(mutex);
    ran = true;
    // Nested pipelines (adaptors) have no argument and no statistics.
    if (pass->getArgument().empty() || !seen.insert(pass->getArgument()).second)
      return;
    Registry &r = registry();
    std::lock_guard<std::mutex> registryLock(r.mutex);
    auto it = r.passes.find(pass->getArgument().str());
    if (it == r.passes.end())
      return;
    PassCounts counts{pass->getName().str(), pass->getArgument().str(), {}};
    for (auto &[name, slot] : it->second)
      counts.statistics.push_back({name, slot.get(), slot->value.load(std::memory_order_relaxed)});
    passes.push_back(std::move(counts));
  }

private:
  struct Counted {
    std::string name;
    const Slot *slot;
    uint64_t before;
  };
  struct PassCounts {
    std::string name, argument;
    std::vector<Counted> statistics;
  };

  void print() {
    if (!ran)
      return;
    os << "===" << std::string(73, '-') << "===\n"
       << "                         ... Pass statistics report ...\n"
       << "===" << std::string(73, '-') << "===\n";
    for (const PassCounts &pass : passes) {
      os << pass.name << " (" << pass.argument << ")\n";
      size_t valueWidth = 1, nameWidth = 1;
      std::vector<uint64_t> values;
      for (const Counted &c : pass.statistics) {
        values.push_back(c.slot->value.load(std::memory_order_relaxed) - c.before);
        valueWidth = std::max(valueWidth, std::to_string(values.back()).size());
        nameWidth = std::max(nameWidth, c.name.size());
      }
      for (auto [c, value] : llvm::zip(pass.statistics, values))
        os << llvm::format("  (S) %*llu %-*s - %s\n", static_cast<int>(valueWidth),
                           static_cast<unsigned long long>(value), static_cast<int>(nameWidth), c.name.c_str(),
                           c.slot->description.c_str());
    }
    os.flush();
  }

  llvm::raw_ostream &os;
  std::mutex mutex; // instrumentations are called from every thread running a pass
  bool ran = false;
  llvm::StringSet<> seen;
  std::vector<PassCounts> passes;
};

} // namespace

PassStatistic::PassStatistic(Pass *owner, llvm::StringRef name, llvm::StringRef description) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto &statistics = r.passes[owner->getArgument().str()];
  for (auto &[known, slot] : statistics)
    if (known == name) {
      this->slot = &slot->value;
      return;
    }
  statistics.emplace_back(name.str(), std::make_unique<Slot>(description.str()));
  slot = &statistics.back().second->value;
}

void tx8be::enablePassStatisticsReport(PassManager &pm, llvm::raw_ostream &os) {
  pm.addInstrumentation(std::make_unique<StatisticsReport>(os));
}
