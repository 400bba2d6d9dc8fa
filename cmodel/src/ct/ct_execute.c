/*
 * CT engine entry: validates the whole instruction (enums, function/format/opcode combination, formats, counts,
 * every operand's SPM range, aliasing) before touching memory, then runs the family and returns
 * cm_cycles_ct() cycles.
 *
 * Aliasing contract: dst may be exactly a source that is read element-by-element at dst's index (same start
 * address, same element size): src0 of V/V_V/V_S/VuV/VuV_LOOP/CMP, src1 of V_V/CMP V_V, src2 of an FMA V_V, any
 * operand of SELECT (the mask only when its element size is the data's).
 * Any other overlap of dst with a source (partial overlap, the VuV unit vector, REDUCE and POOL input, CONVERT
 * between sizes) is rejected with CM_ERR_FIELD. Sources may overlap each other freely.
 */
#include <stdio.h>

#include "ct_internal.h"
#include "tx8/cm_cycles.h"

#define CT_FUNC_COUNT 7u
#define CT_FMT_COUNT 8u

static const char *const kFuncNames[CT_FUNC_COUNT] = {"ARITH",  "UNARY",   "REDUCE", "CMP",
                                                      "SELECT", "CONVERT", "POOL"};
static const char *const kFmtNames[CT_FMT_COUNT] = {"V",     "V_V",          "V_S",          "V_VuV",
                                                     "V_VuV_LOOP", "REDUCE_INNER", "REDUCE_OUTER", "POOL_2D"};

static uint32_t function_of(uint32_t op) {
    if (op == CT_OP_POW || op == CT_OP_MOD || op == CT_OP_FMOD || op == CT_OP_FMA)
        return CT_FUNC_ARITH; /* the appended ones first */
    if (op >= CT_OP_LOG && op <= CT_OP_SIGN) return CT_FUNC_UNARY;
    if (op <= CT_OP_MIN) return CT_FUNC_ARITH;
    if (op <= CT_OP_SILU) return CT_FUNC_UNARY;
    if (op <= CT_OP_REDUCE_MIN) return CT_FUNC_REDUCE;
    if (op <= CT_OP_CMP_GE) return CT_FUNC_CMP;
    if (op == CT_OP_SELECT) return CT_FUNC_SELECT;
    if (op == CT_OP_CONVERT) return CT_FUNC_CONVERT;
    return CT_FUNC_POOL;
}

/* Formats each function takes, as a bit set over CT_FORMAT, and their names for the message. */
static uint32_t formats_of(uint32_t func, const char **names) {
    switch (func) {
    case CT_FUNC_ARITH:
    case CT_FUNC_CMP:
        *names = "V_V, V_S, V_VuV or V_VuV_LOOP";
        return 1u << CT_FMT_V_V | 1u << CT_FMT_V_S | 1u << CT_FMT_V_VuV | 1u << CT_FMT_V_VuV_LOOP;
    case CT_FUNC_REDUCE: *names = "REDUCE_INNER or REDUCE_OUTER"; return 1u << CT_FMT_REDUCE_INNER | 1u << CT_FMT_REDUCE_OUTER;
    case CT_FUNC_SELECT: *names = "V_V"; return 1u << CT_FMT_V_V;
    case CT_FUNC_POOL: *names = "POOL_2D"; return 1u << CT_FMT_POOL_2D;
    default: *names = "V"; return 1u << CT_FMT_V; /* UNARY, CONVERT */
    }
}

/* Ops only defined on float formats: unary ops except abs, neg, relu; pooling; fma. */
static int needs_float(uint32_t op) {
    const uint32_t f = function_of(op);
    return (f == CT_FUNC_UNARY && op != CT_OP_ABS && op != CT_OP_NEG && op != CT_OP_RELU) || f == CT_FUNC_POOL ||
           op == CT_OP_FMA;
}

typedef enum { RD_ELEM, RD_OTHER } read_kind; /* RD_ELEM: element i read only to produce dst element i */

typedef struct operand {
    const char *field;
    uint64_t addr, bytes;
    uint32_t elem_bytes;
    read_kind kind;
    uint8_t *ptr;
} operand;

static uint64_t span_bytes(uint64_t elems, uint32_t eb) { return elems > UINT64_MAX / eb ? UINT64_MAX : elems * eb; }
static uint64_t mul_sat(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }

/* POOL_2D geometry ranges (tx8/isa.h, Ncc_CT_GR_Pool_Regs). 16-bit extents keep every tap coordinate and the
 * counts well inside int64/double. */
