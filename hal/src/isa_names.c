/* Printable names of formats, rounding modes and instructions (for messages and traces). */
#include "tx8/dtype.h"
#include "tx8/isa.h"

const char *tx8_format_name(Data_Format f) {
    static const char *const names[Fmt_COUNT] = {"int8", "fp16", "bf16", "fp32", "tf32", "int32", "int64", "uint8"};
    return (unsigned)f < Fmt_COUNT ? names[f] : "invalid";
}

const char *tx8_rnd_name(RND_MODE r) {
    static const char *const names[RND_COUNT] = {"nearest_even", "zero", "pos_inf", "neg_inf", "nearest_away"};
    return (unsigned)r < RND_COUNT ? names[r] : "invalid";
}

const char *tx8_instr_type_name(uint32_t t) {
    static const char *const names[] = {"I_CGRA", "I_NEUR", "I_RDMA", "I_WDMA", "I_TDMA", "I_SCALAR", "I_DTE", "I_CSR"};
    return t < sizeof(names) / sizeof(names[0]) ? names[t] : "invalid";
}

const char *tx8_ct_opcode_name(uint32_t op) {
    static const char *const names[CT_OP_COUNT] = {
        "add", "sub", "mul", "div", "max", "min",
        "abs", "neg", "rsqrt", "sqrt", "exp", "reciprocal", "relu", "leaky_relu", "sigmoid", "tanh", "gelu", "silu",
        "reduce_sum", "reduce_max", "reduce_min",
        "cmp_eq", "cmp_ne", "cmp_lt", "cmp_le", "cmp_gt", "cmp_ge",
        "select", "convert",
        "pool_max", "pool_avg",
        "log", "erf", "gelu_erf", "softplus", "softsign", "elu", "celu", "selu", "thresholded_relu", "shrink",
        "hard_swish", "mish", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
        "floor", "ceil", "round", "sign",
        "pow", "mod", "fmod", "fma"};
    return op < CT_OP_COUNT ? names[op] : "invalid";
}
