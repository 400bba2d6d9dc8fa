/*
 * CT (CGRA tensor) instruction wrappers, named by the seed's scheme CGRATensor_<Function>_<Format>_<name>.
 *
 * Each wrapper only fills *p (a CT_Param whose inter_type is I_CGRA); issue it with TsmExecute(p). Addresses are
 * SPM byte addresses, counts are elements of `fmt`. Semantics of each format: tx8/isa.h (CT_FORMAT).
 */
#ifndef TX8_CGRA_H
#define TX8_CGRA_H

#include <stdint.h>

#include "tx8/isa.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ArithOp, V_V: dst[i] = src0[i] op src1[i] ---- */
void CGRATensor_ArithOp_V_V_add(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_sub(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_mul(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_div(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_max(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_min(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);

/* ---- ArithOp, V_S: dst[i] = src[i] op scalar (scalar: fp32 bits for float formats, int32 for int8) ---- */
void CGRATensor_ArithOp_V_S_add(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_sub(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_mul(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_div(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_max(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_min(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);

/* ---- ArithOp, V_VuV: dst[i] = src[i] op unit[i % unit_elem_num] (seed argument order) ---- */
void CGRATensor_ArithOp_V_VuV_add(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_sub(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_mul(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_div(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_max(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_min(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);

/* ---- ArithOp, V_VuV_loop: VuV repeated full_unit_elem_num / unit_elem_num times (unit_elem_num == 64) ---- */
void CGRATensor_ArithOp_V_VuV_add_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_sub_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_mul_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_div_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_max_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_min_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num, uint32_t full_unit_elem_num, Data_Format fmt);

/* ---- ArithOp pow: dst = pow(src0, src1) (floats: cm_pow, C99 Annex F special values, rounded once; int8 / int32:
 * the exact integer power, saturating) in V_V, V_S (the exponent a scalar), V_VuV and V_VuV_loop (the exponent the
 * unit vector) ---- */
void CGRATensor_ArithOp_V_V_pow(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_pow(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_pow(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                  uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_pow_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                       uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                       uint32_t full_unit_elem_num, Data_Format fmt);

/* ---- ArithOp mod / fmod, every format but int64: the remainder of src0 / src1 (the divisor the scalar or the unit
 * vector in V_S / V_VuV / V_VuV_loop). mod: the divisor's sign (Python %, ONNX Mod fmod = 0; floats: fmod + the
 * divisor where the signs differ, rounded once with rnd); fmod: the dividend's (C fmod, ONNX Mod fmod = 1; exact).
 * Divisor 0: NaN for floats, 0 for integers (tx8/isa.h) ---- */
void CGRATensor_ArithOp_V_V_mod(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_fmod(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num,
                                 RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_mod(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                                RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_S_fmod(CT_Param *p, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num,
                                 RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_mod(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                  uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_fmod(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                   uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_mod_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                       uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                       uint32_t full_unit_elem_num, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_fmod_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t unit, RND_MODE rnd,
                                        uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                        uint32_t full_unit_elem_num, Data_Format fmt);

/* ---- ArithOp fma: the fused multiply-add dst[i] = src[i] * m + a, rounded once with rnd (IEEE fusedMultiplyAdd;
 * tx8/isa.h "FMA"), float formats only. m, a: src1[i], src2[i] (V_V); the fp32-bit scalars (V_S); mul_unit[u],
 * add_unit[u] with u = i % unit_elem_num (V_VuV; the loop form as CGRATensor_ArithOp_V_VuV_*_loop, both units
 * advancing by unit_elem_num per pass). src and dst are in fmt; the multiplier and addend vectors in coef_fmt, which
 * is fmt or Fmt_FP32 (fp32 per-channel coefficients for fp16 / bf16 / tf32 data, no conversion; the instruction then
 * runs at the fp32 rate). In place: dst == src ---- */
void CGRATensor_ArithOp_V_V_fma(CT_Param *p, uint64_t src0, uint64_t src1, uint64_t src2, uint64_t dst,
                                uint32_t elem_num, RND_MODE rnd, Data_Format coef_fmt, Data_Format fmt);
void CGRATensor_ArithOp_V_S_fma(CT_Param *p, uint64_t src, uint32_t mul_scalar, uint32_t add_scalar, uint64_t dst,
                                uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_fma(CT_Param *p, uint64_t src, uint64_t dst, uint64_t mul_unit, uint64_t add_unit,
                                  RND_MODE rnd, uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format coef_fmt,
                                  Data_Format fmt);
void CGRATensor_ArithOp_V_VuV_fma_loop(CT_Param *p, uint64_t src, uint64_t dst, uint64_t mul_unit,
                                       uint64_t add_unit, RND_MODE rnd, uint32_t src_elem_num,
                                       uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                       uint32_t full_unit_elem_num, Data_Format coef_fmt, Data_Format fmt);

/* ---- ArithOp / TranscOp, V_V unary: dst[i] = f(src[i]) ---- */
void CGRATensor_ArithOp_V_V_abs(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ArithOp_V_V_neg(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_TranscOp_V_V_rsqrt(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_TranscOp_V_V_sqrt(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_TranscOp_V_V_exp(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_TranscOp_V_V_reciprocal(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);

/* ---- TranscOp, V_V, float formats only: the cmodel's portable log erf sin cos tan asin acos atan sinh cosh asinh
 * acosh atanh (tx8/cm_numerics.h), rounded once ---- */
void CGRATensor_TranscOp_V_V_log(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);
void CGRATensor_TranscOp_V_V_erf(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);
void CGRATensor_TranscOp_V_V_sin(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);
void CGRATensor_TranscOp_V_V_cos(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);
void CGRATensor_TranscOp_V_V_tan(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);
void CGRATensor_TranscOp_V_V_asin(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_TranscOp_V_V_acos(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_TranscOp_V_V_atan(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_TranscOp_V_V_sinh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_TranscOp_V_V_cosh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_TranscOp_V_V_asinh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt);
void CGRATensor_TranscOp_V_V_acosh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt);
void CGRATensor_TranscOp_V_V_atanh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt);

/* ---- ArithOp, V_V unary, float formats only: floor, ceil, round (half to even), sign (-1/0/+1; +-0 and NaN stay);
 * exact ---- */
void CGRATensor_ArithOp_V_V_floor(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_ArithOp_V_V_ceil(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);
void CGRATensor_ArithOp_V_V_round(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                  Data_Format fmt);
void CGRATensor_ArithOp_V_V_sign(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                 Data_Format fmt);

/* ---- ActOp, V_V: activations ---- */
void CGRATensor_ActOp_V_V_relu(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_leaky_relu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_sigmoid(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_tanh(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_gelu(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_silu(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd, Data_Format fmt);
/* Appended, float formats only (definitions: cmodel/src/ct/ct_unary.c). gelu_erf is the exact-erf GELU; alpha,
 * lambd go in the scalar register and gamma, bias in scalar1, as fp32 bits. */
void CGRATensor_ActOp_V_V_gelu_erf(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt);
void CGRATensor_ActOp_V_V_softplus(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt);
void CGRATensor_ActOp_V_V_softsign(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                   Data_Format fmt);
void CGRATensor_ActOp_V_V_elu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num, RND_MODE rnd,
                              Data_Format fmt);
void CGRATensor_ActOp_V_V_celu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num, RND_MODE rnd,
                               Data_Format fmt);
void CGRATensor_ActOp_V_V_selu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, float gamma, uint32_t elem_num,
                               RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_thresholded_relu(CT_Param *p, uint64_t src, uint64_t dst, float alpha, uint32_t elem_num,
                                           RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_shrink(CT_Param *p, uint64_t src, uint64_t dst, float lambd, float bias, uint32_t elem_num,
                                 RND_MODE rnd, Data_Format fmt);
void CGRATensor_ActOp_V_V_hard_swish(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                                     Data_Format fmt);
void CGRATensor_ActOp_V_V_mish(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, RND_MODE rnd,
                               Data_Format fmt);

/* ---- ReduceOp: src is [outer_num][inner_num]; inner -> dst[outer_num], outer -> dst[inner_num] ---- */
void CGRATensor_ReduceOp_T_inner_sum(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ReduceOp_T_inner_max(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ReduceOp_T_inner_min(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ReduceOp_T_outer_sum(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ReduceOp_T_outer_max(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt);
void CGRATensor_ReduceOp_T_outer_min(CT_Param *p, uint64_t src, uint64_t dst, uint32_t outer_num, uint32_t inner_num, RND_MODE rnd, Data_Format fmt);

/* ---- RelationOp: mask[i] = (a[i] cmp b) as 1/0 in fmt; V_V compares with src1[i], V_S with the scalar ---- */
void CGRATensor_RelationOp_V_V_cmp(CT_Param *p, CT_OPCODE cmp, uint64_t src0, uint64_t src1, uint64_t dst, uint32_t elem_num, Data_Format fmt);
void CGRATensor_RelationOp_V_S_cmp(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint32_t scalar, uint64_t dst, uint32_t elem_num, Data_Format fmt);

/* ---- RelationOp to a mask in mask_fmt (src_fmt, or Fmt_INT8 from any src_fmt: numpy's bool bytes); the VuV
 * forms compare src[i] with unit[i % unit_elem_num] (the unit is the right-hand side), the loop form as
 * CGRATensor_ArithOp_V_VuV_*_loop ---- */
void CGRATensor_RelationOp_V_V_cmp_to(CT_Param *p, CT_OPCODE cmp, uint64_t src0, uint64_t src1, uint64_t dst,
                                      uint32_t elem_num, Data_Format src_fmt, Data_Format mask_fmt);
void CGRATensor_RelationOp_V_S_cmp_to(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint32_t scalar, uint64_t dst,
                                      uint32_t elem_num, Data_Format src_fmt, Data_Format mask_fmt);
void CGRATensor_RelationOp_V_VuV_cmp(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint64_t dst, uint64_t unit,
                                     uint32_t src_elem_num, uint32_t unit_elem_num, Data_Format src_fmt,
                                     Data_Format mask_fmt);
void CGRATensor_RelationOp_V_VuV_cmp_loop(CT_Param *p, CT_OPCODE cmp, uint64_t src, uint64_t dst, uint64_t unit,
                                          uint32_t src_elem_num, uint32_t unit_elem_num, uint32_t full_src_elem_num,
                                          uint32_t full_unit_elem_num, Data_Format src_fmt, Data_Format mask_fmt);

/* ---- LogicOp: dst[i] = mask[i] != 0 ? a[i] : b[i] (all in fmt) ---- */
void CGRATensor_LogicOp_V_V_select(CT_Param *p, uint64_t mask, uint64_t a, uint64_t b, uint64_t dst, uint32_t elem_num, Data_Format fmt);
/* The same with the mask in its own format (an int8 boolean mask choosing fp32 data, say); a, b, dst in fmt. */
void CGRATensor_LogicOp_V_V_select_mask(CT_Param *p, uint64_t mask, uint64_t a, uint64_t b, uint64_t dst,
                                        uint32_t elem_num, Data_Format mask_fmt, Data_Format fmt);

/* ---- ConvertOp: dst[i] = convert(src[i]) from src_fmt to dst_fmt, rounding with rnd (integer results saturate,
 * NaN -> 0); int64 on either side (tx8/isa.h: the only CT instructions but SELECT's data that take it) ---- */
void CGRATensor_ConvertOp_V_V_convert(CT_Param *p, uint64_t src, uint64_t dst, uint32_t elem_num, Data_Format src_fmt, Data_Format dst_fmt, RND_MODE rnd);

/* ---- PoolOp, T (format POOL_2D): window max / average over image_num [in_h][in_w][channel_num] images, channels
 * innermost, into [out_h][out_w][channel_num]; geometry, padding and numerics in tx8/isa.h (Ncc_CT_GR_Pool_Regs).
 * max is exact; avg rounds once with rnd ---- */
void CGRATensor_PoolOp_T_max(CT_Param *p, uint64_t src, uint64_t dst, uint32_t image_num, uint32_t channel_num, const Ncc_CT_GR_Pool_Regs *geom, Data_Format fmt);
void CGRATensor_PoolOp_T_avg(CT_Param *p, uint64_t src, uint64_t dst, uint32_t image_num, uint32_t channel_num, const Ncc_CT_GR_Pool_Regs *geom, RND_MODE rnd, Data_Format fmt);

/* ---- The seed's function-pointer style: arith->addVS(&ct_param, …) ---- */
typedef void (*TsmArithVV)(CT_Param *, uint64_t, uint64_t, uint64_t, uint32_t, RND_MODE, Data_Format);
typedef void (*TsmArithVS)(CT_Param *, uint64_t, uint32_t, uint64_t, uint32_t, RND_MODE, Data_Format);
typedef struct TsmArith {
    TsmArithVV addVV, subVV, mulVV, divVV, maxVV, minVV;
    TsmArithVS addVS, subVS, mulVS, divVS, maxVS, minVS;
} TsmArith;
typedef struct TsmOpPointer {
    const TsmArith *arith_pointer;
} TsmOpPointer;
const TsmOpPointer *getTsmOpPointer(void);

#ifdef __cplusplus
}
#endif

#endif /* TX8_CGRA_H */
