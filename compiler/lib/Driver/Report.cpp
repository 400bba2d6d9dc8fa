//===- Report.cpp - tx8-aot report: trace + manifest -> ReportData --------===//
//
// A trace is aggregated as it is read: per tile and engine, per group, and the counters as (cycle, value)
// points, which become time series of at most kMaxSeriesPoints buckets at the end. No slice is kept but the
// DDR transfers' (start, cycles, bytes), which give the DDR traffic over time when the trace has no "DDR
// bandwidth" counter. A trace file is split into its events by a scanner that only finds where each JSON value
// ends, and each event is parsed on its own: llvm::json::parse of a whole 77 MB trace (500,000 slices) took 4.6
// GB and 13 s; event by event it costs the text and the aggregates.
//
// ReportHtml.cpp prints the page.
//
//===----------------------------------------------------------------------===//
#include "tx8/Driver/Report.h"

#include "tx8/Reference/BoundedFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace tx8be;
using tx8::ref::Status;
using llvm::StringRef;
namespace json = llvm::json;

EngineKind tx8be::engineKindOf(StringRef name) {
  std::string n = name.trim().upper();
  if (n == "CT" || n == "CGRA")
    return EngineKind::CT;
  if (n == "NE" || n == "NEUR")
    return EngineKind::NE;
  if (n == "RDMA")
    return EngineKind::RDMA;
  if (n == "WDMA")
    return EngineKind::WDMA;
  if (n == "TDMA")
    return EngineKind::TDMA;
  if (n == "DTE")
    return EngineKind::DTE;
  return EngineKind::Other;
}