static cm_status check_pool(const Ncc_CT_GR_Pool_Regs *g, const char *name, cm_error *err) {
    const struct { const char *field; uint32_t v, lo, hi; } f[] = {
        {"in_h", g->in_h, 1, 65535},           {"in_w", g->in_w, 1, 65535},
        {"out_h", g->out_h, 1, 65535},         {"out_w", g->out_w, 1, 65535},
        {"kernel_h", g->kernel_h, 1, 65535},   {"kernel_w", g->kernel_w, 1, 65535},
        {"stride_h", g->stride_h, 1, 65535},   {"stride_w", g->stride_w, 1, 65535},
        {"dilation_h", g->dilation_h, 1, 65535}, {"dilation_w", g->dilation_w, 1, 65535},
        {"pad_top", g->pad_top, 0, 65535},     {"pad_left", g->pad_left, 0, 65535},
        {"pad_bottom", g->pad_bottom, 0, 65535}, {"pad_right", g->pad_right, 0, 65535},
        {"count_include_pad", g->count_include_pad, 0, 1},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i)
        if (f[i].v < f[i].lo || f[i].v > f[i].hi)
            return cm_fail(err, CM_ERR_FIELD, "%s: pool.%s = %u, must be %u..%u", name, f[i].field, f[i].v, f[i].lo,
                           f[i].hi);
    return CM_OK;
}

