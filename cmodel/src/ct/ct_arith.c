/*
 * CT binary arithmetic (add sub mul div max min pow mod fmod) in V_V, V_S, V_VuV and V_VuV_LOOP.
 *
 * Each result is computed in double and rounded once to dst_fmt. For mul/div this is the correctly rounded result
 * in every mode (products of <= 24-bit operands are exact in double; a quotient that is not representable with p
 * bits is at least ~2^-2p away, relatively, from every p-bit number, so double's rounding cannot reach one).
 * add/sub can be inexact in double (operands 2^30+ apart); that is harmless for the nearest modes (the exact sum is
 * then next to an operand, far from a midpoint) but not for the directed ones, so those recover the exact error
 * with TwoSum and nudge the double sum off a representable value (directed_fixup).
 * max/min propagate NaN; on ties (including +0 vs -0) they return the second operand.
 * pow(a, b) is the cmodel's cm_pow (C99 Annex F special values; a negative a with an integer b gives the signed
 * result, with a non-integer b NaN), within an ulp of double, then rounded once like the others.
 * fmod is exact (cm_fmod: the remainder fits every format). mod is fmod plus the divisor where a non-zero remainder
 * has the other sign: an add, exact in double unless the two are 2^29+ apart, rounded once like add (for floats the
 * sum may need more bits than the format has: (1 + 2^-23) mod -4 in fp32), with add's directed-mode correction.
 * Integer formats (int8, uint8, int32) hold exact integers in the doubles; add sub mul max min are exact there (a product
 * past 2^53 is past int32 too, so it saturates alike), div / pow / mod / fmod use the int_* functions below, and
 * the store saturates (tx8/isa.h, "Integers").
 */
#include <string.h>

#include "ct_internal.h"
#include "tx8/cm_numerics.h"

typedef void (*binop_fn)(const double *a, const double *b, double *r, size_t n);

static void op_add(const double *a, const double *b, double *r, size_t n) { for (size_t i = 0; i < n; ++i) r[i] = a[i] + b[i]; }
static void op_sub(const double *a, const double *b, double *r, size_t n) { for (size_t i = 0; i < n; ++i) r[i] = a[i] - b[i]; }
static void op_mul(const double *a, const double *b, double *r, size_t n) { for (size_t i = 0; i < n; ++i) r[i] = a[i] * b[i]; }
static void op_div(const double *a, const double *b, double *r, size_t n) { for (size_t i = 0; i < n; ++i) r[i] = a[i] / b[i]; }
static void op_max(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) r[i] = (a[i] > b[i] || a[i] != a[i]) ? a[i] : b[i];
}
static void op_min(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) r[i] = (a[i] < b[i] || a[i] != a[i]) ? a[i] : b[i];
}
static void op_pow(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) r[i] = cm_pow(a[i], b[i]);
}

static void op_fmod(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) r[i] = cm_fmod(a[i], b[i]);
}
/* Python's %: fmod, then the divisor added once where a non-zero remainder has the other sign (a rounded add); a
 * zero remainder takes the divisor's sign. */
static void op_mod(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const double m = cm_fmod(a[i], b[i]);
        r[i] = m == 0.0 ? (b[i] < 0.0 ? -0.0 : 0.0) : m != m || (m < 0.0) == (b[i] < 0.0) ? m : m + b[i];
    }
}

/* ---- integer formats: operands are exact integers of at most 32 bits (the int32 scalar included) ---- */

static void int_div(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) /* C division truncates; INT32_MIN / -1 = 2^31 saturates on the store */
        r[i] = b[i] == 0.0 ? 0.0 : (double)((int64_t)a[i] / (int64_t)b[i]);
}
static void int_fmod(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) r[i] = b[i] == 0.0 ? 0.0 : (double)((int64_t)a[i] % (int64_t)b[i]);
}
static void int_mod(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        const int64_t x = (int64_t)a[i], y = (int64_t)b[i];
        const int64_t m = y == 0 ? 0 : x % y;
        r[i] = (double)(m != 0 && (m < 0) != (y < 0) ? m + y : m);
    }
}

