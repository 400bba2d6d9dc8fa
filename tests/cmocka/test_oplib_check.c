/*
 * The kernels' contracts (tx8/check.h) against the kernels: for a few calls per family, tx8_check_<kernel> on the
 * chip's config and then the kernel itself on the same arguments. A call the check accepts runs without a fault; a
 * call it refuses makes the kernel fault with exactly the check's reason (and the reason is the one written here,
 * the kernel's message since before the checks moved into the planning library). The compiler evaluates the same
 * checks on every call it plans (compiler/lib/Dialect/Tx8be/IR/KernelContract.cpp), so what passes there cannot
 * fault here. Last, the checks follow the config they are given, not the HAL's.
 */
#include <string.h>

#include "op_test_common.h"
#include "tx8/check.h"
#include "tx8/lsu.h"

enum { A = 0x0, B = 0x10000, C = 0x20000, O = 0x30000, IMM = 0x40000 };

/* The check's verdict (rc, why) against the kernel's (its cycles and the faults it raised). want NULL: both accept;
 * else both refuse, the check with exactly `want`, the kernel with one fault of that very message. */
static void same_verdict(int rc, const char *why, uint64_t cycles, const char *want) {
    tx8_fault_log *log = tx8_test_faults();
    if (!want) {
        if (rc != 0) fail_msg("the check refused a call: %s", why);
        if (log->count != 0) fail_msg("the check accepted a call the kernel faulted on: %s", log->last);
        assert_true(cycles != TX8_CYCLES_INVALID);
    } else {
        assert_int_equal(rc, -1);
        assert_string_equal(why, want);
        assert_int_equal(log->count, 1);
        assert_string_equal(log->last, want);
        assert_true(cycles == TX8_CYCLES_INVALID);
    }
    tx8_test_fault_reset();
}

/* tx8_check_<kernel>(tx8_hal_config(), args..., why) and then <kernel>(args...), compared. */
#define CHECK_THEN_RUN(kernel, want, ...)                                                                          \
    do {                                                                                                           \
        char why_[TX8_CHECK_WHY_BYTES] = "";                                                                       \
        const int rc_ = tx8_check_##kernel(tx8_hal_config(), __VA_ARGS__, why_, sizeof why_);                      \
        const uint64_t cycles_ = op_##kernel(__VA_ARGS__);                                                         \
        same_verdict(rc_, why_, cycles_, want);                                                                    \
    } while (0)

static void tsr(tensor_buf *t, Data_Format fmt, uint64_t addr, int32_t d0, int32_t d1, int32_t d2, int32_t d3,
                int32_t dim) {
    const int32_t shape[4] = {d0, d1, d2, d3};
    make_tensor(t, fmt, addr, shape, dim);
}

static void binary(void **state) {
    (void)state;
    tensor_buf a, b, o;
    ELTWISE_PARAM p = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    /* An SE block's per-channel scale, channel-last: accepted. */
    tsr(&a, Fmt_FP32, A, 1, 4, 8, 24, 4), tsr(&b, Fmt_FP32, B, 1, 1, 1, 24, 4), tsr(&o, Fmt_FP32, O, 1, 4, 8, 24, 4);
    CHECK_THEN_RUN(mul, NULL, &p, &a.tsr, &b.tsr, &o.tsr);
    CHECK_THEN_RUN(add, NULL, &p, &b.tsr, &a.tsr, &o.tsr); /* a broadcast left operand of a commutative op */
    /* The scale cut like another step's output: issue 33's fault. */
    tsr(&a, Fmt_FP32, A, 1, 4, 8, 4, 4), tsr(&o, Fmt_FP32, O, 1, 4, 8, 4, 4);
    CHECK_THEN_RUN(mul, "op_mul: b->shape->shape_real[3] = 24, out->shape->shape_real[3] = 4; must be equal or 1 "
                        "(broadcast)", &p, &a.tsr, &b.tsr, &o.tsr);
    /* A numerator broadcast where the denominator is full; a pow base likewise. */
    tsr(&a, Fmt_FP32, A, 1, 1, 1, 8, 4), tsr(&b, Fmt_FP32, B, 1, 4, 4, 8, 4), tsr(&o, Fmt_FP32, O, 1, 4, 4, 8, 4);
    CHECK_THEN_RUN(div, "op_div: a broadcasts over 16 elements where b does not: not supported (the op does not "
                        "commute: only b, the divisor or exponent, may broadcast alone)", &p, &a.tsr, &b.tsr, &o.tsr);
    CHECK_THEN_RUN(pow, NULL, &p, &b.tsr, &a.tsr, &o.tsr);
    /* Integers: a float sub may put a broadcast a on the unit side, an integer one may not. */
    CHECK_THEN_RUN(sub, NULL, &p, &a.tsr, &b.tsr, &o.tsr);
    tsr(&a, Fmt_INT32, A, 1, 1, 1, 8, 4), tsr(&b, Fmt_INT32, B, 1, 4, 4, 8, 4), tsr(&o, Fmt_INT32, O, 1, 4, 4, 8, 4);
    CHECK_THEN_RUN(sub, "op_sub: a broadcasts over 16 elements where b does not: not supported (an integer a - b "
                        "cannot run as -(b - a), which saturates differently: only b, the divisor or exponent, may "
                        "broadcast alone)", &p, &a.tsr, &b.tsr, &o.tsr);
    /* Formats. */
    tsr(&a, Fmt_FP32, A, 2, 16, 0, 0, 2), tsr(&b, Fmt_FP16, B, 2, 16, 0, 0, 2), tsr(&o, Fmt_FP32, O, 2, 16, 0, 0, 2);
    CHECK_THEN_RUN(add, "op_add: b->format = fp16, a->format = fp32; they must match", &p, &a.tsr, &b.tsr, &o.tsr);
    /* out over a broadcast operand. */
    tsr(&a, Fmt_FP32, A, 1, 4, 4, 8, 4), tsr(&b, Fmt_FP32, B, 1, 1, 1, 8, 4), tsr(&o, Fmt_FP32, B, 1, 4, 4, 8, 4);
    CHECK_THEN_RUN(max, "op_max: out overlaps b, which broadcasts", &p, &a.tsr, &b.tsr, &o.tsr);
    /* Broadcasting needs a compact layout; min in place is fine. */
    ELTWISE_PARAM cx = {LAYOUT_CX, RND_NEAREST_EVEN};
    tsr(&o, Fmt_FP32, O, 1, 4, 4, 8, 4);
    CHECK_THEN_RUN(min, "op_min: a and b broadcast to out, which needs a compact layout (Tensor or NTensor), not Cx",
                   &cx, &a.tsr, &b.tsr, &o.tsr);
    CHECK_THEN_RUN(min, NULL, &cx, &a.tsr, &a.tsr, &a.tsr);
}

