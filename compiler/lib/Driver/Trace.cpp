//===- Trace.cpp - A bundle run's binary trace as Chrome / Perfetto JSON --===//
#include "tx8/Driver/Trace.h"

#include "tx8/isa.h"
#include "tx8/trace_format.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <algorithm>
#include <functional>
#include <cstring>
#include <map>

using namespace tx8be;
using tx8::ref::Status;

namespace {

uint32_t get32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

uint64_t get64(const uint8_t *p) { return get32(p) | static_cast<uint64_t>(get32(p + 4)) << 32; }

/// Tracks of a tile besides its engines (tids 0..7).
constexpr unsigned kBarrierTrack = 100, kGroupTrack = 101;
/// DDR bandwidth is averaged over at most this many windows of the run.
constexpr uint64_t kBandwidthWindows = 2000;

const char *neOpName(uint32_t op) { return op == NE_OP_CONV ? "conv" : "gemm"; }

/// "NE conv", "CT add", "RDMA load", ...: what a slice is called.
std::string sliceName(const TraceRecord &r) {
  std::string name = traceEngineName(r.engine);
  switch (r.engine) {
  case I_CGRA: return name + " " + tx8_ct_opcode_name(r.op);
  case I_NEUR: return name + " " + neOpName(r.op);
  case I_RDMA: return name + " load";
  case I_WDMA: return name + " store";
  case I_TDMA: return name + (r.op == TD_OP_RESHAPE ? " reshape" : " gather_scatter");
  case I_DTE: return name + ((r.flags & TX8_TRACE_FROM_DDR) ? " multicast from DDR" : " copy");
  default: return name;
  }
}

/// Prints cycles as microseconds at the clock (exact to the cycle for clocks dividing 10^6 MHz).
struct Micros {
  uint64_t cycles;
  uint32_t clockMhz;
};
llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Micros t) {
  return os << llvm::format("%.6f", static_cast<double>(t.cycles) / t.clockMhz);
}

class JsonTraceWriter {
public:
  JsonTraceWriter(const TraceData &trace, const BundleInfo &bundle, llvm::raw_ostream &os)
      : trace(trace), bundle(bundle), os(os), clock(bundle.hw.clock_mhz ? bundle.hw.clock_mhz : 1) {}

  void write(const std::string &target);

private:
  void metadata(const std::vector<bool> &tilesSeen);
  void instructions();
  void groupsAndSpm(const std::vector<bool> &tilesSeen);
  void barriers();
  void ddrBandwidth();
  void slice(uint32_t pid, uint32_t tid, llvm::StringRef name, llvm::StringRef cat, uint64_t start, uint64_t end,
             const std::function<void()> &args);
  void counter(uint32_t pid, llvm::StringRef name, uint64_t at, llvm::StringRef key, double value);
  std::string nodesOf(int64_t group) const;
  void event() { os << (first ? "\n" : ",\n"), first = false; }

  const TraceData &trace;
  const BundleInfo &bundle;
  llvm::raw_ostream &os;
  uint32_t clock;
  bool first = true;
};

std::string JsonTraceWriter::nodesOf(int64_t group) const {
  if (group < 0 || static_cast<uint64_t>(group) >= bundle.groups.size())
    return "";
  return llvm::join(bundle.groups[group].nodes, ",");
}

void JsonTraceWriter::slice(uint32_t pid, uint32_t tid, llvm::StringRef name, llvm::StringRef cat, uint64_t start,
                            uint64_t end, const std::function<void()> &args) {
  event();
  os << "{\"ph\":\"X\",\"pid\":" << pid << ",\"tid\":" << tid << ",\"name\":" << llvm::json::Value(name.str())
     << ",\"cat\":" << llvm::json::Value(cat.str()) << ",\"ts\":" << Micros{start, clock}
     << ",\"dur\":" << Micros{end - start, clock} << ",\"args\":{\"start_cycle\":" << start
     << ",\"cycles\":" << end - start;
  args();
  os << "}}";
}

