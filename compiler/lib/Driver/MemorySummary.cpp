//===- MemorySummary.cpp - A bundle's memory on one page (--print-memory) ===//
//
// Everything comes from the bundle's manifest.json (Codegen/Manifest.cpp) and the sizes of its files, so
// `tx8-aot memory DIR` says the same of a bundle compiled earlier.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Compile.h"

#include "tx8/Reference/BoundedFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

#include <algorithm>

using tx8::ref::Status;

namespace {

/// What the summary reads of one group in the manifest's "groups".
struct GroupMemory {
  int64_t index = 0;
  std::string op;
  std::vector<int64_t> steps; ///< per tile of its region: a tile with no step does not use the group's SPM
  int64_t spmBytes = 0;
};

/// A manifest field the summary needs, or why not.
struct ManifestReader {
  std::string path;
  Status status;

  int64_t integer(const llvm::json::Object *o, llvm::StringRef key, llvm::StringRef where) {
    int64_t value = -1;
    if (o)
      value = o->getInteger(key).value_or(-1);
    if (value >= 0)
      return value;
    if (status.ok())
      status = Status::error(path + ": no \"" + key.str() + "\" in " + where.str() +
                             " (a bundle from an older tx8-aot? recompile the model)");
    return 0;
  }
};

std::vector<GroupMemory> readGroups(const llvm::json::Object &root, ManifestReader &reader) {
  std::vector<GroupMemory> groups;
  const llvm::json::Array *list = root.getArray("groups");
  if (!list) {
    reader.integer(nullptr, "groups", "the manifest");
    return groups;
  }
  for (auto [index, value] : llvm::enumerate(*list)) {
    const llvm::json::Object *g = value.getAsObject();
    GroupMemory group;
    group.index = static_cast<int64_t>(index);
    if (auto op = g ? g->getString("op") : std::nullopt)
      group.op = op->str();
    if (group.op == "view") // a DDR view: no SPM
      continue;
    std::string where = "group " + std::to_string(group.index);
    group.spmBytes = reader.integer(g, "spm_bytes", where);
    if (const llvm::json::Array *steps = g ? g->getArray("steps") : nullptr)
      for (const llvm::json::Value &n : *steps)
        group.steps.push_back(n.getAsInteger().value_or(0));
    else
      reader.integer(nullptr, "steps", where);
    groups.push_back(std::move(group));
  }
  return groups;
}

/// One line per run of tiles with the same peak: the largest SPM use of the groups with a step on the tile.
void printSpmPeaks(llvm::raw_ostream &os, const std::vector<GroupMemory> &groups, int64_t tiles, int64_t spmBytes) {
  struct Peak {
    int64_t bytes = 0;
    const GroupMemory *group = nullptr;
  };
  std::vector<Peak> peaks(static_cast<size_t>(tiles));
  for (const GroupMemory &g : groups)
    for (size_t t = 0; t < g.steps.size() && t < peaks.size(); ++t)
      if (g.steps[t] > 0 && (!peaks[t].group || g.spmBytes > peaks[t].bytes))
        peaks[t] = {g.spmBytes, &g};
  os << "SPM peak per tile (the largest group on it; the SPM has " << spmBytes << " bytes):\n";
  for (size_t first = 0, last; first < peaks.size(); first = last + 1) {
    last = first;
    while (last + 1 < peaks.size() && peaks[last + 1].bytes == peaks[first].bytes &&
           peaks[last + 1].group == peaks[first].group)
      ++last;
    std::string range =
        first == last ? "tile " + std::to_string(first) : "tiles " + std::to_string(first) + "-" + std::to_string(last);
    const Peak &p = peaks[first];
    os << llvm::format("  %-16s %12lld bytes %5.1f %%  ", range.c_str(), static_cast<long long>(p.bytes),
                       spmBytes ? 100.0 * static_cast<double>(p.bytes) / static_cast<double>(spmBytes) : 0.0);
    if (p.group)
      os << "group " << p.group->index << " (" << p.group->op << ")\n";
    else
      os << "no group\n";
  }
}

void printLine(llvm::raw_ostream &os, const char *label, int64_t bytes, const std::string &note) {
  os << llvm::format("  %-16s %12lld bytes  %s\n", label, static_cast<long long>(bytes), note.c_str());
}

/// "1 tensor", "2 tensors".
std::string count(size_t n, llvm::StringRef one, llvm::StringRef many) {
  return std::to_string(n) + " " + (n == 1 ? one : many).str();
}

} // namespace