cm_status cm_ct_execute(cm_chip *chip, uint32_t tile, const CT_Param *p, cm_cost *cost, cm_error *err) {
    const Ncc_CT_GR_Ctl_Regs *c = &p->ctrl;
    const Ncc_CT_GR_Param_Regs *q = &p->param;
    char name[64];

    /* ---- enums and their combination ---- */
    if (c->opcode >= CT_OP_COUNT)
        return cm_fail(err, CM_ERR_FIELD, "CT: opcode = %u is not a CT_OPCODE", c->opcode);
    const char *opname = tx8_ct_opcode_name(c->opcode);
    if (c->format >= CT_FMT_COUNT)
        return cm_fail(err, CM_ERR_FIELD, "CT %s: format = %u is not a CT_FORMAT", opname, c->format);
    snprintf(name, sizeof name, "CT %s %s", opname, kFmtNames[c->format]);
    if (c->function >= CT_FUNC_COUNT)
        return cm_fail(err, CM_ERR_FIELD, "%s: function = %u is not a CT_FUNCTION", name, c->function);
    if (function_of(c->opcode) != c->function)
        return cm_fail(err, CM_ERR_FIELD, "%s: function = %s, but opcode %s belongs to function %s", name,
                       kFuncNames[c->function], opname, kFuncNames[function_of(c->opcode)]);
    const char *legal;
    if (!(formats_of(c->function, &legal) >> c->format & 1u))
        return cm_fail(err, CM_ERR_FIELD, "%s: format = %s is not valid for function %s (takes %s)", name,
                       kFmtNames[c->format], kFuncNames[c->function], legal);
    if (c->src_fmt >= Fmt_COUNT)
        return cm_fail(err, CM_ERR_FIELD, "%s: src_fmt = %u is not a Data_Format", name, c->src_fmt);
    if (c->dst_fmt >= Fmt_COUNT)
        return cm_fail(err, CM_ERR_FIELD, "%s: dst_fmt = %u is not a Data_Format", name, c->dst_fmt);
    if (c->rnd >= RND_COUNT) return cm_fail(err, CM_ERR_FIELD, "%s: rnd = %u is not a RND_MODE", name, c->rnd);
    const Data_Format sf = (Data_Format)c->src_fmt, df = (Data_Format)c->dst_fmt;
    /* CONVERT and SELECT (mask format vs data format) take any pair; CMP may write its mask as int8; FMA may take
     * fp32 coefficients (src_fmt) for fp16 / bf16 / tf32 data (dst_fmt) */
    if (sf != df && c->opcode == CT_OP_FMA &&
        !(sf == Fmt_FP32 && (df == Fmt_FP16 || df == Fmt_BF16 || df == Fmt_TF32)))
        return cm_fail(err, CM_ERR_FIELD,
                       "%s: dst_fmt = %s differs from src_fmt = %s (an fma's coefficients, src_fmt, are in dst_fmt, "
                       "or fp32 for fp16, bf16 or tf32 data)", name, tx8_format_name(df), tx8_format_name(sf));
    if (sf != df && c->function != CT_FUNC_CONVERT && c->function != CT_FUNC_SELECT &&
        !(c->function == CT_FUNC_CMP && df == Fmt_INT8) && c->opcode != CT_OP_FMA)
        return cm_fail(err, CM_ERR_FIELD,
                       "%s: dst_fmt = %s differs from src_fmt = %s (only convert, select and a cmp to an int8 mask "
                       "change format)", name, tx8_format_name(df), tx8_format_name(sf));
    if ((sf == Fmt_INT64 && c->function != CT_FUNC_CONVERT) ||
        (df == Fmt_INT64 && c->function != CT_FUNC_CONVERT && c->function != CT_FUNC_SELECT))
        return cm_fail(err, CM_ERR_UNSUPPORTED,
                       "%s: %s = int64 is not supported: int64 is a storage format (only CONVERT takes it, as src_fmt "
                       "or dst_fmt, and SELECT as its data, dst_fmt)", name, sf == Fmt_INT64 ? "src_fmt" : "dst_fmt");
    if (needs_float(c->opcode) && !tx8_format_is_float(sf))
        return cm_fail(err, CM_ERR_UNSUPPORTED, "%s: src_fmt = %s is not supported (fp32, fp16, bf16 or tf32 only)",
                       name, tx8_format_name(sf));

    /* ---- counts (elements) ---- */
    const uint64_t n = q->src_elem_num;
    if (n == 0) return cm_fail(err, CM_ERR_FIELD, "%s: src_elem_num = 0, must be > 0", name);
    uint64_t passes = 1;
    if (c->format == CT_FMT_V_VuV || c->format == CT_FMT_V_VuV_LOOP) {
        const uint32_t u = q->unit_elem_num;
        if (c->format == CT_FMT_V_VuV_LOOP && u != 64)
            return cm_fail(err, CM_ERR_FIELD, "%s: unit_elem_num = %u, must be 64", name, u);
        if (u == 0) return cm_fail(err, CM_ERR_FIELD, "%s: unit_elem_num = 0, must be > 0", name);
        if (n % u != 0)
            return cm_fail(err, CM_ERR_FIELD, "%s: src_elem_num = %u is not a multiple of unit_elem_num = %u", name,
                           q->src_elem_num, u);
        if (c->format == CT_FMT_V_VuV_LOOP) {
            if (q->full_unit_elem_num == 0 || q->full_unit_elem_num % u != 0)
                return cm_fail(err, CM_ERR_FIELD,
                               "%s: full_unit_elem_num = %u is not a non-zero multiple of unit_elem_num = %u", name,
                               q->full_unit_elem_num, u);
            passes = q->full_unit_elem_num / u;
            if ((uint64_t)q->full_src_elem_num != passes * n)
                return cm_fail(err, CM_ERR_FIELD,
                               "%s: full_src_elem_num = %u, must be %llu so that full_src/full_unit == src/unit "
                               "(src_elem_num = %u, unit_elem_num = %u, full_unit_elem_num = %u)",
                               name, q->full_src_elem_num, (unsigned long long)(passes * n), q->src_elem_num, u,
                               q->full_unit_elem_num);
        }
    }
    if ((c->format == CT_FMT_REDUCE_INNER || c->format == CT_FMT_REDUCE_OUTER || c->format == CT_FMT_POOL_2D) &&
        q->outer_num == 0)
        return cm_fail(err, CM_ERR_FIELD, "%s: outer_num = 0, must be > 0", name);
    if (c->format == CT_FMT_POOL_2D) {
        const cm_status st = check_pool(&p->param.pool, name, err);
        if (st != CM_OK) return st;
    }

    /* ---- operands: element counts per role ---- */
    const uint32_t sb = tx8_format_bytes(sf), db = tx8_format_bytes(df);
    operand src[3];
    int nsrc = 0;
    uint64_t dst_elems = n;
    switch (c->format) {
    case CT_FMT_V:
    case CT_FMT_V_S: src[nsrc++] = (operand){"src0_addr", q->src0_addr, span_bytes(n, sb), sb, RD_ELEM, NULL}; break;
    case CT_FMT_V_V:
        src[nsrc++] = (operand){"src0_addr", q->src0_addr, span_bytes(n, sb), sb, RD_ELEM, NULL};
        src[nsrc++] = (operand){"src1_addr", q->src1_addr, span_bytes(n, sb), sb, RD_ELEM, NULL};
        if (c->function == CT_FUNC_SELECT) { /* src1, src2 hold the data: dst_fmt */
            src[nsrc - 1] = (operand){"src1_addr", q->src1_addr, span_bytes(n, db), db, RD_ELEM, NULL};
            src[nsrc++] = (operand){"src2_addr", q->src2_addr, span_bytes(n, db), db, RD_ELEM, NULL};
        }
        if (c->opcode == CT_OP_FMA) /* the addend, in src_fmt */
            src[nsrc++] = (operand){"src2_addr", q->src2_addr, span_bytes(n, sb), sb, RD_ELEM, NULL};
        break;
    case CT_FMT_V_VuV:
    case CT_FMT_V_VuV_LOOP:
        dst_elems = passes * n;
        src[nsrc++] = (operand){"src0_addr", q->src0_addr, span_bytes(dst_elems, sb), sb, RD_ELEM, NULL};
        src[nsrc++] = (operand){"src1_addr", q->src1_addr, span_bytes(passes * q->unit_elem_num, sb), sb, RD_OTHER, NULL};
        if (c->opcode == CT_OP_FMA) /* the addend's unit vector */
            src[nsrc++] = (operand){"src2_addr", q->src2_addr, span_bytes(passes * q->unit_elem_num, sb), sb, RD_OTHER,
                                    NULL};
        break;
    case CT_FMT_POOL_2D: {
        const Ncc_CT_GR_Pool_Regs *g = &p->param.pool;
        const uint64_t planes = mul_sat(q->outer_num, n); /* images x channels */
        src[nsrc++] = (operand){"src0_addr", q->src0_addr,
                                span_bytes(mul_sat(planes, (uint64_t)g->in_h * g->in_w), sb), sb, RD_OTHER, NULL};
        dst_elems = mul_sat(planes, (uint64_t)g->out_h * g->out_w);
        break;
    }
    default: /* REDUCE_INNER / REDUCE_OUTER */
        src[nsrc++] = (operand){"src0_addr", q->src0_addr, span_bytes((uint64_t)q->outer_num * n, sb), sb, RD_OTHER, NULL};
        dst_elems = c->format == CT_FMT_REDUCE_INNER ? q->outer_num : n;
        break;
    }
    if (c->opcode == CT_OP_FMA) { /* src0 holds the data: dst_fmt */
        src[0].elem_bytes = db;
        src[0].bytes = span_bytes(dst_elems, db);
    }
    operand dst = {"dst_addr", q->dst_addr, span_bytes(dst_elems, db), db, RD_ELEM, NULL};

    /* ---- SPM ranges, then aliasing ---- */
    for (int i = 0; i < nsrc; ++i) {
        src[i].ptr = cm_spm_span(chip, tile, src[i].addr, src[i].bytes, name, src[i].field, err);
        if (!src[i].ptr) return err ? err->code : CM_ERR_ADDRESS;
    }
    dst.ptr = cm_spm_span(chip, tile, dst.addr, dst.bytes, name, dst.field, err);
    if (!dst.ptr) return err ? err->code : CM_ERR_ADDRESS;
    for (int i = 0; i < nsrc; ++i) {
        const operand *s = &src[i];
        if (s->addr >= dst.addr + dst.bytes || dst.addr >= s->addr + s->bytes) continue; /* disjoint */
        if (s->kind == RD_ELEM && s->addr == dst.addr && s->elem_bytes == dst.elem_bytes) continue; /* in place */
        return cm_fail(err, CM_ERR_FIELD,
                       "%s: dst_addr range [0x%llx, 0x%llx) overlaps %s range [0x%llx, 0x%llx); only exact in-place "
                       "use of an elementwise source (same address, same element size) is supported",
                       name, (unsigned long long)dst.addr, (unsigned long long)(dst.addr + dst.bytes), s->field,
                       (unsigned long long)s->addr, (unsigned long long)(s->addr + s->bytes));
    }

    /* ---- run ---- */
    ct_job j;
    j.p = p;
    j.op = c->opcode;
    j.sf = sf;
    j.df = df;
    j.rnd = (RND_MODE)c->rnd;
    j.sb = sb;
    j.db = db;
    j.src0 = src[0].ptr;
    j.src1 = nsrc > 1 ? src[1].ptr : NULL;
    j.src2 = nsrc > 2 ? src[2].ptr : NULL;
    j.dst = dst.ptr;
    switch (c->function) {
    case CT_FUNC_ARITH: c->opcode == CT_OP_FMA ? ct_fma_run(&j) : ct_arith_run(&j); break;
    case CT_FUNC_UNARY: ct_unary_run(&j); break;
    case CT_FUNC_REDUCE: ct_reduce_run(&j); break;
    case CT_FUNC_CMP: ct_cmp_run(&j); break;
    case CT_FUNC_SELECT: ct_select_run(&j); break;
    case CT_FUNC_POOL: ct_pool_run(&j); break;
    default: ct_convert_run(&j); break;
    }
    cm_cost_init(cost, I_CGRA);
    cost->fixed_cycles = cm_cycles_ct(&chip->cfg, p);
    cost->op = c->opcode;
    cost->dims[0] = c->format == CT_FMT_V_VuV_LOOP ? p->param.full_src_elem_num : p->param.src_elem_num;
    cost->dims[1] = c->src_fmt, cost->dims[2] = c->dst_fmt, cost->dims[3] = c->format;
    for (int i = 0; i < nsrc; ++i) cm_cost_span(cost, CM_MEM_SPM(tile), 0, src[i].addr, src[i].bytes);
    cm_cost_span(cost, CM_MEM_SPM(tile), 1, dst.addr, dst.bytes);
    return CM_OK;
}
