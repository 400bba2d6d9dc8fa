/* The elementwise kernels' contracts (tx8/check.h): binary with broadcasting, unary, activations, op_cast and
 * op_where. ops/eltwise_common.c issues what these accept. */
#include "check_internal.h"

/* ---- binary ---- */

const tx8_binary_contract tx8_binary_add = {"op_add", 1, 0, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_sub = {"op_sub", 0, 1, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_mul = {"op_mul", 1, 0, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_div = {"op_div", 0, 0, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_max = {"op_max", 1, 0, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_min = {"op_min", 1, 0, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_pow = {"op_pow", 0, 0, ELTWISE_NUMBERS, 0};
/* Neither remainder commutes: a may broadcast only where b does too. */
const tx8_binary_contract tx8_binary_mod = {"op_mod", 0, 0, ELTWISE_NUMBERS, 0};
const tx8_binary_contract tx8_binary_fmod = {"op_mod", 0, 0, ELTWISE_NUMBERS, 0};
/* One compare kind per COMPARE_KIND: a and b fp32, fp16, bf16, int8 or int32, out the int8 mask. */
const tx8_binary_contract tx8_binary_compare[6] = {
    [COMPARE_EQ] = {"op_compare", 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_EQ},
    [COMPARE_NE] = {"op_compare", 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_NE},
    [COMPARE_LT] = {"op_compare", 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_LT},
    [COMPARE_LE] = {"op_compare", 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_LE},
    [COMPARE_GT] = {"op_compare", 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_GT},
    [COMPARE_GE] = {"op_compare", 1, 0, ELTWISE_NUMBERS, CT_OP_CMP_GE},
};
/* AND is the CT's min, OR its max, XOR its int8 -> int8 compare NE. */
const tx8_binary_contract tx8_binary_logical[3] = {
    [LOGICAL_AND] = {"op_logical", 1, 0, ELTWISE_FMT(Fmt_INT8), 0},
    [LOGICAL_OR] = {"op_logical", 1, 0, ELTWISE_FMT(Fmt_INT8), 0},
    [LOGICAL_XOR] = {"op_logical", 1, 0, ELTWISE_FMT(Fmt_INT8), CT_OP_CMP_NE},
};

static int same_shape(const TSR *x, const TSR *y) {
    if (x->shape->dim != y->shape->dim) return 0;
    for (int32_t d = 0; d < x->shape->dim; ++d)
        if (x->shape->shape_real[d] != y->shape->shape_real[d]) return 0;
    return 1;
}

static const char *const kBinaryNames[3] = {"a", "b", "out"};

/* Equal shapes, formats checked: when a's and out's element sizes differ (a compare's int8 mask), several
 * instructions run, so every image must lie in SPM and out may only be a itself. */
static int check_same_shape_images(const tx8_hw_config *hw, const tx8_binary_contract *k, const ELTWISE_PARAM *param,
                                   const TSR *const *t, char *why, size_t why_size) {
    if (t[0]->format == t[2]->format) return 0;
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    tx8_layout l[3];
    for (int i = 0; i < 3; ++i)
        tx8_layout_init(&l[i], param->layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    return tx8_check_eltwise_images(hw, k->name, t, kBinaryNames, l, 3, why, why_size);
}

/* The broadcast rules at equal dim counts in a compact layout, the runs the kernel would issue, overlaps and SPM
 * ranges; *nruns: the runs' count. */
static int check_broadcast(const tx8_hw_config *hw, const tx8_binary_contract *k, const ELTWISE_PARAM *param,
                           const TSR *a, const TSR *b, const TSR *out, int *nruns, char *why, size_t why_size) {
    const char *op = k->name;
    if ((unsigned)param->layout >= LAYOUT_COUNT)
        return tx8_why(why, why_size, "%s: param->layout = %d is not a LAYOUT_MODE", op, (int)param->layout);
    if ((unsigned)param->rnd >= RND_COUNT)
        return tx8_why(why, why_size, "%s: param->rnd = %d is not a RND_MODE", op, (int)param->rnd);
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_why(why, why_size,
                       "%s: a and b broadcast to out, which needs a compact layout (Tensor or NTensor), not %s", op,
                       tx8_layout_name(param->layout));
    tx8_layout l;
    if (tx8_layout_init(&l, param->layout, out->format, out->shape->shape_real, out->shape->dim,
                        tx8_hw_batch_align_bytes(hw)) != 0)
        return tx8_why(why, why_size,
                       "%s: out->shape_real is not valid in layout %s (extents must be > 0; Tensor needs N == 1)", op,
                       tx8_layout_name(param->layout));
    const int32_t dim = out->shape->dim;
    const int32_t *o = out->shape->shape_real, *ea = a->shape->shape_real, *eb = b->shape->shape_real;
    for (int32_t d = 0; d < dim; ++d) {
        if (ea[d] != o[d] && ea[d] != 1)
            return tx8_why(why, why_size,
                           "%s: a->shape->shape_real[%d] = %d, out->shape->shape_real[%d] = %d; must be equal or 1 "
                           "(broadcast)", op, d, ea[d], d, o[d]);
        if (eb[d] != o[d] && eb[d] != 1)
            return tx8_why(why, why_size,
                           "%s: b->shape->shape_real[%d] = %d, out->shape->shape_real[%d] = %d; must be equal or 1 "
                           "(broadcast)", op, d, eb[d], d, o[d]);
        if (o[d] > 1 && ea[d] == 1 && eb[d] == 1)
            return tx8_why(why, why_size, "%s: out->shape->shape_real[%d] = %d, but a and b both have 1 there", op, d,
                           o[d]);
    }
    tx8_bcast_run runs[ELTWISE_MAX_RUNS];
    const int n = tx8_plan_broadcast(a, b, out, runs);
    for (int i = 0; i < n; ++i) {
        if (runs[i].size > ELTWISE_MAX_ELEMS / 4)
            return tx8_why(why, why_size, "%s: a run of %llu elements is too long for one instruction", op,
                           (unsigned long long)runs[i].size);
        if (!runs[i].fa && !k->commutative && !(k->is_sub && tx8_format_is_float(out->format)))
            return tx8_why(why, why_size,
                           "%s: a broadcasts over %llu elements where b does not: not supported (%s: only b, the "
                           "divisor or exponent, may broadcast alone)", op, (unsigned long long)runs[i].size,
                           k->is_sub ? "an integer a - b cannot run as -(b - a), which saturates differently"
                                     : "the op does not commute");
    }
    const uint64_t out_bytes = tx8_tsr_compact_bytes(out);
    for (int i = 0; i < 2; ++i) {
        const TSR *x = i ? b : a;
        const int bcast = !same_shape(x, out), resized = tx8_format_bytes(x->format) != tx8_format_bytes(out->format);
        if ((bcast || resized) && ranges_overlap(x->addr, tx8_tsr_compact_bytes(x), out->addr, out_bytes))
            return tx8_why(why, why_size, "%s: out overlaps %s, which %s", op, i ? "b" : "a",
                           bcast ? "broadcasts" : "has another element size");
    }
    /* Several instructions run: check what the engine would only see at the failing one, so a fault writes nothing. */
    const TSR *const all[3] = {a, b, out};
    for (int i = 0; i < 3; ++i)
        if (tx8_check_range_in_spm(hw, op, kBinaryNames[i], all[i]->addr, tx8_tsr_compact_bytes(all[i]), why,
                                   why_size) != 0)
            return -1;
    *nruns = n;
    return 0;
}

int tx8_check_binary(const tx8_hw_config *hw, const tx8_binary_contract *k, const ELTWISE_PARAM *param, const TSR *a,
                     const TSR *b, const TSR *out, char *why, size_t why_size) {
    const TSR *const t[3] = {a, b, out};
    const char *op = k->name;
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    for (int i = 0; i < 3; ++i) {
        if (!t[i]) return tx8_why(why, why_size, "%s: %s is NULL", op, kBinaryNames[i]);
        if (!t[i]->shape) return tx8_why(why, why_size, "%s: %s->shape is NULL", op, kBinaryNames[i]);
    }
    const uint32_t set = k->formats;
    const uint32_t formats[3] = {set, set | ELTWISE_SAME_AS(0),
                                 k->cmp ? ELTWISE_FMT(Fmt_INT8) : set | ELTWISE_SAME_AS(0)};
    const int formats_ok = (unsigned)a->format < 24u && (set & ELTWISE_FMT(a->format)) && b->format == a->format &&
                           out->format == (k->cmp ? Fmt_INT8 : a->format);
    int n = 0;
    if ((same_shape(a, out) && same_shape(b, out)) || a->shape->dim != out->shape->dim ||
        b->shape->dim != out->shape->dim || !formats_ok || out->shape->dim < 2 || out->shape->dim > 4) {
        /* equal shapes, or arguments tx8_check_eltwise_formats names the fault of */
        if (tx8_check_eltwise_formats(hw, op, param->layout, param->rnd, t, kBinaryNames, formats, 3, NULL, why,
                                      why_size) != 0)
            return -1;
        return check_same_shape_images(hw, k, param, t, why, why_size);
    }
    if (check_broadcast(hw, k, param, a, b, out, &n, why, why_size) != 0) return -1;
    if (n == 0) { /* out has one element and so do a and b */
        if (tx8_check_eltwise_formats(hw, op, param->layout, param->rnd, t, kBinaryNames, formats, 3, NULL, why,
                                      why_size) != 0)
            return -1;
        return check_same_shape_images(hw, k, param, t, why, why_size);
    }
    return 0;
}

#define BINARY_CHECK(kernel, contract)                                                                             \
    int tx8_check_##kernel(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *a, const TSR *b,         \
                           const TSR *out, char *why, size_t why_size) {                                            \
        return tx8_check_binary(hw, &(contract), param, a, b, out, why, why_size);                                  \
    }
BINARY_CHECK(add, tx8_binary_add)
BINARY_CHECK(sub, tx8_binary_sub)
BINARY_CHECK(mul, tx8_binary_mul)
BINARY_CHECK(div, tx8_binary_div)
BINARY_CHECK(max, tx8_binary_max)
BINARY_CHECK(min, tx8_binary_min)
BINARY_CHECK(pow, tx8_binary_pow)

int tx8_check_mod(const tx8_hw_config *hw, const MOD_PARAM *param, const TSR *a, const TSR *b, const TSR *out,
                  char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_mod: param is NULL");
    if (param->fmod > 1)
        return tx8_why(why, why_size, "op_mod: param->fmod = %u, must be 0 (the divisor's sign) or 1 (the dividend's)",
                       param->fmod);
    /* The remainder is exact, so rnd plays no part. */
    const ELTWISE_PARAM common = {param->layout, RND_NEAREST_EVEN};
    return tx8_check_binary(hw, param->fmod ? &tx8_binary_fmod : &tx8_binary_mod, &common, a, b, out, why, why_size);
}

int tx8_check_compare(const tx8_hw_config *hw, const COMPARE_PARAM *param, const TSR *a, const TSR *b,
                      const TSR *out, char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_compare: param is NULL");
    if ((unsigned)param->kind >= sizeof tx8_binary_compare / sizeof tx8_binary_compare[0])
        return tx8_why(why, why_size, "op_compare: param->kind = %d is not a COMPARE_KIND (0..5)", (int)param->kind);
    const ELTWISE_PARAM common = {param->layout, RND_NEAREST_EVEN};
    return tx8_check_binary(hw, &tx8_binary_compare[param->kind], &common, a, b, out, why, why_size);
}

int tx8_check_logical(const tx8_hw_config *hw, const LOGICAL_PARAM *param, const TSR *a, const TSR *b,
                      const TSR *out, char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_logical: param is NULL");
    if ((unsigned)param->kind >= sizeof tx8_binary_logical / sizeof tx8_binary_logical[0])
        return tx8_why(why, why_size, "op_logical: param->kind = %d is not a LOGICAL_KIND (0..2)", (int)param->kind);
    const ELTWISE_PARAM common = {param->layout, RND_NEAREST_EVEN};
    return tx8_check_binary(hw, &tx8_binary_logical[param->kind], &common, a, b, out, why, why_size);
}

/* ---- unary ---- */

static const char *const kUnaryNames[2] = {"in", "out"};

/* in and out of one shape valid in `layout`, in's format in `formats`, out's in's. */
static int check_unary_pair(const tx8_hw_config *hw, const char *op, LAYOUT_MODE layout, RND_MODE rnd,
                            uint32_t formats, const TSR *in, const TSR *out, char *why, size_t why_size) {
    const TSR *const t[2] = {in, out};
    const uint32_t sets[2] = {formats, formats | ELTWISE_SAME_AS(0)};
    return tx8_check_eltwise_formats(hw, op, layout, rnd, t, kUnaryNames, sets, 2, NULL, why, why_size);
}

static int check_eltwise_unary(const tx8_hw_config *hw, const char *op, uint32_t formats, const ELTWISE_PARAM *param,
                               const TSR *in, const TSR *out, char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    return check_unary_pair(hw, op, param->layout, param->rnd, formats, in, out, why, why_size);
}

#define UNARY_CHECK(kernel, formats)                                                                               \
    int tx8_check_##kernel(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out,      \
                           char *why, size_t why_size) {                                                            \
        return check_eltwise_unary(hw, "op_" #kernel, formats, param, in, out, why, why_size);                      \
    }
UNARY_CHECK(relu, ELTWISE_FLOATS)
UNARY_CHECK(abs, ELTWISE_NUMBERS)
UNARY_CHECK(neg, ELTWISE_NUMBERS)
UNARY_CHECK(exp, ELTWISE_FLOATS)
UNARY_CHECK(sqrt, ELTWISE_FLOATS)
UNARY_CHECK(reciprocal, ELTWISE_FLOATS)
UNARY_CHECK(sigmoid, ELTWISE_FLOATS)
UNARY_CHECK(tanh, ELTWISE_FLOATS)

int tx8_check_not(const tx8_hw_config *hw, const ELTWISE_PARAM *param, const TSR *in, const TSR *out, char *why,
                  size_t why_size) {
    static const uint32_t formats[2] = {ELTWISE_FMT(Fmt_INT8), ELTWISE_FMT(Fmt_INT8)};
    const TSR *const t[2] = {in, out};
    if (!param) return tx8_why(why, why_size, "op_not: param is NULL");
    return tx8_check_eltwise_formats(hw, "op_not", param->layout, param->rnd, t, kUnaryNames, formats, 2, NULL, why,
                                     why_size);
}

int tx8_check_unary(const tx8_hw_config *hw, const UNARY_PARAM *param, const TSR *in, const TSR *out, char *why,
                    size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_unary: param is NULL");
    if (param->kind >= UNARY_KIND_COUNT)
        return tx8_why(why, why_size, "op_unary: param->kind = %u is not a UNARY_KIND (0..%d)", (unsigned)param->kind,
                       UNARY_KIND_COUNT - 1);
    return check_unary_pair(hw, "op_unary", param->layout, param->rnd, ELTWISE_FLOATS, in, out, why, why_size);
}

int tx8_check_leaky_relu(const tx8_hw_config *hw, const LEAKY_RELU_PARAM *param, const TSR *in, const TSR *out,
                         char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_leaky_relu: param is NULL");
    return check_unary_pair(hw, "op_leaky_relu", param->layout, param->rnd, ELTWISE_FLOATS, in, out, why, why_size);
}

int tx8_check_clip(const tx8_hw_config *hw, const CLIP_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_clip: param is NULL");
    return check_unary_pair(hw, "op_clip", param->layout, param->rnd, ELTWISE_FLOATS, in, out, why, why_size);
}

int tx8_check_hard_sigmoid(const tx8_hw_config *hw, const HARD_SIGMOID_PARAM *param, const TSR *in, const TSR *out,
                           char *why, size_t why_size) {
    if (!param) return tx8_why(why, why_size, "op_hard_sigmoid: param is NULL");
    return check_unary_pair(hw, "op_hard_sigmoid", param->layout, param->rnd, ELTWISE_FLOATS, in, out, why,
                            why_size);
}

/* ---- op_cast, op_where: operands of different element sizes ---- */

#define CAST_FORMATS (ELTWISE_NUMBERS | ELTWISE_FMT(Fmt_UINT8) | ELTWISE_FMT(Fmt_INT64))

int tx8_check_cast(const tx8_hw_config *hw, const CAST_PARAM *param, const TSR *in, const TSR *out, char *why,
                   size_t why_size) {
    const char *op = "op_cast";
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (param->layout != LAYOUT_TENSOR && param->layout != LAYOUT_NTENSOR)
        return tx8_why(why, why_size, "%s: param->layout = %d, must be Tensor or NTensor (compact)", op,
                       (int)param->layout);
    if (param->to_bool > 1) return tx8_why(why, why_size, "%s: param->to_bool = %u, must be 0 or 1", op, param->to_bool);
    const TSR *const t[2] = {in, out};
    const uint32_t sets[2] = {CAST_FORMATS, param->to_bool ? ELTWISE_FMT(Fmt_INT8) : CAST_FORMATS};
    if (tx8_check_eltwise_formats(hw, op, param->layout, RND_NEAREST_EVEN, t, kUnaryNames, sets, 2, NULL, why,
                                  why_size) != 0)
        return -1;
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    tx8_layout l[2];
    for (int i = 0; i < 2; ++i)
        tx8_layout_init(&l[i], param->layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    return tx8_check_eltwise_images(hw, op, t, kUnaryNames, l, 2, why, why_size);
}

int tx8_check_where(const tx8_hw_config *hw, const WHERE_PARAM *param, const TSR *cond, const TSR *x, const TSR *y,
                    const TSR *out, char *why, size_t why_size) {
    const char *op = "op_where";
    const TSR *const t[4] = {cond, x, y, out};
    static const char *const names[4] = {"cond", "x", "y", "out"};
    static const uint32_t formats[4] = {ELTWISE_FMT(Fmt_INT8), ELTWISE_NUMBERS,
                                        ELTWISE_NUMBERS | ELTWISE_SAME_AS(1), ELTWISE_NUMBERS | ELTWISE_SAME_AS(1)};
    if (!param) return tx8_why(why, why_size, "%s: param is NULL", op);
    if (tx8_check_eltwise_formats(hw, op, param->layout, RND_NEAREST_EVEN, t, names, formats, 4, NULL, why,
                                  why_size) != 0)
        return -1;
    const uint32_t align = tx8_hw_batch_align_bytes(hw);
    tx8_layout l[4];
    for (int i = 0; i < 4; ++i)
        tx8_layout_init(&l[i], param->layout, t[i]->format, t[i]->shape->shape_real, t[i]->shape->dim, align);
    return tx8_check_eltwise_images(hw, op, t, names, l, 4, why, why_size);
}