namespace {

/// The trace's tracks beside the engines' (tid 0..engines-1).
constexpr int64_t kBarrierTrack = 100, kGroupTrack = 101;
/// Bounds a hostile trace cannot pass: the chip's tiles (hw_config.def), engines, and any count or cycle
/// (2^60: sums of a million of them still fit 64 bits; a double beyond it is clamped before conversion).
constexpr int64_t kMaxTiles = 1024, kMaxEngines = 64;
constexpr double kMaxValue = 1152921504606846976.0; // 2^60

/// A non-negative number (integer or not) as an integer; 0 when absent, negative or not a number.
uint64_t countOf(const json::Value *v) {
  std::optional<double> d = v ? v->getAsNumber() : std::nullopt;
  if (!d || !(*d > 0))
    return 0;
  if (std::optional<int64_t> i = v->getAsInteger()) // exact beyond 2^53
    return static_cast<uint64_t>(std::min<int64_t>(*i, static_cast<int64_t>(kMaxValue)));
  return static_cast<uint64_t>(std::llround(std::min(*d, kMaxValue)));
}

uint64_t count(const json::Object *o, StringRef key) { return countOf(o ? o->get(key) : nullptr); }

double number(const json::Object *o, StringRef key) {
  std::optional<double> d = o ? o->getNumber(key) : std::nullopt;
  return d && std::isfinite(*d) && *d > 0 ? std::min(*d, kMaxValue) : 0.0;
}

/// A (cycle, value) point of a counter; `order` keeps the trace's order among points at one cycle.
struct Point {
  uint64_t cycle;
  double value;
  size_t order;
};

/// A DDR transfer, for the traffic over time when no counter gives it.
struct Transfer {
  uint64_t start, cycles, bytes;
};

/// Bucket geometry for a run of `cycles` cycles: at most kMaxSeriesPoints buckets of a whole number of cycles.
std::pair<uint64_t, size_t> buckets(uint64_t cycles) {
  uint64_t n = std::max<uint64_t>(1, std::min<uint64_t>(kMaxSeriesPoints, cycles));
  uint64_t width = std::max<uint64_t>(1, (cycles + n - 1) / n);
  return {width, static_cast<size_t>((std::max<uint64_t>(cycles, 1) + width - 1) / width)};
}

void sortPoints(std::vector<Point> &points) {
  llvm::sort(points, [](const Point &a, const Point &b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.order < b.order;
  });
}

/// A step counter (its value holds until the next point) as the largest value within each bucket: a peak of
/// SPM use shows however short. The value a bucket starts with is the last set at or before its first cycle.
Series maxPerBucket(std::vector<Point> points, uint64_t cycles) {
  sortPoints(points);
  auto [width, n] = buckets(cycles);
  Series s{width, std::vector<double>(n, 0.0)};
  double current = 0;
  size_t j = 0;
  for (size_t b = 0; b < n; ++b) {
    uint64_t lo = b * width, hi = lo + width;
    for (; j < points.size() && points[j].cycle <= lo; ++j)
      current = points[j].value;
    double peak = current;
    for (; j < points.size() && points[j].cycle < hi; ++j)
      peak = std::max(peak, current = points[j].value);
    s.values[b] = peak;
  }
  return s;
}

/// A step counter as its mean over each bucket (time-weighted: the area, bytes for a bandwidth, is kept).
Series meanPerBucket(std::vector<Point> points, uint64_t cycles) {
  sortPoints(points);
  auto [width, n] = buckets(cycles);
  Series s{width, std::vector<double>(n, 0.0)};
  double current = 0;
  size_t j = 0;
  for (size_t b = 0; b < n; ++b) {
    uint64_t lo = b * width, hi = lo + width, at = lo;
    for (; j < points.size() && points[j].cycle <= lo; ++j)
      current = points[j].value;
    double area = 0;
    for (; j < points.size() && points[j].cycle < hi; ++j) {
      area += current * static_cast<double>(points[j].cycle - at);
      at = points[j].cycle;
      current = points[j].value;
    }
    area += current * static_cast<double>(hi - at);
    s.values[b] = area / static_cast<double>(width);
  }
  return s;
}

/// DDR bytes per cycle in each bucket from the transfers, each spread evenly over its cycles.
Series spreadTransfers(const std::vector<Transfer> &transfers, uint64_t cycles) {
  auto [width, n] = buckets(cycles);
  Series s{width, std::vector<double>(n, 0.0)};
  for (const Transfer &t : transfers) {
    uint64_t end = t.start + std::max<uint64_t>(t.cycles, 1);
    double rate = static_cast<double>(t.bytes) / static_cast<double>(end - t.start);
    for (size_t b = static_cast<size_t>(t.start / width); b < n && b * width < end; ++b) {
      uint64_t lo = std::max<uint64_t>(t.start, b * width), hi = std::min<uint64_t>(end, (b + 1) * width);
      s.values[b] += rate * static_cast<double>(hi - lo);
    }
  }
  for (double &v : s.values)
    v /= static_cast<double>(width);
  return s;
}

/// Accumulates a trace: begin() with its otherData, addEvent() for each event, finish().
class TraceAggregator {
public:
  explicit TraceAggregator(std::string name) { summary.name = std::move(name); }

  Status begin(const json::Object *otherData);
  void addEvent(const json::Object &event);
  TraceSummary finish();

private:
  Status notATrace(const std::string &why) const {
    return Status::error(summary.name + ": not a tx8 trace (" + why + ")");
  }
  Status corrupt(const std::string &why) const { return Status::error(summary.name + ": corrupt trace (" + why + ")"); }
  uint64_t cyclesOf(double us) const {
    double c = us * static_cast<double>(summary.clockMhz ? summary.clockMhz : 1000);
    return std::isfinite(c) && c > 0 ? static_cast<uint64_t>(std::llround(std::min(c, kMaxValue))) : 0;
  }
  TraceGroup &group(int64_t index) {
    TraceGroup &g = summary.groups[index];
    g.engineCycles.resize(summary.engines.size(), 0);
    return g;
  }
  void addSlice(const json::Object &event, int64_t tile);
  void addCounter(const json::Object &event, int64_t pid);