static void compare_logical_mod(void **state) {
    (void)state;
    tensor_buf a, b, o;
    tsr(&a, Fmt_FP16, A, 3, 40, 0, 0, 2), tsr(&b, Fmt_FP16, B, 1, 40, 0, 0, 2), tsr(&o, Fmt_INT8, O, 3, 40, 0, 0, 2);
    COMPARE_PARAM cmp = {LAYOUT_NTENSOR, COMPARE_LT};
    CHECK_THEN_RUN(compare, NULL, &cmp, &a.tsr, &b.tsr, &o.tsr);
    CHECK_THEN_RUN(compare, NULL, &cmp, &b.tsr, &a.tsr, &o.tsr);
    cmp.kind = (COMPARE_KIND)6;
    CHECK_THEN_RUN(compare, "op_compare: param->kind = 6 is not a COMPARE_KIND (0..5)", &cmp, &a.tsr, &b.tsr, &o.tsr);
    cmp.kind = COMPARE_EQ;
    tsr(&o, Fmt_FP16, O, 3, 40, 0, 0, 2);
    CHECK_THEN_RUN(compare, "op_compare: out->format = fp16, must be int8", &cmp, &a.tsr, &b.tsr, &o.tsr);
    /* an int8 mask written over a's fp16 image */
    tsr(&o, Fmt_INT8, A + 64, 3, 40, 0, 0, 2);
    CHECK_THEN_RUN(compare, "op_compare: out overlaps a, which has another element size", &cmp, &a.tsr, &b.tsr,
                   &o.tsr);

    LOGICAL_PARAM lg = {LAYOUT_TENSOR, LOGICAL_XOR};
    tsr(&a, Fmt_INT8, A, 1, 5, 7, 0, 3), tsr(&b, Fmt_INT8, B, 1, 5, 1, 0, 3), tsr(&o, Fmt_INT8, O, 1, 5, 7, 0, 3);
    CHECK_THEN_RUN(logical, NULL, &lg, &a.tsr, &b.tsr, &o.tsr);
    lg.kind = (LOGICAL_KIND)3;
    CHECK_THEN_RUN(logical, "op_logical: param->kind = 3 is not a LOGICAL_KIND (0..2)", &lg, &a.tsr, &b.tsr, &o.tsr);
    lg.kind = LOGICAL_AND;
    tsr(&b, Fmt_FP32, B, 1, 5, 1, 0, 3);
    CHECK_THEN_RUN(logical, "op_logical: b->format = fp32, must be int8", &lg, &a.tsr, &b.tsr, &o.tsr);

    MOD_PARAM md = {LAYOUT_TENSOR, 1};
    tsr(&a, Fmt_INT32, A, 1, 5, 7, 0, 3), tsr(&b, Fmt_INT32, B, 1, 5, 1, 0, 3), tsr(&o, Fmt_INT32, O, 1, 5, 7, 0, 3);
    CHECK_THEN_RUN(mod, NULL, &md, &a.tsr, &b.tsr, &o.tsr);
    CHECK_THEN_RUN(mod, "op_mod: a broadcasts over 7 elements where b does not: not supported (the op does not "
                        "commute: only b, the divisor or exponent, may broadcast alone)", &md, &b.tsr, &a.tsr, &o.tsr);
    md.fmod = 2;
    CHECK_THEN_RUN(mod, "op_mod: param->fmod = 2, must be 0 (the divisor's sign) or 1 (the dividend's)", &md, &a.tsr,
                   &b.tsr, &o.tsr);
}