void JsonTraceWriter::counter(uint32_t pid, llvm::StringRef name, uint64_t at, llvm::StringRef key, double value) {
  event();
  os << "{\"ph\":\"C\",\"pid\":" << pid << ",\"name\":" << llvm::json::Value(name.str()) << ",\"ts\":"
     << Micros{at, clock} << ",\"args\":{" << llvm::json::Value(key.str()) << ":";
  if (value == static_cast<double>(static_cast<int64_t>(value)))
    os << static_cast<int64_t>(value);
  else
    os << llvm::format("%.4f", value);
  os << "}}";
}

void JsonTraceWriter::metadata(const std::vector<bool> &tilesSeen) {
  auto meta = [&](uint32_t pid, int64_t tid, const char *what, const std::string &name) {
    event();
    os << "{\"ph\":\"M\",\"pid\":" << pid;
    if (tid >= 0)
      os << ",\"tid\":" << tid;
    os << ",\"name\":\"" << what << "\",\"args\":{\"name\":" << llvm::json::Value(name) << "}}";
  };
  auto sortIndex = [&](uint32_t pid, int64_t tid, int64_t index) {
    event();
    os << "{\"ph\":\"M\",\"pid\":" << pid << ",\"tid\":" << tid << ",\"name\":\"thread_sort_index\",\"args\":"
       << "{\"sort_index\":" << index << "}}";
  };
  for (uint32_t t = 0; t < trace.tiles; ++t) {
    if (!tilesSeen[t])
      continue;
    meta(t, -1, "process_name", "tile " + std::to_string(t));
    meta(t, kGroupTrack, "thread_name", "groups");
    sortIndex(t, kGroupTrack, 0);
    // The tile's engines in the order data moves through them.
    const uint32_t order[] = {I_RDMA, I_DTE, I_TDMA, I_NEUR, I_CGRA, I_WDMA};
    for (unsigned i = 0; i < std::size(order); ++i) {
      meta(t, order[i], "thread_name", traceEngineName(order[i]));
      sortIndex(t, order[i], i + 1);
    }
    meta(t, kBarrierTrack, "thread_name", "barrier");
    sortIndex(t, kBarrierTrack, std::size(order) + 1);
  }
  meta(trace.tiles, -1, "process_name", "chip");
}

void JsonTraceWriter::instructions() {
  std::vector<const TraceRecord *> instrs;
  for (const TraceRecord &r : trace.events)
    if (r.kind == TX8_TRACE_INSTR)
      instrs.push_back(&r);
  // Each track in time order (the scheduler reports by completion).
  std::stable_sort(instrs.begin(), instrs.end(), [](const TraceRecord *a, const TraceRecord *b) {
    return std::tie(a->tile, a->engine, a->start, a->end) < std::tie(b->tile, b->engine, b->start, b->end);
  });
  for (const TraceRecord *r : instrs) {
    const int64_t group = traceGroup(r->tag);
    // Named by what it is and whose: the group's anchor node ("NE conv (stem.conv)"), else its group number.
    std::string name = sliceName(*r);
    if (group >= 0 && static_cast<uint64_t>(group) < bundle.groups.size() && !bundle.groups[group].nodes.empty())
      name += " (" + bundle.groups[group].nodes.front() + ")";
    else if (group >= 0)
      name += " (group " + std::to_string(group) + ")";
    slice(r->tile, r->engine, name, traceEngineName(r->engine), r->start, r->end, [&] {
      os << ",\"group\":" << group;
      if (std::string nodes = nodesOf(group); !nodes.empty())
        os << ",\"nodes\":" << llvm::json::Value(nodes);
      switch (r->engine) {
      case I_NEUR:
        os << ",\"macs\":" << r->macs << ",\"shape\":\"" << r->dims[0] << "x" << r->dims[1] << "x" << r->dims[2]
           << "\",\"in_fmt\":\"" << tx8_format_name(static_cast<Data_Format>(r->dims[3])) << "\"";
        break;
      case I_CGRA: {
        const auto dst = static_cast<Data_Format>(r->dims[2]);
        os << ",\"elements\":" << r->dims[0] << ",\"bytes\":" << uint64_t{r->dims[0]} * tx8_format_bytes(dst)
           << ",\"src_fmt\":\"" << tx8_format_name(static_cast<Data_Format>(r->dims[1])) << "\",\"dst_fmt\":\""
           << tx8_format_name(dst) << "\"";
        break;
      }
      case I_RDMA:
      case I_WDMA:
      case I_DTE:
        os << ",\"bytes\":" << r->bytes << ",\"latency_cycles\":" << r->ready - r->start;
        if (r->engine == I_DTE)
          os << ",\"from_ddr\":" << ((r->flags & TX8_TRACE_FROM_DDR) ? 1 : 0);
        break;
      default:
        break;
      }
    });
  }
}