  TraceSummary summary;
  std::vector<std::vector<uint64_t>> busyFromSlices, busyFromHeader;
  std::vector<EngineKind> kinds;
  std::vector<std::vector<Point>> spmPoints;
  std::vector<Point> ddrPoints;
  std::vector<Transfer> transfers;
  size_t points = 0;
  uint64_t lastCycle = 0; ///< the latest end of any slice, for a trace that does not give its cycles
};

Status TraceAggregator::begin(const json::Object *otherData) {
  if (!otherData)
    return notATrace("no \"otherData\" object");
  if (otherData->getString("format") != StringRef("tx8-trace"))
    return notATrace("otherData.format is not \"tx8-trace\"");
  if (std::optional<int64_t> version = otherData->getInteger("version"); version && *version != 1)
    return Status::error(summary.name + ": tx8 trace format version " + std::to_string(*version) +
                         ", this tx8-aot reads version 1");
  std::optional<int64_t> tiles = otherData->getInteger("tiles");
  if (!tiles || *tiles < 1 || *tiles > kMaxTiles)
    return corrupt("otherData.tiles is not 1 to " + std::to_string(kMaxTiles));
  summary.tiles = *tiles;
  // The tracks may cover more tiles than the bundle runs on (a run on the whole chip).
  std::optional<int64_t> chipTiles = otherData->getInteger("chip_tiles");
  if (chipTiles && (*chipTiles < 1 || *chipTiles > kMaxTiles))
    return corrupt("otherData.chip_tiles is not 1 to " + std::to_string(kMaxTiles));
  summary.chipTiles = std::max(summary.tiles, chipTiles.value_or(0));
  summary.model = otherData->getString("model").value_or("").str();
  summary.target = otherData->getString("target").value_or("").str();
  summary.clockMhz = count(otherData, "clock_mhz");
  summary.cycles = count(otherData, "cycles");
  if (const json::Array *engines = otherData->getArray("engines")) {
    if (engines->size() > static_cast<size_t>(kMaxEngines))
      return corrupt("more than " + std::to_string(kMaxEngines) + " engines");
    for (const json::Value &name : *engines)
      summary.engines.push_back(name.getAsString().value_or("").str());
  }
  for (const std::string &name : summary.engines)
    kinds.push_back(engineKindOf(name));
  size_t tileCount = static_cast<size_t>(summary.chipTiles), engineCount = summary.engines.size();
  busyFromSlices.assign(tileCount, std::vector<uint64_t>(engineCount, 0));
  summary.barrierCycles.assign(tileCount, 0);
  spmPoints.resize(tileCount);
  // engine_busy is used only when it has a row of every engine for every tile (else the slices are summed).
  if (const json::Array *rows = otherData->getArray("engine_busy"); rows && rows->size() == tileCount) {
    for (const json::Value &row : *rows) {
      const json::Array *cells = row.getAsArray();
      if (!cells || cells->size() != engineCount) {
        busyFromHeader.clear();
        break;
      }
      busyFromHeader.emplace_back();
      for (const json::Value &cell : *cells)
        busyFromHeader.back().push_back(countOf(&cell));
    }
  }
  return Status();
}

void TraceAggregator::addEvent(const json::Object &event) {
  std::optional<StringRef> ph = event.getString("ph");
  std::optional<int64_t> pid = event.getInteger("pid");
  if (!ph || !pid)
    return;
  if (*ph == "X" && *pid >= 0 && *pid < summary.chipTiles)
    addSlice(event, *pid);
  else if (*ph == "C")
    addCounter(event, *pid);
}

void TraceAggregator::addSlice(const json::Object &event, int64_t tile) {
  ++summary.slices;
  const json::Object *args = event.getObject("args");
  uint64_t start = args && args->get("start_cycle") ? count(args, "start_cycle") : cyclesOf(number(&event, "ts"));
  uint64_t cycles = args && args->get("cycles") ? count(args, "cycles") : cyclesOf(number(&event, "dur"));
  lastCycle = std::max(lastCycle, start + cycles);
  int64_t tid = event.getInteger("tid").value_or(-1);
  StringRef cat = event.getString("cat").value_or("");
  // -1 (or none): before the first group.
  int64_t groupIndex = args ? args->getInteger("group").value_or(-1) : -1;
  size_t t = static_cast<size_t>(tile);
  if (cat == "group" || tid == kGroupTrack) {
    if (groupIndex < 0)
      return;
    TraceGroup &g = group(groupIndex);
    g.start = std::min(g.start, start);
    g.end = std::max(g.end, start + cycles);
    ++g.spans;
    if (g.nodes.empty())
      g.nodes = args->getString("nodes").value_or("").str();
    return;
  }
  if (cat == "barrier" || tid == kBarrierTrack) {
    summary.barrierCycles[t] += cycles;
    return;
  }
  if (tid < 0 || tid >= static_cast<int64_t>(summary.engines.size()))
    return; // a track the format does not define
  size_t e = static_cast<size_t>(tid);
  busyFromSlices[t][e] += cycles;
  TraceGroup *g = groupIndex >= 0 ? &group(groupIndex) : nullptr;
  if (g)
    g->engineCycles[e] += cycles;
  EngineKind kind = kinds[e] != EngineKind::Other ? kinds[e] : engineKindOf(cat);
  uint64_t bytes = count(args, "bytes");
  bool fromDdr = false;
  switch (kind) {
  case EngineKind::NE: {
    uint64_t macs = count(args, "macs");
    std::string format = args ? args->getString("in_fmt").value_or("").lower() : std::string();
    summary.macs += macs;
    summary.macsByFormat[format] += macs;
    if (g) {
      g->macs += macs;
      g->macsByFormat[format] += macs;
    }
    return;
  }
  case EngineKind::RDMA:
    fromDdr = true;
    if (g)
      g->rdmaBytes += bytes;
    break;
  case EngineKind::WDMA:
    fromDdr = true;
    if (g)
      g->wdmaBytes += bytes;
    break;
  case EngineKind::DTE:
    fromDdr = count(args, "from_ddr") != 0;
    if (g) {
      g->dteBytes += bytes;
      g->dteDdrBytes += fromDdr ? bytes : 0;
    }
    break;
  default:
    return;
  }
  if (fromDdr && bytes)
    transfers.push_back({start, cycles, bytes});
}

void TraceAggregator::addCounter(const json::Object &event, int64_t pid) {
  StringRef name = event.getString("name").value_or("");
  const json::Object *args = event.getObject("args");
  uint64_t cycle = cyclesOf(number(&event, "ts"));
  if (name == "SPM bytes" && pid >= 0 && pid < summary.chipTiles)
    spmPoints[static_cast<size_t>(pid)].push_back({cycle, static_cast<double>(count(args, "bytes")), points++});
  else if (name == "DDR bandwidth")
    ddrPoints.push_back({cycle, number(args, "bytes_per_cycle"), points++});
}

TraceSummary TraceAggregator::finish() {
  if (!summary.cycles)
    summary.cycles = lastCycle;
  summary.engineBusy = busyFromHeader.empty() ? std::move(busyFromSlices) : std::move(busyFromHeader);
  for (std::vector<Point> &tile : spmPoints)
    summary.spm.push_back(maxPerBucket(std::move(tile), summary.cycles));
  summary.ddrFromCounter = !ddrPoints.empty();
  summary.ddrBytesPerCycle = summary.ddrFromCounter ? meanPerBucket(std::move(ddrPoints), summary.cycles)
                                                    : spreadTransfers(transfers, summary.cycles);
  return std::move(summary);
}

/// Finds where JSON values end without building them (strings are skipped escape by escape, brackets
/// counted); what a value holds is llvm::json::parse's business, one value at a time.
class JsonScanner {
public:
  explicit JsonScanner(StringRef text) : text(text) {}

