/*
 * getTsmOpPointer(): the seed's function-pointer access to the wrappers (arith->addVS(&ct_param, …)).
 * The tables are static const: nothing to initialise, safe from every tile thread.
 */
#include "tx8/cgra.h"

static const TsmArith kArith = {
    CGRATensor_ArithOp_V_V_add, CGRATensor_ArithOp_V_V_sub, CGRATensor_ArithOp_V_V_mul,
    CGRATensor_ArithOp_V_V_div, CGRATensor_ArithOp_V_V_max, CGRATensor_ArithOp_V_V_min,
    CGRATensor_ArithOp_V_S_add, CGRATensor_ArithOp_V_S_sub, CGRATensor_ArithOp_V_S_mul,
    CGRATensor_ArithOp_V_S_div, CGRATensor_ArithOp_V_S_max, CGRATensor_ArithOp_V_S_min,
};

static const TsmOpPointer kOpPointer = {&kArith};

const TsmOpPointer *getTsmOpPointer(void) { return &kOpPointer; }