void JsonTraceWriter::groupsAndSpm(const std::vector<bool> &tilesSeen) {
  // Per tile, its marks in order: group g runs from its mark to the next one (or the end of the run).
  std::vector<std::vector<const TraceRecord *>> marks(trace.tiles);
  for (const TraceRecord &r : trace.events)
    if (r.kind == TX8_TRACE_MARK)
      marks[r.tile].push_back(&r);
  for (uint32_t t = 0; t < trace.tiles; ++t) {
    if (!tilesSeen[t])
      continue;
    auto &m = marks[t];
    std::stable_sort(m.begin(), m.end(), [](auto *a, auto *b) { return a->start < b->start; });
    for (size_t i = 0; i < m.size(); ++i) {
      const int64_t group = traceGroup(m[i]->tag);
      const uint64_t end = i + 1 < m.size() ? m[i + 1]->start : std::max(trace.cycles, m[i]->start);
      std::string name = "group " + std::to_string(group);
      if (group >= 0 && static_cast<uint64_t>(group) < bundle.groups.size())
        name += ": " + bundle.groups[group].op;
      slice(t, kGroupTrack, name, "group", m[i]->start, end, [&] {
        os << ",\"group\":" << group;
        if (std::string nodes = nodesOf(group); !nodes.empty())
          os << ",\"nodes\":" << llvm::json::Value(nodes);
      });
      uint64_t spm = group >= 0 && static_cast<uint64_t>(group) < bundle.groups.size()
                         ? bundle.groups[group].spmBytes
                         : 0;
      counter(t, "SPM bytes", m[i]->start, "bytes", static_cast<double>(spm));
    }
    if (!m.empty())
      counter(t, "SPM bytes", std::max(trace.cycles, m.back()->start), "bytes", 0);
  }
}

void JsonTraceWriter::barriers() {
  std::vector<const TraceRecord *> waits;
  for (const TraceRecord &r : trace.events)
    if (r.kind == TX8_TRACE_BARRIER)
      waits.push_back(&r);
  std::stable_sort(waits.begin(), waits.end(),
                   [](auto *a, auto *b) { return std::tie(a->tile, a->start) < std::tie(b->tile, b->start); });
  for (const TraceRecord *r : waits)
    slice(r->tile, kBarrierTrack, "barrier", "barrier", r->start, r->end, [] {});
}

