/*
 * Traces (tx8/hal.h "traces"), shared by both backends: the chip model's trace sink buffers records in the format
 * of tx8/trace_format.h and writes them with C stdio (semihosted files on RISC-V). One trace at a time per
 * program, like the one chip a firmware opens: the writer's state is this file's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_access.h"
#include "tx8/trace_format.h"

enum { BUFFER_BYTES = 1 << 16, ENGINES = 8 };

typedef char kinds_match[(TX8_TRACE_INSTR == CM_TRACE_INSTR && TX8_TRACE_MARK == CM_TRACE_MARK &&
                          TX8_TRACE_BARRIER == CM_TRACE_BARRIER && TX8_TRACE_FROM_DDR == CM_TRACE_FROM_DDR)
                             ? 1
                             : -1];

typedef struct trace_writer {
    FILE *file;
    cm_chip *chip;
    uint32_t tiles;
    uint8_t *buf;
    size_t used;
    int failed;
    uint64_t *busy0; /* [tiles][ENGINES]: busy cycles when the trace began */
} trace_writer;

static trace_writer g_trace;

static void flush(trace_writer *w) {
    if (w->used && !w->failed && fwrite(w->buf, 1, w->used, w->file) != w->used) w->failed = 1;
    w->used = 0;
}

static uint8_t *put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; ++i) *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static uint8_t *put64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; ++i) *p++ = (uint8_t)(v >> (8 * i));
    return p;
}

static void put_record(trace_writer *w, const cm_trace_event *e) {
    if (w->used + TX8_TRACE_RECORD_BYTES > BUFFER_BYTES) flush(w);
    uint8_t *p = w->buf + w->used;
    p = put32(p, e->kind), p = put32(p, e->tile), p = put32(p, e->engine), p = put32(p, e->op);
    p = put32(p, e->tag), p = put32(p, e->flags);
    p = put64(p, e->start), p = put64(p, e->ready), p = put64(p, e->end), p = put64(p, e->bytes);
    p = put64(p, e->macs);
    for (int i = 0; i < 4; ++i) p = put32(p, e->dims[i]);
    w->used += TX8_TRACE_RECORD_BYTES;
}

static void on_event(void *ctx, const cm_trace_event *ev) { put_record((trace_writer *)ctx, ev); }

int tx8_hal_trace_begin(const char *path) {
    trace_writer *w = &g_trace;
    FILE *asked = fopen(path, "rb");
    if (!asked) return 0;
    fclose(asked);
    if (w->file) {
        tx8_hal_printf("tx8 hal: a trace is already being written\n");
        return -1;
    }
    uint32_t tile;
    cm_chip *chip = tx8_hal_backend_chip(&tile);
    tx8_hal_wait_all(); /* what ran before the trace stays out of it */
    const uint32_t tiles = cm_chip_config(chip)->tile_count;
    *w = (trace_writer){fopen(path, "wb"), chip, tiles, (uint8_t *)malloc(BUFFER_BYTES), 0, 0,
                        (uint64_t *)calloc((size_t)tiles * ENGINES, sizeof(uint64_t))};
    if (!w->file || !w->buf || !w->busy0) {
        tx8_hal_printf("tx8 hal: cannot write the trace '%s'\n", path);
        if (w->file) fclose(w->file);
        free(w->buf), free(w->busy0);
        memset(w, 0, sizeof *w);
        return -1;
    }
    for (uint32_t t = 0; t < tiles; ++t)
        for (uint32_t e = 0; e < ENGINES; ++e) w->busy0[t * ENGINES + e] = cm_engine_busy_cycles(chip, t, e);
    memcpy(w->buf, TX8_TRACE_MAGIC, 8);
    uint8_t *p = put32(w->buf + 8, TX8_TRACE_VERSION);
    p = put32(p, tiles), p = put32(p, ENGINES), put32(p, TX8_TRACE_RECORD_BYTES);
    w->used = TX8_TRACE_HEADER_BYTES;
    const cm_trace_sink sink = {on_event, w};
    cm_chip_set_trace(chip, &sink);
    return 1;
}

void tx8_hal_trace_mark(uint32_t tag) {
    uint32_t tile;
    cm_chip *chip = tx8_hal_backend_chip(&tile);
    cm_error err = {CM_OK, ""};
    if (cm_trace_mark(chip, tile, tag, &err) != CM_OK) tx8_hal_backend_fault(err.message);
}

int tx8_hal_trace_end(void) {
    trace_writer *w = &g_trace;
    if (!w->file) return 0;
    tx8_hal_wait_all(); /* tile 0's last instructions report now */
    cm_chip_set_trace(w->chip, NULL);
    for (uint32_t t = 0; t < w->tiles; ++t)
        for (uint32_t e = 0; e < ENGINES; ++e) {
            const uint64_t busy = cm_engine_busy_cycles(w->chip, t, e) - w->busy0[t * ENGINES + e];
            const cm_trace_event ev = {TX8_TRACE_BUSY, t, e, 0, 0, 0, busy, 0, 0, 0, 0, {0, 0, 0, 0}};
            put_record(w, &ev);
        }
    const cm_trace_event end = {TX8_TRACE_END, 0, 0, 0, 0, 0, cm_tile_cycles(w->chip, 0), 0, 0, 0, 0, {0, 0, 0, 0}};
    put_record(w, &end);
    flush(w);
    int rc = w->failed || fclose(w->file) != 0 ? -1 : 0;
    if (rc) tx8_hal_printf("tx8 hal: writing the trace failed\n");
    free(w->buf), free(w->busy0);
    memset(w, 0, sizeof *w);
    return rc;
}