/* x * y with magnitudes kept at most 2^31: every |v| >= 2^31 saturates alike for int8 and int32, and multiplying
 * by an integer (|y| >= 1, or 0) never brings a magnitude back below 2^31, so the clamp changes no stored result. */
static int64_t clamp31(int64_t v) { return v > (1ll << 31) ? 1ll << 31 : v < -(1ll << 31) ? -(1ll << 31) : v; }

static double int_pow1(int64_t x, int64_t y) {
    if (y < 0) return x == 1 ? 1.0 : x == -1 ? ((y & 1) ? -1.0 : 1.0) : 0.0; /* 1/x^|y| truncated; 0^-y = 0 */
    int64_t acc = 1, base = clamp31(x);
    while (y) { /* square and multiply */
        if (y & 1) acc = clamp31(acc * base);
        y >>= 1;
        if (y) base = clamp31(base * base);
    }
    return (double)acc;
}
static void int_pow(const double *a, const double *b, double *r, size_t n) {
    for (size_t i = 0; i < n; ++i) r[i] = int_pow1((int64_t)a[i], (int64_t)b[i]);
}

static binop_fn binop_for(uint32_t op, int integer) {
    switch (op) {
    case CT_OP_ADD: return op_add;
    case CT_OP_SUB: return op_sub;
    case CT_OP_MUL: return op_mul;
    case CT_OP_DIV: return integer ? int_div : op_div;
    case CT_OP_MAX: return op_max;
    case CT_OP_POW: return integer ? int_pow : op_pow;
    case CT_OP_MOD: return integer ? int_mod : op_mod;
    case CT_OP_FMOD: return integer ? int_fmod : op_fmod;
    default: return op_min;
    }
}

/* s was rounded from the exact a + b*sign; e is the exact remainder. When e != 0 and s is itself a dst value, a
 * directed rounding of s would wrongly return s: move s one double ulp toward the exact value instead (dst values
 * are >= 2^29 double ulps apart, so this lands strictly between s and the next dst value on that side). */
static void directed_fixup(const double *a, const double *b, double sign, double *r, size_t n, Data_Format df) {
    for (size_t i = 0; i < n; ++i) {
        const double s = r[i], bb = sign * b[i];
        const double v = s - a[i];
        const double e = (a[i] - (s - v)) + (bb - v); /* TwoSum: exact in round-to-nearest double */
        if (e == 0.0 || e != e || s - s != 0.0) continue;   /* exact, or inf/NaN involved */
        if (cm_format_to_double(cm_round_to_format(s, df, RND_NEAREST_EVEN), df) != s) continue;
        uint64_t bits;
        memcpy(&bits, &s, sizeof bits);
        if (s == 0.0) continue; /* cannot happen: s == 0 means b == -a exactly */
        bits = ((e > 0) == (s > 0)) ? bits + 1 : bits - 1;
        memcpy(&r[i], &bits, sizeof bits);
    }
}

/* A float mod's add (op_mod) under a directed mode: directed_fixup of fmod + divisor, the divisor taken as 0 where
 * nothing was added (then the sum is exact and nothing moves). */
static void mod_fixup(const double *a, const double *b, double *r, size_t n, Data_Format df) {
    double m[CT_BLOCK], added[CT_BLOCK];
    for (size_t i = 0; i < n; ++i) {
        m[i] = cm_fmod(a[i], b[i]);
        added[i] = m[i] != 0.0 && m[i] == m[i] && (m[i] < 0.0) != (b[i] < 0.0) ? b[i] : 0.0;
    }
    directed_fixup(m, added, 1.0, r, n, df);
}

typedef struct arith_ctx {
    const ct_job *j;
    binop_fn f;
    int fixup;     /* directed rounding of add/sub in a float format */
    int mod_fixup; /* directed rounding of mod in a float format */
    double sign;   /* +1 add, -1 sub (for the fixup) */
} arith_ctx;

/* r = a op b for m elements, then round into dst. */
static void finish(const arith_ctx *c, const double *a, const double *b, double *r, size_t m, uint8_t *dst) {
    c->f(a, b, r, m);
    if (c->fixup) directed_fixup(a, b, c->sign, r, m, c->j->df);
    if (c->mod_fixup) mod_fixup(a, b, r, m, c->j->df);
    ct_store_block(dst, c->j->df, c->j->rnd, r, m);
}