Status tx8be::printBundleMemory(const std::string &dir, llvm::raw_ostream &os) {
  BundleInfo bundle; // a whole, unedited bundle of this compiler's format
  if (Status s = loadBundle(dir, bundle); !s.ok())
    return s;
  ManifestReader reader{dir + "/manifest.json", Status()};
  std::string text;
  if (Status s = tx8::ref::readBoundedFile(reader.path, tx8::ref::kMaxTextFileBytes, "the manifest", text); !s.ok())
    return s;
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  if (!json)
    return Status::error(reader.path + ": not valid JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object &root = *json->getAsObject(); // loadBundle checked it is an object
  std::vector<GroupMemory> groups = readGroups(root, reader);
  int64_t tiles = reader.integer(&root, "tiles", "the manifest");
  const llvm::json::Object *ddr = root.getObject("ddr");
  int64_t ddrBytes = reader.integer(ddr, "bytes", "\"ddr\""),
          constBytes = reader.integer(ddr, "const_bytes", "\"ddr\"");
  int64_t intermediates = reader.integer(ddr, "intermediates", "\"ddr\""),
          intermediateBytes = reader.integer(ddr, "intermediate_bytes", "\"ddr\"");
  const llvm::json::Object *consts = root.getObject("consts");
  const llvm::json::Array *constEntries = consts ? consts->getArray("entries") : nullptr;
  if (!reader.status.ok())
    return reader.status;

  os << "memory of bundle " << dir << " (model " << bundle.modelName << ", " << tiles
     << (tiles == 1 ? " tile" : " tiles") << ")\n";
  printSpmPeaks(os, groups, tiles, bundle.hw.spm_bytes);

  auto sum = [](const std::vector<BundleInfo::IO> &list) {
    int64_t bytes = 0;
    for (const BundleInfo::IO &io : list)
      bytes += static_cast<int64_t>(io.bytes);
    return bytes;
  };
  os << "DDR: " << ddrBytes << " bytes (the chip has " << bundle.hw.ddr_bytes << ")\n";
  printLine(os, "constants", constBytes,
            "consts.bin: " + count(constEntries ? constEntries->size() : 0, "entry", "entries") + ", bank-aligned");
  printLine(os, "activations", ddrBytes - constBytes, "the tensors below, bank-aligned, sharing bytes by lifetime");
  printLine(os, "  inputs", sum(bundle.inputs), count(bundle.inputs.size(), "tensor", "tensors"));
  printLine(os, "  outputs", sum(bundle.outputs), count(bundle.outputs.size(), "tensor", "tensors"));
  printLine(os, "  intermediates", intermediateBytes,
            count(static_cast<size_t>(intermediates), "tensor", "tensors") + ", each counted once");

  // The files loadBundle checked (their names are the manifest's "files") and the manifest itself.
  std::vector<std::string> names{"manifest.json"};
  if (const llvm::json::Object *files = root.getObject("files"))
    for (const auto &entry : *files)
      names.push_back(entry.first.str());
  llvm::sort(names);
  std::vector<uint64_t> sizes;
  uint64_t total = 0;
  for (const std::string &name : names) {
    uint64_t size = 0;
    if (std::error_code ec = llvm::sys::fs::file_size(dir + "/" + name, size))
      return Status::error("bundle " + dir + ": " + name + ": " + ec.message());
    sizes.push_back(size);
    total += size;
  }
  os << "files: " << total << " bytes\n";
  for (auto [name, size] : llvm::zip(names, sizes))
    os << llvm::format("  %-16s %12llu bytes\n", name.c_str(), static_cast<unsigned long long>(size));
  return Status();
}