static void unary(void **state) {
    (void)state;
    tensor_buf in, out;
    ELTWISE_PARAM p = {LAYOUT_NCX, RND_ZERO};
    tsr(&in, Fmt_BF16, A, 2, 3, 5, 70, 4), tsr(&out, Fmt_BF16, O, 2, 3, 5, 70, 4);
    CHECK_THEN_RUN(relu, NULL, &p, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(sigmoid, NULL, &p, &in.tsr, &in.tsr); /* in place */
    tsr(&in, Fmt_INT32, A, 4, 9, 0, 0, 2), tsr(&out, Fmt_INT32, O, 4, 9, 0, 0, 2);
    CHECK_THEN_RUN(abs, NULL, &p, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(exp, "op_exp: in->format = int32, must be fp32, fp16 or bf16", &p, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(not, "op_not: in->format = int32, must be int8", &p, &in.tsr, &out.tsr);
    tsr(&out, Fmt_INT32, O, 4, 8, 0, 0, 2);
    CHECK_THEN_RUN(neg, "op_neg: out->shape->shape_real[1] = 8, in->shape->shape_real[1] = 9; shapes must match", &p,
                   &in.tsr, &out.tsr);
    ELTWISE_PARAM t = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    tsr(&in, Fmt_FP32, A, 2, 9, 0, 0, 2), tsr(&out, Fmt_FP32, O, 2, 9, 0, 0, 2);
    CHECK_THEN_RUN(sqrt, "op_sqrt: in->shape_real is not valid in layout Tensor (extents must be > 0; Tensor and Cx "
                         "need N == 1)", &t, &in.tsr, &out.tsr);
    tsr(&in, Fmt_FP32, A, 1, 2, 3, 0, 3), tsr(&out, Fmt_FP32, O, 1, 2, 3, 0, 3);
    CHECK_THEN_RUN(reciprocal, "op_reciprocal: param is NULL", NULL, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(tanh, NULL, &t, &in.tsr, &out.tsr);

    UNARY_PARAM u = {LAYOUT_TENSOR, RND_NEAREST_EVEN, UNARY_SELU, 1.67f, 1.05f};
    CHECK_THEN_RUN(unary, NULL, &u, &in.tsr, &out.tsr);
    u.kind = UNARY_KIND_COUNT;
    CHECK_THEN_RUN(unary, "op_unary: param->kind = 29 is not a UNARY_KIND (0..28)", &u, &in.tsr, &out.tsr);
    LEAKY_RELU_PARAM lr = {LAYOUT_TENSOR, RND_NEAREST_EVEN, 0.1f};
    CHECK_THEN_RUN(leaky_relu, NULL, &lr, &in.tsr, &out.tsr);
    lr.rnd = (RND_MODE)7;
    CHECK_THEN_RUN(leaky_relu, "op_leaky_relu: param->rnd = 7 is not a RND_MODE", &lr, &in.tsr, &out.tsr);
    CLIP_PARAM cl = {LAYOUT_TENSOR, RND_NEAREST_EVEN, 1, 0, -1.f, 0.f};
    CHECK_THEN_RUN(clip, NULL, &cl, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(clip, "op_clip: param is NULL", NULL, &in.tsr, &out.tsr);
    HARD_SIGMOID_PARAM hs = {LAYOUT_TENSOR, RND_NEAREST_EVEN, 0.2f, 0.5f};
    CHECK_THEN_RUN(hard_sigmoid, NULL, &hs, &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP16, O, 1, 2, 3, 0, 3);
    CHECK_THEN_RUN(hard_sigmoid, "op_hard_sigmoid: out->format = fp16, in->format = fp32; they must match", &hs,
                   &in.tsr, &out.tsr);
}

static void quantize(void **state) {
    (void)state;
    tensor_buf x, s, z, imm, out, q;
    QUANTIZE_PARAM qp = {LAYOUT_NTENSOR};
    const int32_t imm_bytes = 4096;
    tsr(&x, Fmt_FP32, A, 2, 3, 5, 0, 3), tsr(&s, Fmt_FP32, B, 1, 3, 1, 0, 3), tsr(&z, Fmt_INT8, B + 64, 1, 3, 1, 0, 3);
    tsr(&out, Fmt_INT8, O, 2, 3, 5, 0, 3);
    make_tensor(&imm, Fmt_INT8, C, &imm_bytes, 1);
    CHECK_THEN_RUN(quantize_linear, NULL, &qp, &x.tsr, &s.tsr, &z.tsr, &imm.tsr, &out.tsr);
    tsr(&q, Fmt_INT8, A, 2, 3, 5, 0, 3), tsr(&out, Fmt_FP32, O, 2, 3, 5, 0, 3);
    CHECK_THEN_RUN(dequantize_linear, NULL, &qp, &q.tsr, &s.tsr, &z.tsr, &imm.tsr, &out.tsr);
    tsr(&s, Fmt_FP32, B, 1, 2, 1, 0, 3);
    CHECK_THEN_RUN(dequantize_linear, "op_dequantize_linear: zero_point->shape->shape_real[1] = 3, "
                   "scale->shape->shape_real[1] = 2; shapes must match", &qp, &q.tsr, &s.tsr, &z.tsr, &imm.tsr,
                   &out.tsr);
    tsr(&s, Fmt_FP32, B, 1, 3, 2, 0, 3), tsr(&z, Fmt_INT8, B + 64, 1, 3, 2, 0, 3);
    CHECK_THEN_RUN(dequantize_linear, "op_dequantize_linear: scale->shape->shape_real[2] = 2, "
                   "x->shape->shape_real[2] = 5; must be equal or 1 (broadcast)", &qp, &q.tsr, &s.tsr, &z.tsr,
                   &imm.tsr, &out.tsr);
    tsr(&s, Fmt_FP32, B, 1, 3, 1, 0, 3), tsr(&z, Fmt_UINT8, B + 64, 1, 3, 1, 0, 3), tsr(&out, Fmt_INT8, O, 2, 3, 5, 0, 3);
    CHECK_THEN_RUN(quantize_linear, "op_quantize_linear: zero_point->format = uint8, must be int8", &qp, &x.tsr,
                   &s.tsr, &z.tsr, &imm.tsr, &out.tsr);
}

static void cast_where(void **state) {
    (void)state;
    tensor_buf in, out, cond, x, y;
    CAST_PARAM cp = {LAYOUT_NTENSOR, 0};
    tsr(&in, Fmt_FP32, A, 2, 6, 0, 0, 2), tsr(&out, Fmt_FP16, O, 2, 6, 0, 0, 2);
    CHECK_THEN_RUN(cast, NULL, &cp, &in.tsr, &out.tsr);
    cp.to_bool = 1;
    CHECK_THEN_RUN(cast, "op_cast: out->format = fp16, must be int8", &cp, &in.tsr, &out.tsr);
    cp.to_bool = 0;
    tsr(&out, Fmt_FP16, A + 8, 2, 6, 0, 0, 2); /* 8 bytes into in's 48 */
    CHECK_THEN_RUN(cast, "op_cast: out overlaps in; it may only be that very buffer, of the same element size", &cp,
                   &in.tsr, &out.tsr);
    cp.layout = LAYOUT_CX;
    CHECK_THEN_RUN(cast, "op_cast: param->layout = 2, must be Tensor or NTensor (compact)", &cp, &in.tsr, &out.tsr);

    WHERE_PARAM wp = {LAYOUT_CX};
    tsr(&cond, Fmt_INT8, A, 1, 2, 2, 70, 4), tsr(&x, Fmt_FP32, B, 1, 2, 2, 70, 4), tsr(&y, Fmt_FP32, C, 1, 2, 2, 70, 4);
    tsr(&out, Fmt_FP32, O, 1, 2, 2, 70, 4);
    CHECK_THEN_RUN(where, NULL, &wp, &cond.tsr, &x.tsr, &y.tsr, &out.tsr);
    CHECK_THEN_RUN(where, NULL, &wp, &cond.tsr, &x.tsr, &y.tsr, &y.tsr);
    CHECK_THEN_RUN(where, "op_where: cond->format = fp32, must be int8", &wp, &x.tsr, &x.tsr, &y.tsr, &out.tsr);
    tsr(&y, Fmt_FP16, C, 1, 2, 2, 70, 4);
    CHECK_THEN_RUN(where, "op_where: y->format = fp16, x->format = fp32; they must match", &wp, &cond.tsr, &x.tsr,
                   &y.tsr, &out.tsr);
}

static void moves(void **state) {
    (void)state;
    tensor_buf in, out;
    PERMUTE_PARAM pm = {{0, 2, 3, 1}};
    tsr(&in, Fmt_FP32, A, 1, 12, 1, 1, 4), tsr(&out, Fmt_FP32, O, 1, 1, 1, 12, 4);
    CHECK_THEN_RUN(permute, NULL, &pm, &in.tsr, &out.tsr);
    /* ConvNeXt's head at 1x1 described in the other order (issue 33). */
    PERMUTE_PARAM identity = {{0, 1, 2, 3}};
    CHECK_THEN_RUN(permute, "op_permute: out->shape->shape_real = [1][1][1][12], must be [1][12][1][1] (in "
                            "[1][12][1][1] permuted by [0][1][2][3])", &identity, &in.tsr, &out.tsr);
    PERMUTE_PARAM twice = {{0, 1, 1, 3}};
    CHECK_THEN_RUN(permute, "op_permute: param->perm = [0][1][1][3] is not a permutation of 0..3", &twice, &in.tsr,
                   &out.tsr);

    SLICE_PARAM sl = {{0, 5}, {1, -2}};
    tsr(&in, Fmt_FP16, A, 3, 6, 0, 0, 2), tsr(&out, Fmt_FP16, O, 3, 3, 0, 0, 2);
    CHECK_THEN_RUN(slice, NULL, &sl, &in.tsr, &out.tsr);
    sl.start[1] = 3;
    CHECK_THEN_RUN(slice, "op_slice: dim 1 reads index -1 (start 3 + (3 - 1) * step -2), outside in's extent [0, 6)",
                   &sl, &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP16, A + 16, 3, 3, 0, 0, 2);
    CHECK_THEN_RUN(slice, "op_slice: out [0x10, 0x22) overlaps in [0x0, 0x24)", &sl, &in.tsr, &out.tsr);

    PAD_PARAM pd = {PAD_CONSTANT, {0, 1}, {0, 2}, 0.5f};
    tsr(&in, Fmt_FP32, A, 2, 3, 0, 0, 2), tsr(&out, Fmt_FP32, O, 2, 6, 0, 0, 2);
    CHECK_THEN_RUN(pad, NULL, &pd, &in.tsr, &out.tsr);
    pd.mode = PAD_REFLECT;
    CHECK_THEN_RUN(pad, NULL, &pd, &in.tsr, &out.tsr);
    pd.begin[1] = 3, pd.end[1] = 0;
    CHECK_THEN_RUN(pad, "op_pad: PAD_REFLECT along dim 1: begin 3 and end 0 must be <= in's extent 3 - 1", &pd,
                   &in.tsr, &out.tsr);
    pd.begin[1] = 1;
    CHECK_THEN_RUN(pad, "op_pad: out->shape->shape_real[1] = 6, must be 4 (in's 3 + begin 1 + end 0)", &pd, &in.tsr,
                   &out.tsr);
    pd.mode = PAD_CONSTANT;
    tsr(&in, Fmt_INT32, A, 2, 3, 0, 0, 2), tsr(&out, Fmt_INT32, O, 2, 4, 0, 0, 2);
    CHECK_THEN_RUN(pad, "op_pad: PAD_CONSTANT fills on the CT in fp32, fp16 or bf16; in->format = int32", &pd,
                   &in.tsr, &out.tsr);
}

static void concat(void **state) {
    (void)state;
    tensor_buf x, y, out;
    tsr(&x, Fmt_BF16, A, 2, 3, 4, 0, 3), tsr(&y, Fmt_BF16, B, 2, 5, 4, 0, 3), tsr(&out, Fmt_BF16, O, 2, 8, 4, 0, 3);
    TSR *in[2] = {&x.tsr, &y.tsr};
    const TSR *cin[2] = {&x.tsr, &y.tsr};
    CONCAT_PARAM cp = {1, 2};
    char why[TX8_CHECK_WHY_BYTES] = "";
    int rc = tx8_check_concat(tx8_hal_config(), &cp, cin, &out.tsr, why, sizeof why);
    same_verdict(rc, why, op_concat(&cp, in, &out.tsr), NULL);
    tsr(&out, Fmt_BF16, O, 2, 9, 4, 0, 3);
    rc = tx8_check_concat(tx8_hal_config(), &cp, cin, &out.tsr, why, sizeof why);
    same_verdict(rc, why, op_concat(&cp, in, &out.tsr), "op_concat: the inputs' extents along axis 1 sum to 8, out's is 9");
    tsr(&y, Fmt_BF16, B, 2, 5, 3, 0, 3), tsr(&out, Fmt_BF16, O, 2, 8, 4, 0, 3);
    rc = tx8_check_concat(tx8_hal_config(), &cp, cin, &out.tsr, why, sizeof why);
    same_verdict(rc, why, op_concat(&cp, in, &out.tsr), "op_concat: in[1]->shape->shape_real[2] = 3, out's is 4");
}

static void reduce_softmax(void **state) { /* and op_layernorm */
    (void)state;
    tensor_buf in, out, imm;
    REDUCE_PARAM rp = {REDUCE_MEAN, RND_NEAREST_EVEN};
    tsr(&in, Fmt_FP32, A, 3, 7, 5, 0, 3), tsr(&out, Fmt_FP32, O, 3, 1, 5, 0, 3);
    CHECK_THEN_RUN(reduce, NULL, &rp, &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP32, O, 3, 1, 7, 0, 3);
    CHECK_THEN_RUN(reduce, "op_reduce: in is [3][7][5], out [3][1][7]; out must be [A][1][B] of in's [A][R][B]", &rp,
                   &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP32, A + 4, 3, 1, 5, 0, 3);
    CHECK_THEN_RUN(reduce, "op_reduce: out overlaps in", &rp, &in.tsr, &out.tsr);

    SOFTMAX_PARAM sp = {LAYOUT_NTENSOR};
    tsr(&in, Fmt_FP16, A, 4, 33, 0, 0, 2), tsr(&out, Fmt_FP16, O, 4, 33, 0, 0, 2);
    const int32_t bytes[1] = {(int32_t)op_softmax_imm_size(tx8_hal_config(), &sp, &in.tsr)};
    make_tensor(&imm, Fmt_INT8, IMM, bytes, 1);
    CHECK_THEN_RUN(softmax, NULL, &sp, &in.tsr, &imm.tsr, &out.tsr);
    CHECK_THEN_RUN(softmax, NULL, &sp, &in.tsr, &imm.tsr, &in.tsr); /* in place */
    const int32_t fewer[1] = {bytes[0] - 1};
    make_tensor(&imm, Fmt_INT8, IMM, fewer, 1);
    char want[160];
    snprintf(want, sizeof want, "op_softmax: imm must be an int8 [bytes] buffer of at least %d bytes "
                                "(op_softmax_imm_size)", bytes[0]);
    CHECK_THEN_RUN(softmax, want, &sp, &in.tsr, &imm.tsr, &out.tsr);
    sp.layout = LAYOUT_TENSOR;
    make_tensor(&imm, Fmt_INT8, IMM, bytes, 1);
    CHECK_THEN_RUN(softmax, "op_softmax: in->shape->shape_real[0] = 4, layout Tensor needs 1 (use NTensor)", &sp,
                   &in.tsr, &imm.tsr, &out.tsr);

    /* op_layernorm: bf16 rows of 33 with a [33] scale and a [1][33] bias, RMS without bias in place; then a short
     * imm and a scale of the wrong length */
    LAYERNORM_PARAM lp = {LAYOUT_NTENSOR, 0, 1e-5f};
    tensor_buf scale, bias;
    tsr(&in, Fmt_BF16, A, 4, 33, 0, 0, 2), tsr(&out, Fmt_BF16, O, 4, 33, 0, 0, 2);
    tsr(&scale, Fmt_BF16, B, 33, 0, 0, 0, 1), tsr(&bias, Fmt_BF16, C, 1, 33, 0, 0, 2);
    const int32_t ln_bytes[1] = {(int32_t)op_layernorm_imm_size(tx8_hal_config(), &lp, &in.tsr)};
    make_tensor(&imm, Fmt_INT8, IMM, ln_bytes, 1);
    CHECK_THEN_RUN(layernorm, NULL, &lp, &in.tsr, &scale.tsr, &bias.tsr, &imm.tsr, &out.tsr);
    lp.rms = 1;
    CHECK_THEN_RUN(layernorm, NULL, &lp, &in.tsr, &scale.tsr, NULL, &imm.tsr, &in.tsr);
    const int32_t ln_fewer[1] = {ln_bytes[0] - 1};
    make_tensor(&imm, Fmt_INT8, IMM, ln_fewer, 1);
    snprintf(want, sizeof want, "op_layernorm: imm must be an int8 [bytes] buffer of at least %d bytes "
                                "(op_layernorm_imm_size)", ln_bytes[0]);
    CHECK_THEN_RUN(layernorm, want, &lp, &in.tsr, &scale.tsr, &bias.tsr, &imm.tsr, &out.tsr);
    make_tensor(&imm, Fmt_INT8, IMM, ln_bytes, 1);
    tsr(&scale, Fmt_BF16, B, 32, 0, 0, 0, 1);
    CHECK_THEN_RUN(layernorm, "op_layernorm: scale must hold n = 33 elements (in's last dim) in 1..4 dims, it has 32 in 1",
                   &lp, &in.tsr, &scale.tsr, &bias.tsr, &imm.tsr, &out.tsr);
}

static void pools(void **state) {
    (void)state;
    tensor_buf in, out;
    POOL_PARAM pp = {LAYOUT_NTENSOR, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0};
    tsr(&in, Fmt_FP32, A, 2, 9, 9, 5, 4), tsr(&out, Fmt_FP32, O, 2, 5, 5, 5, 4);
    CHECK_THEN_RUN(maxpool, NULL, &pp, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(avgpool, NULL, &pp, &in.tsr, &out.tsr);
    pp.count_include_pad = 2;
    CHECK_THEN_RUN(avgpool, "op_avgpool: param->count_include_pad = 2, must be 0 or 1", &pp, &in.tsr, &out.tsr);
    CHECK_THEN_RUN(maxpool, NULL, &pp, &in.tsr, &out.tsr); /* maxpool ignores it */
    pp.pad_bottom = 0; /* a step whose box lost its bottom border: 4 rows (floor) or 5 (ceil_mode), not 3 */
    tsr(&out, Fmt_FP32, O, 2, 3, 5, 5, 4);
    CHECK_THEN_RUN(maxpool, "op_maxpool: out->shape->shape_real[1] = 3, must be 4 (floor) or 5 (ceil_mode) for H 9, "
                            "kernel 3, stride 2, dilation 1, pads 1 + 0", &pp, &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP32, O, 2, 5, 5, 5, 4);
    pp.pad_bottom = 1, pp.pad_top = 0, pp.stride_h = 3;
    CHECK_THEN_RUN(maxpool, "op_maxpool: out->shape->shape_real[1] = 5, must be 3 for H 9, kernel 3, stride 3, "
                            "dilation 1, pads 0 + 1", &pp, &in.tsr, &out.tsr);

    GLOBAL_POOL_PARAM gp = {LAYOUT_NTENSOR};
    tsr(&out, Fmt_FP32, O, 2, 1, 1, 5, 4);
    CHECK_THEN_RUN(global_avgpool, NULL, &gp, &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP32, O, 2, 1, 2, 5, 4);
    CHECK_THEN_RUN(global_avgpool, "op_global_avgpool: out->shape->shape_real = [2][1][2][5], must be [N][1][1][C]",
                   &gp, &in.tsr, &out.tsr);
    tsr(&out, Fmt_FP32, O, 2, 1, 1, 6, 4);
    CHECK_THEN_RUN(global_avgpool, "op_global_avgpool: out is [2][1][1][6], in is [2][9][9][5]; N and C must match",
                   &gp, &in.tsr, &out.tsr);
}

static void ne_ops(void **state) {
    (void)state;
    tensor_buf a, b, bias, out, w;
    GEMM_PARAM gp = {0, 1};
    tsr(&a, Fmt_BF16, A, 5, 40, 0, 0, 2), tsr(&b, Fmt_BF16, B, 40, 7, 0, 0, 2), tsr(&out, Fmt_FP32, O, 5, 7, 0, 0, 2);
    tsr(&bias, Fmt_FP32, C, 1, 7, 0, 0, 2);
    CHECK_THEN_RUN(gemm, NULL, &gp, &a.tsr, &b.tsr, &bias.tsr, &out.tsr);
    CHECK_THEN_RUN(gemm, NULL, &gp, &a.tsr, &b.tsr, NULL, &out.tsr);
    tsr(&b, Fmt_BF16, B, 39, 7, 0, 0, 2); /* a K cut differently on the two sides */
    CHECK_THEN_RUN(gemm, "op_gemm: shapes a [5,40] x b [39,7] -> out [5,7] do not match", &gp, &a.tsr, &b.tsr,
                   &bias.tsr, &out.tsr);
    tsr(&b, Fmt_BF16, B, 40, 7, 0, 0, 2), tsr(&bias, Fmt_FP32, C, 7, 1, 0, 0, 2);
    CHECK_THEN_RUN(gemm, "op_gemm: bias must have shape [7] or [1,7]", &gp, &a.tsr, &b.tsr, &bias.tsr, &out.tsr);
    gp.accumulate = 2, tsr(&bias, Fmt_FP32, C, 1, 7, 0, 0, 2);
    CHECK_THEN_RUN(gemm, "op_gemm: param accumulate = 2 / relu_en = 1, expected 0 or 1", &gp, &a.tsr, &b.tsr,
                   &bias.tsr, &out.tsr);

    CONV_PARAM cp = {LAYOUT_TENSOR, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 0};
    tsr(&a, Fmt_FP16, A, 1, 6, 6, 4, 4), tsr(&w, Fmt_FP16, B, 3, 3, 2, 8, 4), tsr(&out, Fmt_FP32, O, 1, 6, 6, 8, 4);
    tsr(&bias, Fmt_FP32, C, 8, 0, 0, 0, 1);
    CHECK_THEN_RUN(conv, NULL, &cp, &a.tsr, &w.tsr, &bias.tsr, &out.tsr);
    cp.pad_bottom = 0; /* the pads of another step */
    CHECK_THEN_RUN(conv, "op_conv: out shape [1,6,6,8], expected [N,OH,OW,O] = [1,5,6,8]", &cp, &a.tsr, &w.tsr,
                   &bias.tsr, &out.tsr);
    cp.pad_bottom = 1, cp.group = 3;
    CHECK_THEN_RUN(conv, "op_conv: group 3 does not divide C = 4 and O = 8", &cp, &a.tsr, &w.tsr, &bias.tsr,
                   &out.tsr);
    cp.group = 2;
    tsr(&out, Fmt_FP32, B + 64, 1, 6, 6, 8, 4);
    CHECK_THEN_RUN(conv, "op_conv: out overlaps weight", &cp, &a.tsr, &w.tsr, &bias.tsr, &out.tsr);
}

static void batchnorm(void **state) {
    (void)state;
    tensor_buf in, out, scale, shift, mean, var, imm;
    BATCHNORM_INFER_PARAM bp = {LAYOUT_NCX, 1e-5f};
    tsr(&in, Fmt_FP16, A, 2, 3, 3, 70, 4), tsr(&out, Fmt_FP16, O, 2, 3, 3, 70, 4);
    tsr(&scale, Fmt_FP32, B, 1, 70, 0, 0, 2), tsr(&shift, Fmt_FP32, B + 0x400, 1, 70, 0, 0, 2);
    tsr(&mean, Fmt_FP32, B + 0x800, 1, 70, 0, 0, 2), tsr(&var, Fmt_FP32, B + 0xC00, 1, 70, 0, 0, 2);
    const int32_t bytes[1] = {(int32_t)op_batchnorm_inference_imm_size(tx8_hal_config(), &bp, &in.tsr)};
    make_tensor(&imm, Fmt_INT8, IMM, bytes, 1);
    CHECK_THEN_RUN(batchnorm_inference, NULL, &bp, &in.tsr, &scale.tsr, &shift.tsr, &mean.tsr, &var.tsr, &imm.tsr,
                   &out.tsr);
    tsr(&var, Fmt_FP32, B + 0xC00, 1, 64, 0, 0, 2); /* a channel box cut differently */
    CHECK_THEN_RUN(batchnorm_inference, "op_batchnorm_inference: var must be a 1x..x70 per-channel vector", &bp,
                   &in.tsr, &scale.tsr, &shift.tsr, &mean.tsr, &var.tsr, &imm.tsr, &out.tsr);
    tsr(&var, Fmt_FP32, B + 0xC00, 1, 70, 0, 0, 2);
    const int32_t fewer[1] = {bytes[0] - 256};
    make_tensor(&imm, Fmt_INT8, IMM, fewer, 1);
    char want[200];
    snprintf(want, sizeof want, "op_batchnorm_inference: imm must be an int8 [bytes] buffer of at least %d bytes "
                                "(op_batchnorm_inference_imm_size)", bytes[0]);
    CHECK_THEN_RUN(batchnorm_inference, want, &bp, &in.tsr, &scale.tsr, &shift.tsr, &mean.tsr, &var.tsr, &imm.tsr,
                   &out.tsr);
}

/* The checks read the config they are given: calls the chip's 3 MiB SPM holds refused against a 128 KiB one. */
static void explicit_config(void **state) {
    (void)state;
    tx8_hw_config small = tx8_hw_config_default();
    small.spm_bytes = 0x20000;
    char why[TX8_CHECK_WHY_BYTES];
    tensor_buf a, b, o;
    ELTWISE_PARAM p = {LAYOUT_TENSOR, RND_NEAREST_EVEN};
    tsr(&a, Fmt_FP32, A, 1, 4, 4, 8, 4), tsr(&b, Fmt_FP32, B, 1, 1, 1, 8, 4), tsr(&o, Fmt_FP32, O, 1, 4, 4, 8, 4);
    assert_int_equal(tx8_check_add(tx8_hal_config(), &p, &a.tsr, &b.tsr, &o.tsr, why, sizeof why), 0);
    assert_int_equal(tx8_check_add(&small, &p, &a.tsr, &b.tsr, &o.tsr, why, sizeof why), -1);
    assert_string_equal(why, "op_add: out = 0x30000 + 512 bytes is outside SPM");
    PERMUTE_PARAM pm = {{1, 0}};
    tsr(&a, Fmt_FP32, A, 3, 5, 0, 0, 2), tsr(&o, Fmt_FP32, O, 5, 3, 0, 0, 2);
    assert_int_equal(tx8_check_permute(&small, &pm, &a.tsr, &o.tsr, why, sizeof why), -1);
    assert_string_equal(why, "op_permute: out [0x30000, 0x3003c) is outside SPM [0, 0x20000)");
    /* a short why buffer gets the reason's start, NUL-terminated; a NULL one nothing */
    char shorter[12];
    assert_int_equal(tx8_check_permute(&small, &pm, &a.tsr, &o.tsr, shorter, sizeof shorter), -1);
    assert_string_equal(shorter, "op_permute:");
    assert_int_equal(tx8_check_permute(&small, &pm, &a.tsr, &o.tsr, NULL, 0), -1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(binary, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(compare_logical_mod, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(unary, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(cast_where, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(quantize, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(moves, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(concat, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(reduce_softmax, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(pools, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(ne_ops, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(batchnorm, tx8_test_setup, tx8_test_teardown),
        cmocka_unit_test_setup_teardown(explicit_config, tx8_test_setup, tx8_test_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