  size_t offset() const { return pos; }
  bool atEnd() {
    skipSpace();
    return pos == text.size();
  }
  /// Consumes `c` after any white space.
  bool eat(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  /// The raw text between the quotes of the string here (escapes not decoded).
  std::optional<StringRef> string() {
    skipSpace();
    if (pos >= text.size() || text[pos] != '"')
      return std::nullopt;
    size_t start = ++pos;
    for (; pos < text.size(); ++pos) {
      if (text[pos] == '\\')
        ++pos;
      else if (text[pos] == '"')
        return text.slice(start, pos++);
    }
    return std::nullopt;
  }
  /// The text of the value here.
  std::optional<StringRef> value() {
    skipSpace();
    size_t start = pos;
    if (pos >= text.size())
      return std::nullopt;
    if (text[pos] == '"')
      return string() ? std::optional<StringRef>(text.slice(start, pos)) : std::nullopt;
    if (text[pos] != '{' && text[pos] != '[') {
      while (pos < text.size() && !llvm::is_contained(StringRef(",}] \t\r\n"), text[pos]))
        ++pos;
      return pos > start ? std::optional<StringRef>(text.slice(start, pos)) : std::nullopt;
    }
    size_t depth = 0;
    while (pos < text.size()) {
      char c = text[pos];
      if (c == '"') {
        if (!string())
          return std::nullopt;
        continue;
      }
      ++pos;
      if (c == '{' || c == '[')
        ++depth;
      else if ((c == '}' || c == ']') && --depth == 0)
        return text.slice(start, pos);
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

private:
  StringRef text;
  size_t pos = 0;
};

/// The top-level "otherData" and "traceEvents" values of a trace's text (the others are skipped).
Status splitTrace(StringRef text, const std::string &path, StringRef &otherData, StringRef &events) {
  JsonScanner scan(text);
  auto malformed = [&](const char *what) {
    return Status::error(path + ": not a tx8 trace (" + what + " at byte " + std::to_string(scan.offset()) + ")");
  };
  if (!scan.eat('{'))
    return malformed("not a JSON object");
  if (!scan.eat('}')) {
    do {
      std::optional<StringRef> key = scan.string();
      if (!key || !scan.eat(':'))
        return malformed("invalid JSON");
      std::optional<StringRef> value = scan.value();
      if (!value)
        return malformed("invalid JSON");
      if (*key == "otherData")
        otherData = *value;
      else if (*key == "traceEvents")
        events = *value;
    } while (scan.eat(','));
    if (!scan.eat('}'))
      return malformed("invalid JSON");
  }
  if (!scan.atEnd())
    return malformed("text after the JSON object");
  return Status();
}

/// Parses each element of the traceEvents array `events` (at byte `base` of the file) into `aggregator`.
Status readEvents(StringRef events, size_t base, const std::string &path, TraceAggregator &aggregator) {
  JsonScanner scan(events);
  auto corrupt = [&](size_t at, const std::string &why) {
    return Status::error(path + ": corrupt trace (" + why + " at byte " + std::to_string(base + at) + ")");
  };
  if (!scan.eat('['))
    return corrupt(0, "traceEvents is not an array");
  if (scan.eat(']'))
    return Status();
  do {
    scan.skipSpace();
    size_t start = scan.offset();
    std::optional<StringRef> text = scan.value();
    if (!text)
      return corrupt(start, "invalid JSON in traceEvents");
    llvm::Expected<json::Value> event = json::parse(*text);
    if (!event) {
      // "[1:7, byte=7]: Invalid JSON value": the position is the event's, so the event's own is given instead.
      std::string why = llvm::toString(event.takeError());
      return corrupt(start, "an event is not valid JSON: " + StringRef(why).split("]: ").second.str());
    }
    if (const json::Object *object = event->getAsObject())
      aggregator.addEvent(*object);
  } while (scan.eat(','));
  if (!scan.eat(']'))
    return corrupt(scan.offset(), "invalid JSON in traceEvents");
  return Status();
}

} // namespace

Status tx8be::summarizeTrace(const json::Object &trace, const std::string &name, TraceSummary &summary) {
  TraceAggregator aggregator(name);
  if (Status s = aggregator.begin(trace.getObject("otherData")); !s.ok())
    return s;
  if (const json::Array *events = trace.getArray("traceEvents"))
    for (const json::Value &event : *events)
      if (const json::Object *object = event.getAsObject())
        aggregator.addEvent(*object);
  summary = aggregator.finish();
  return Status();
}

Status tx8be::readTraceFile(const std::string &path, TraceSummary &summary) {
  std::string text;
  if (Status s = tx8::ref::readBoundedFile(path, kMaxTraceFileBytes, "the trace", text); !s.ok())
    return s;
  return summarizeTraceText(text, path, summary);
}

Status tx8be::summarizeTraceText(StringRef text, const std::string &name, TraceSummary &summary) {
  if (Status s = tx8::ref::checkJsonDepth(std::string_view(text.data(), text.size()), name + ": corrupt trace");
      !s.ok())
    return s;
  StringRef otherDataText, eventsText;
  if (Status s = splitTrace(text, name, otherDataText, eventsText); !s.ok())
    return s;
  TraceAggregator aggregator(name);
  std::optional<json::Value> otherData;
  if (!otherDataText.empty()) {
    llvm::Expected<json::Value> parsed = json::parse(otherDataText);
    if (!parsed)
      return Status::error(name + ": not a tx8 trace (otherData: " + llvm::toString(parsed.takeError()) + ")");
    otherData = std::move(*parsed);
  }
  if (Status s = aggregator.begin(otherData ? otherData->getAsObject() : nullptr); !s.ok())
    return s;
  if (!eventsText.empty())
    if (Status s = readEvents(eventsText, static_cast<size_t>(eventsText.data() - text.data()), name, aggregator);
        !s.ok())
      return s;
  summary = aggregator.finish();
  return Status();
}

namespace {

std::vector<int64_t> integers(const json::Object &o, StringRef key) {
  std::vector<int64_t> values;
  if (const json::Array *a = o.getArray(key))
    for (const json::Value &v : *a)
      values.push_back(v.getAsInteger().value_or(0));
  return values;
}

/// The NE's MACs per cycle per tile for a format it reads (tx8_format_name's names; fp32's for any other).
int64_t neMacsPerCycle(const tx8_hw_config &hw, StringRef format) {
  if (format == "tf32")
    return hw.ne_macs_per_cycle_tf32;
  if (format == "bf16")
    return hw.ne_macs_per_cycle_bf16;
  if (format == "fp16")
    return hw.ne_macs_per_cycle_fp16;
  if (format == "int8")
    return hw.ne_macs_per_cycle_int8;
  return hw.ne_macs_per_cycle_fp32;
}

/// The NE format of the most MACs (the first name on a tie); `fallback` when no slice names one.
std::string mainFormat(const std::map<std::string, uint64_t> &macsByFormat, const std::string &fallback) {
  std::string best;
  uint64_t most = 0;
  for (const auto &[format, macs] : macsByFormat)
    if (!format.empty() && macs > most)
      best = format, most = macs;
  return best.empty() ? fallback : best;
}

/// The manifest's plan of one group.
ReportGroup planOf(const json::Object &g, size_t position) {
  ReportGroup r;
  r.index = g.getInteger("group").value_or(static_cast<int64_t>(position));
  r.op = g.getString("op").value_or("?").str();
  r.view = r.op == "view";
  r.tiles = g.getInteger("tiles").value_or(0);
  r.estimateCycles = g.getInteger("estimate_cycles").value_or(0);
  r.spmBytes = g.getInteger("spm_bytes").value_or(0);
  r.sharding = integers(g, "sharding");
  r.steps = integers(g, "steps");
  if (const json::Array *nodes = g.getArray("nodes"))
    for (const json::Value &n : *nodes)
      if (std::optional<StringRef> s = n.getAsString())
        r.nodes.push_back(s->str());
  return r;
}

/// What the trace says of group `r` and what follows from it for the page.
void addTrace(ReportGroup &r, const TraceGroup &t, const TraceSummary &trace, const ReportData &data,
              const tx8_hw_config &bundleHw) {
  r.inTrace = true;
  r.start = t.spans ? t.start : 0;
  r.cycles = t.cycles();
  r.macs = t.macs;
  r.ddrBytes = t.ddrBytes();
  if (r.nodes.empty()) // the manifest's list when it has one (names may hold commas)
    for (StringRef node : llvm::split(StringRef(t.nodes), ','))
      if (!node.trim().empty())
        r.nodes.push_back(node.trim().str());
  double cycles = static_cast<double>(r.cycles), ops = 2.0 * static_cast<double>(r.macs);
  r.share = data.cycles ? cycles / static_cast<double>(data.cycles) : 0;
  r.ratio = r.estimateCycles > 0 ? cycles / static_cast<double>(r.estimateCycles) : 0;
  r.opsPerCycle = r.cycles ? ops / cycles : 0;
  r.intensity = r.ddrBytes ? ops / static_cast<double>(r.ddrBytes) : 0;
  r.ddrBytesPerCycle = r.cycles ? static_cast<double>(r.ddrBytes) / cycles : 0;
  r.neFormat = mainFormat(t.macsByFormat, data.precision);
  r.peakTiles = r.tiles > 0 ? r.tiles : t.spans;
  r.peakOpsPerCycle = 2.0 * static_cast<double>(neMacsPerCycle(bundleHw, r.neFormat)) *
                      static_cast<double>(r.peakTiles);
  r.roofOpsPerCycle =
      r.ddrBytes ? std::min(r.peakOpsPerCycle, r.intensity * static_cast<double>(data.ddrBytesPerCycle))
                 : r.peakOpsPerCycle;
  uint64_t busiest = 0;
  for (auto [e, c] : llvm::enumerate(t.engineCycles))
    if (c > busiest) {
      busiest = c;
      r.busiestEngine = trace.engines[e];
    }
}

/// The manifest's "ddr" and the bundle's inputs and outputs.
ReportData::Ddr ddrUseOf(const BundleInfo &bundle, const json::Object &manifest) {
  ReportData::Ddr d;
  if (const json::Object *ddr = manifest.getObject("ddr")) {
    d.bytes = ddr->getInteger("bytes").value_or(0);
    d.constBytes = ddr->getInteger("const_bytes").value_or(0);
    d.intermediates = ddr->getInteger("intermediates").value_or(0);
    d.intermediateBytes = ddr->getInteger("intermediate_bytes").value_or(0);
  }
  for (const BundleInfo::IO &io : bundle.inputs)
    d.inputBytes += static_cast<int64_t>(io.bytes);
  for (const BundleInfo::IO &io : bundle.outputs)
    d.outputBytes += static_cast<int64_t>(io.bytes);
  d.chipBytes = bundle.hw.ddr_bytes;
  return d;
}

} // namespace

Status tx8be::buildReportData(const BundleInfo &bundle, const json::Object &manifest, const TraceSummary &trace,
                              ReportData &data) {
  int64_t bundleTiles = manifest.getInteger("tiles").value_or(1);
  // A trace may cover the tiles the bundle runs on or the whole chip (the others idle).
  if (trace.tiles != bundleTiles && trace.tiles != static_cast<int64_t>(bundle.hw.tile_count))
    return Status::error(trace.name + ": a trace of " + std::to_string(trace.tiles) + " tiles, but bundle " +
                         bundle.dir + " runs on " + std::to_string(bundleTiles) + " (of the chip's " +
                         std::to_string(bundle.hw.tile_count) + "): not a trace of this bundle");
  data = ReportData();
  data.model = !bundle.modelName.empty() ? bundle.modelName : trace.model;
  data.target = !trace.target.empty() ? trace.target : bundle.target;
  data.precision = bundle.precision;
  data.tiles = trace.tiles;
  data.chipTiles = bundle.hw.tile_count;
  data.cycles = trace.cycles;
  data.clockMhz = trace.clockMhz ? trace.clockMhz : bundle.hw.clock_mhz;
  data.macs = trace.macs;
  data.neFormat = mainFormat(trace.macsByFormat, bundle.precision);
  data.neMacsPerCycle = neMacsPerCycle(bundle.hw, data.neFormat);
  data.ddrBytesPerCycle = bundle.hw.ddr_bytes_per_cycle;
  data.spmBytes = static_cast<int64_t>(bundle.hw.spm_bytes);
  double peak = static_cast<double>(data.cycles) * static_cast<double>(data.chipTiles) *
                static_cast<double>(data.neMacsPerCycle);
  data.chipPeakUtilisation = peak > 0 ? static_cast<double>(data.macs) / peak : 0;

  const json::Array *groups = manifest.getArray("groups");
  std::map<int64_t, size_t> byIndex;
  for (size_t i = 0; groups && i < groups->size(); ++i)
    if (const json::Object *g = (*groups)[i].getAsObject()) {
      data.groups.push_back(planOf(*g, i));
      byIndex[data.groups.back().index] = data.groups.size() - 1;
    }
  for (const auto &[index, t] : trace.groups) {
    auto it = byIndex.find(index);
    if (it == byIndex.end())
      return Status::error(trace.name + ": group " + std::to_string(index) + " is not a group of bundle " +
                           bundle.dir + " (it has " + std::to_string(data.groups.size()) +
                           "): not a trace of this bundle");
    addTrace(data.groups[it->second], t, trace, data, bundle.hw);
  }
  for (size_t i = 0; i < data.groups.size(); ++i)
    if (data.groups[i].inTrace && !data.groups[i].view)
      data.top.push_back(i);
  llvm::stable_sort(data.top, [&](size_t a, size_t b) { return data.groups[a].cycles > data.groups[b].cycles; });
  if (data.top.size() > 10)
    data.top.resize(10);

  // The tiles the bundle runs on, and any other of the trace's that did work.
  size_t shown = static_cast<size_t>(std::min(trace.tiles, trace.chipTiles));
  for (size_t t = shown; t < trace.engineBusy.size(); ++t)
    if (llvm::any_of(trace.engineBusy[t], [](uint64_t c) { return c > 0; }))
      shown = t + 1;
  data.engines = trace.engines;
  data.engineBusy.assign(trace.engineBusy.begin(), trace.engineBusy.begin() + std::min(shown, trace.engineBusy.size()));
  data.barrierCycles.assign(trace.barrierCycles.begin(),
                            trace.barrierCycles.begin() + std::min(shown, trace.barrierCycles.size()));
  data.spm.assign(trace.spm.begin(), trace.spm.begin() + std::min(shown, trace.spm.size()));
  data.ddr = trace.ddrBytesPerCycle;
  data.ddrFromCounter = trace.ddrFromCounter;
  data.ddrUse = ddrUseOf(bundle, manifest);
  data.slices = trace.slices;
  return Status();
}

Status tx8be::writeReport(const BundleInfo &bundle, const json::Object &manifest, const json::Object &trace,
                          llvm::raw_ostream &os) {
  TraceSummary summary;
  if (Status s = summarizeTrace(trace, "the trace", summary); !s.ok())
    return s;
  ReportData data;
  if (Status s = buildReportData(bundle, manifest, summary, data); !s.ok())
    return s;
  printReportHtml(data, os);
  return Status();
}

Status tx8be::readBundleManifest(const BundleInfo &bundle, json::Value &manifest) {
  std::string path = bundle.dir + "/manifest.json", text;
  if (Status s = tx8::ref::readBoundedFile(path, tx8::ref::kMaxTextFileBytes, "the manifest", text); !s.ok())
    return s;
  if (Status s = tx8::ref::checkJsonDepth(text, path + ": corrupt manifest"); !s.ok())
    return s;
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return Status::error(path + ": corrupt manifest (not valid JSON: " + llvm::toString(parsed.takeError()) + ")");
  if (!parsed->getAsObject())
    return Status::error(path + ": corrupt manifest (not a JSON object)");
  manifest = std::move(*parsed);
  return Status();
}