/// The chip's DDR traffic: every DMA's and every DTE-from-DDR's bytes spread evenly over the cycles they flow
/// (after their latency), summed per window of the run.
void JsonTraceWriter::ddrBandwidth() {
  const uint64_t cycles = std::max<uint64_t>(trace.cycles, 1);
  const uint64_t window = std::max<uint64_t>(1, (cycles + kBandwidthWindows - 1) / kBandwidthWindows);
  std::vector<double> bytes((cycles + window - 1) / window + 1, 0.0);
  for (const TraceRecord &r : trace.events) {
    const bool ddr = r.kind == TX8_TRACE_INSTR && (r.engine == I_RDMA || r.engine == I_WDMA ||
                                                   (r.engine == I_DTE && (r.flags & TX8_TRACE_FROM_DDR)));
    if (!ddr || r.bytes == 0)
      continue;
    const uint64_t from = std::min(r.ready, r.end), to = r.end;
    if (to == from) {
      bytes[std::min<uint64_t>(from / window, bytes.size() - 1)] += static_cast<double>(r.bytes);
      continue;
    }
    const double rate = static_cast<double>(r.bytes) / static_cast<double>(to - from);
    for (uint64_t w = from / window; w * window < to && w < bytes.size(); ++w) {
      const uint64_t lo = std::max(from, w * window), hi = std::min(to, (w + 1) * window);
      bytes[w] += rate * static_cast<double>(hi - lo);
    }
  }
  double last = -1;
  for (uint64_t w = 0; w < bytes.size(); ++w) {
    const double perCycle = bytes[w] / static_cast<double>(window);
    if (perCycle != last) // a counter holds its value until the next sample
      counter(trace.tiles, "DDR bandwidth", std::min(w * window, cycles), "bytes_per_cycle", perCycle);
    last = perCycle;
  }
}

void JsonTraceWriter::write(const std::string &target) {
  std::vector<bool> tilesSeen(trace.tiles, false);
  for (const TraceRecord &r : trace.events)
    tilesSeen[r.tile] = true;
  os << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"format\":\"tx8-trace\",\"version\":1,\"model\":"
     << llvm::json::Value(bundle.modelName) << ",\"target\":" << llvm::json::Value(target)
     << ",\"clock_mhz\":" << clock << ",\"tiles\":" << bundle.tiles << ",\"chip_tiles\":" << trace.tiles
     << ",\"cycles\":" << trace.cycles << ",\"engines\":[";
  for (uint32_t e = 0; e < kTraceEngines; ++e)
    os << (e ? "," : "") << "\"" << traceEngineName(e) << "\"";
  os << "],\"engine_busy\":[";
  for (uint32_t t = 0; t < trace.tiles; ++t) {
    os << (t ? "," : "") << "[";
    for (uint32_t e = 0; e < kTraceEngines; ++e)
      os << (e ? "," : "") << trace.busy[t][e];
    os << "]";
  }
  os << "]},\"traceEvents\":[";
  metadata(tilesSeen);
  instructions();
  barriers();
  groupsAndSpm(tilesSeen);
  ddrBandwidth();
  os << "\n]}\n";
}

} // namespace

const char *tx8be::traceEngineName(uint32_t engine) {
  static const char *const names[kTraceEngines] = {"CT", "NE", "RDMA", "WDMA", "TDMA", "SCALAR", "DTE", "CSR"};
  return engine < kTraceEngines ? names[engine] : "?";
}