/* One VuV pass: dst[i] = src[i] op unit[i % u], i < n (n a multiple of u). Short units are replicated across a
 * block so each block still covers up to CT_BLOCK elements. */
static void vuv_pass(const arith_ctx *c, const uint8_t *src, const uint8_t *unit, uint8_t *dst, uint64_t n, uint32_t u) {
    const ct_job *j = c->j;
    double a[CT_BLOCK], b[CT_BLOCK], r[CT_BLOCK];
    if (u <= CT_BLOCK) {
        const uint32_t len = (CT_BLOCK / u) * u;
        ct_load_block(unit, j->sf, b, u);
        for (uint32_t k = u; k < len; k += u) memcpy(b + k, b, u * sizeof(double));
        for (uint64_t i = 0; i < n; i += len) {
            const size_t m = (size_t)(n - i < len ? n - i : len);
            ct_load_block(src + i * j->sb, j->sf, a, m);
            finish(c, a, b, r, m, dst + i * j->db);
        }
        return;
    }
    for (uint64_t base = 0; base < n; base += u)
        for (uint32_t k = 0; k < u; k += CT_BLOCK) {
            const size_t m = u - k < CT_BLOCK ? u - k : CT_BLOCK;
            ct_load_block(src + (base + k) * j->sb, j->sf, a, m);
            ct_load_block(unit + (uint64_t)k * j->sb, j->sf, b, m);
            finish(c, a, b, r, m, dst + (base + k) * j->db);
        }
}

void ct_arith_run(const ct_job *j) {
    const Ncc_CT_GR_Param_Regs *q = &j->p->param;
    const int directed = j->rnd == RND_ZERO || j->rnd == RND_POS_INF || j->rnd == RND_NEG_INF;
    arith_ctx c;
    c.j = j;
    c.f = binop_for(j->op, !tx8_format_is_float(j->sf));
    c.fixup = directed && tx8_format_is_float(j->df) && (j->op == CT_OP_ADD || j->op == CT_OP_SUB);
    c.mod_fixup = directed && tx8_format_is_float(j->df) && j->op == CT_OP_MOD;
    c.sign = j->op == CT_OP_SUB ? -1.0 : 1.0;
    double a[CT_BLOCK], b[CT_BLOCK], r[CT_BLOCK];
    const uint64_t n = q->src_elem_num;

    switch (j->p->ctrl.format) {
    case CT_FMT_V_V:
        for (uint64_t i = 0; i < n; i += CT_BLOCK) {
            const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
            ct_load_block(j->src0 + i * j->sb, j->sf, a, m);
            ct_load_block(j->src1 + i * j->sb, j->sf, b, m);
            finish(&c, a, b, r, m, j->dst + i * j->db);
        }
        break;
    case CT_FMT_V_S: {
        const double s = ct_scalar_value(q->scalar, j->sf);
        for (uint32_t k = 0; k < CT_BLOCK; ++k) b[k] = s;
        for (uint64_t i = 0; i < n; i += CT_BLOCK) {
            const size_t m = (size_t)(n - i < CT_BLOCK ? n - i : CT_BLOCK);
            ct_load_block(j->src0 + i * j->sb, j->sf, a, m);
            finish(&c, a, b, r, m, j->dst + i * j->db);
        }
        break;
    }
    case CT_FMT_V_VuV:
        vuv_pass(&c, j->src0, j->src1, j->dst, n, q->unit_elem_num);
        break;
    default: { /* CT_FMT_V_VuV_LOOP: pass p covers src0/dst + p*src_elem_num, src1 + p*unit_elem_num */
        const uint32_t passes = q->full_unit_elem_num / q->unit_elem_num;
        for (uint32_t p = 0; p < passes; ++p)
            vuv_pass(&c, j->src0 + (uint64_t)p * n * j->sb, j->src1 + (uint64_t)p * q->unit_elem_num * j->sb,
                     j->dst + (uint64_t)p * n * j->db, n, q->unit_elem_num);
        break;
    }
    }
}
