//===- TraceTest.cpp - The binary trace reader and its Perfetto JSON ------===//
#include "tx8/Driver/Trace.h"
#include "tx8/isa.h"
#include "tx8/trace_format.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace tx8be;

namespace {

void put32(std::string &s, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    s.push_back(static_cast<char>(v >> (8 * i)));
}
void put64(std::string &s, uint64_t v) {
  put32(s, static_cast<uint32_t>(v));
  put32(s, static_cast<uint32_t>(v >> 32));
}

std::string header(uint32_t tiles) {
  std::string s(TX8_TRACE_MAGIC, 8);
  put32(s, TX8_TRACE_VERSION), put32(s, tiles), put32(s, kTraceEngines), put32(s, TX8_TRACE_RECORD_BYTES);
  return s;
}

void record(std::string &s, const TraceRecord &r) {
  put32(s, r.kind), put32(s, r.tile), put32(s, r.engine), put32(s, r.op), put32(s, r.tag), put32(s, r.flags);
  put64(s, r.start), put64(s, r.ready), put64(s, r.end), put64(s, r.bytes), put64(s, r.macs);
  for (uint32_t d : r.dims)
    put32(s, d);
}

TraceRecord rec(uint32_t kind, uint32_t tile, uint32_t engine, uint64_t start, uint64_t end, uint32_t tag = 0) {
  TraceRecord r;
  r.kind = kind, r.tile = tile, r.engine = engine, r.start = start, r.ready = start, r.end = end, r.tag = tag;
  return r;
}

/// Two tiles: group 0 then group 1 on each, a load of 1000 bytes flowing over cycles [10, 20) on tile 0, a
/// GEMM on tile 1, a barrier wait; the end at cycle 100.
std::string sampleTrace() {
  std::string s = header(2);
  record(s, rec(TX8_TRACE_MARK, 0, 0, 0, 0, 1));
  record(s, rec(TX8_TRACE_MARK, 1, 0, 0, 0, 1));
  TraceRecord load = rec(TX8_TRACE_INSTR, 0, I_RDMA, 5, 20, 1);
  load.ready = 10, load.bytes = 1000;
  record(s, load);
  TraceRecord gemm = rec(TX8_TRACE_INSTR, 1, I_NEUR, 0, 40, 1);
  gemm.macs = 4096, gemm.dims[0] = 16, gemm.dims[1] = 16, gemm.dims[2] = 16;
  record(s, gemm);
  record(s, rec(TX8_TRACE_BARRIER, 0, 0, 20, 50));
  record(s, rec(TX8_TRACE_MARK, 0, 0, 50, 50, 2));
  record(s, rec(TX8_TRACE_MARK, 1, 0, 50, 50, 2));
  record(s, rec(TX8_TRACE_BUSY, 0, I_RDMA, 15, 0));
  record(s, rec(TX8_TRACE_BUSY, 1, I_NEUR, 40, 0));
  record(s, rec(TX8_TRACE_END, 0, 0, 100, 0));
  return s;
}

std::string parseError(const std::string &bytes) {
  TraceData t;
  tx8::ref::Status s = parseTrace(bytes, "t.bin", t);
  return s.ok() ? std::string("ok") : s.message();
}

TEST(Trace, ReadsRecordsBusyAndEnd) {
  TraceData t;
  ASSERT_TRUE(parseTrace(sampleTrace(), "t.bin", t).ok());
  EXPECT_EQ(t.tiles, 2u);
  EXPECT_EQ(t.events.size(), 7u);
  EXPECT_EQ(t.cycles, 100u);
  EXPECT_EQ(t.busy[0][I_RDMA], 15u);
  EXPECT_EQ(t.busy[1][I_NEUR], 40u);
}

TEST(Trace, RefusesMalformedTraces) {
  EXPECT_NE(parseError("not a trace at all, no").find("not a tx8 trace"), std::string::npos);
  std::string s = sampleTrace();
  EXPECT_NE(parseError(s.substr(0, s.size() - 3)).find("truncated"), std::string::npos);
  EXPECT_NE(parseError(s.substr(0, s.size() - TX8_TRACE_RECORD_BYTES)).find("no end record"), std::string::npos);
  std::string badTile = header(2);
  record(badTile, rec(TX8_TRACE_INSTR, 5, I_CGRA, 0, 1));
  EXPECT_NE(parseError(badTile).find("names tile 5"), std::string::npos);
  std::string backwards = header(2);
  record(backwards, rec(TX8_TRACE_INSTR, 0, I_CGRA, 9, 3));
  EXPECT_NE(parseError(backwards).find("ends before it starts"), std::string::npos);
  std::string late = header(1);
  record(late, rec(TX8_TRACE_INSTR, 0, I_CGRA, 0, 200));
  record(late, rec(TX8_TRACE_END, 0, 0, 100, 0));
  EXPECT_NE(parseError(late).find("after the run's end"), std::string::npos);
  std::string version = sampleTrace();
  version[8] = 9;
  EXPECT_NE(parseError(version).find("trace version 9"), std::string::npos);
}

TEST(Trace, JsonHasGroupsCountersAndTracks) {
  TraceData t;
  ASSERT_TRUE(parseTrace(sampleTrace(), "t.bin", t).ok());
  BundleInfo bundle;
  bundle.modelName = "m</script>";
  bundle.tiles = 2;
  bundle.groups = {{"conv+relu", {"conv1", "relu1"}, 2, 4096, 45}, {"matmul", {"fc"}, 2, 1024, 40}};
  std::string text;
  llvm::raw_string_ostream os(text);
  writeTraceJson(t, bundle, "cmodel", os);
  llvm::Expected<llvm::json::Value> json = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(json)) << llvm::toString(json.takeError());
  const llvm::json::Object &root = *json->getAsObject();
  EXPECT_EQ(root.getObject("otherData")->getString("model"), llvm::StringRef("m</script>"));
  int groupSlices = 0, loads = 0;
  double ddrBytes = 0, lastTs = 0, lastRate = 0;
  for (const llvm::json::Value &v : *root.getArray("traceEvents")) {
    const llvm::json::Object &e = *v.getAsObject();
    const llvm::json::Object *args = e.getObject("args");
    if (e.getString("cat") == llvm::StringRef("group")) {
      ++groupSlices;
      const int64_t g = *args->getInteger("group");
      EXPECT_EQ(*args->getInteger("cycles"), g == 0 ? 50 : 50); // [0, 50) and [50, 100)
      EXPECT_EQ(args->getString("nodes"), llvm::StringRef(g == 0 ? "conv1,relu1" : "fc"));
    }
    if (e.getString("name") == llvm::StringRef("RDMA load (conv1)")) {
      ++loads;
      EXPECT_EQ(*args->getInteger("bytes"), 1000);
      EXPECT_EQ(*args->getInteger("latency_cycles"), 5);
      EXPECT_EQ(args->getString("nodes"), llvm::StringRef("conv1,relu1"));
    }
    if (e.getString("name") == llvm::StringRef("DDR bandwidth")) {
      const double ts = *e.getNumber("ts") * 1000; // cycles at 1000 MHz
      ddrBytes += lastRate * (ts - lastTs);
      lastTs = ts, lastRate = *args->getNumber("bytes_per_cycle");
    }
  }
  ddrBytes += lastRate * (100 - lastTs);
  EXPECT_EQ(groupSlices, 4); // two groups on each of two tiles
  EXPECT_EQ(loads, 1);
  EXPECT_NEAR(ddrBytes, 1000.0, 1e-6); // the load's bytes, spread over the cycles they flowed
}

} // namespace