Status tx8be::parseTrace(llvm::StringRef bytes, const std::string &where, TraceData &trace) {
  trace = TraceData();
  const auto *p = reinterpret_cast<const uint8_t *>(bytes.data());
  if (bytes.size() < TX8_TRACE_HEADER_BYTES || std::memcmp(p, TX8_TRACE_MAGIC, 8) != 0)
    return Status::error(where + ": not a tx8 trace (no \"" TX8_TRACE_MAGIC "\" header)");
  const uint32_t version = get32(p + 8), tiles = get32(p + 12), engines = get32(p + 16), recordBytes = get32(p + 20);
  if (version != TX8_TRACE_VERSION || engines != kTraceEngines || recordBytes != TX8_TRACE_RECORD_BYTES)
    return Status::error(where + ": trace version " + std::to_string(version) + " with " + std::to_string(engines) +
                         " engines and " + std::to_string(recordBytes) + "-byte records; this tx8-aot reads version " +
                         std::to_string(TX8_TRACE_VERSION));
  if (tiles == 0 || tiles > 1024)
    return Status::error(where + ": a trace of " + std::to_string(tiles) + " tiles");
  const uint64_t body = bytes.size() - TX8_TRACE_HEADER_BYTES;
  if (body % TX8_TRACE_RECORD_BYTES)
    return Status::error(where + ": truncated (" + std::to_string(body % TX8_TRACE_RECORD_BYTES) +
                         " bytes of a partial record at the end)");
  trace.tiles = tiles;
  trace.busy.assign(tiles, {});
  bool ended = false;
  const uint64_t count = body / TX8_TRACE_RECORD_BYTES;
  trace.events.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t *q = p + TX8_TRACE_HEADER_BYTES + i * TX8_TRACE_RECORD_BYTES;
    TraceRecord r;
    r.kind = get32(q), r.tile = get32(q + 4), r.engine = get32(q + 8), r.op = get32(q + 12);
    r.tag = get32(q + 16), r.flags = get32(q + 20);
    r.start = get64(q + 24), r.ready = get64(q + 32), r.end = get64(q + 40), r.bytes = get64(q + 48);
    r.macs = get64(q + 56);
    for (int d = 0; d < 4; ++d)
      r.dims[d] = get32(q + 64 + 4 * d);
    const std::string at = where + ": record " + std::to_string(i);
    if (ended)
      return Status::error(at + " follows the end record");
    if (r.tile >= tiles || r.engine >= kTraceEngines)
      return Status::error(at + " names tile " + std::to_string(r.tile) + ", engine " + std::to_string(r.engine) +
                           " (the trace has " + std::to_string(tiles) + " tiles)");
    switch (r.kind) {
    case TX8_TRACE_INSTR:
    case TX8_TRACE_MARK:
    case TX8_TRACE_BARRIER:
      if (r.end < r.start || r.ready < r.start || r.ready > r.end)
        return Status::error(at + " ends before it starts");
      trace.events.push_back(r);
      break;
    case TX8_TRACE_BUSY:
      trace.busy[r.tile][r.engine] = r.start;
      break;
    case TX8_TRACE_END:
      trace.cycles = r.start;
      ended = true;
      break;
    default:
      return Status::error(at + " has kind " + std::to_string(r.kind) + ", not a trace record");
    }
  }
  if (!ended)
    return Status::error(where + ": truncated (no end record: did the run fault?)");
  for (const TraceRecord &r : trace.events)
    if (r.end > trace.cycles)
      return Status::error(where + ": an event ends at cycle " + std::to_string(r.end) + ", after the run's end " +
                           std::to_string(trace.cycles));
  return Status();
}

void tx8be::writeTraceJson(const TraceData &trace, const BundleInfo &bundle, const std::string &target,
                           llvm::raw_ostream &os) {
  JsonTraceWriter(trace, bundle, os).write(target);
}

Status tx8be::saveTraceJson(const std::string &binary, const BundleInfo &bundle, const std::string &target,
                            const std::string &path, std::string &summary) {
  TraceData trace;
  if (Status s = parseTrace(binary, "the trace of the run", trace); !s.ok())
    return s;
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return Status::error(path + ": " + ec.message());
  writeTraceJson(trace, bundle, target, out);
  const uint64_t bytes = out.tell();
  out.close();
  if (out.has_error())
    return Status::error(path + ": " + out.error().message());
  size_t instructions = 0;
  std::vector<bool> used(trace.tiles, false);
  for (const TraceRecord &r : trace.events)
    if (r.kind == TX8_TRACE_INSTR)
      ++instructions, used[r.tile] = true;
  summary = "trace: " + std::to_string(instructions) + " instructions on " + std::to_string(llvm::count(used, true)) +
            " tiles, " + std::to_string(trace.cycles) + " cycles, " + std::to_string((bytes + 1023) / 1024) +
            " KiB -> " + path;
  return Status();
}
