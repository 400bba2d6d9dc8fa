/*
 * The binary trace a bundle writes when asked (tx8_hal_trace_begin): what the chip model reported, record by
 * record, for tx8-aot to turn into a Chrome / Perfetto trace. Both backends write the same bytes for the same run.
 *
 * All integers little-endian. A header, then fixed-size records in the order the scheduler reported them (each
 * tile's instructions by completion, not by start):
 *   header  (24 bytes): magic "TX8TRACE", u32 version, u32 tiles (the chip's), u32 engines, u32 record bytes
 *   record  (80 bytes): u32 kind, tile, engine, op, tag, flags; u64 start, ready, end, bytes, macs; u32 dims[4]
 * kinds 1-3 are cm_trace_kind (tx8/cmodel.h: instruction, mark, barrier wait; times in cycles), then
 *   TX8_TRACE_BUSY  one per tile and engine at the end: `start` = the engine's busy cycles (cm_engine_busy_cycles)
 *                   since the trace began;
 *   TX8_TRACE_END   the last record: `start` = the tile 0 time when the trace ended (the run's cycles).
 * A file without its END record is truncated (a run that faulted).
 */
#ifndef TX8_TRACE_FORMAT_H
#define TX8_TRACE_FORMAT_H

#define TX8_TRACE_MAGIC "TX8TRACE"
#define TX8_TRACE_VERSION 1u
#define TX8_TRACE_HEADER_BYTES 24u
#define TX8_TRACE_RECORD_BYTES 80u
/* cm_trace_kind's values (tx8/cmodel.h), for readers that do not link the chip model */
#define TX8_TRACE_INSTR 1u
#define TX8_TRACE_MARK 2u
#define TX8_TRACE_BARRIER 3u
#define TX8_TRACE_FROM_DDR 1u /* flags: CM_TRACE_FROM_DDR */
#define TX8_TRACE_BUSY 16u
#define TX8_TRACE_END 17u
/* The file a runner creates, empty, in the bundle's working directory to ask for a trace (main.c passes it to
 * tx8_hal_trace_begin). */
#define TX8_TRACE_FILE "trace.bin"

#endif /* TX8_TRACE_FORMAT_H */
