/*
 * Issuing a kernel's instructions one after another (internal to OpLib's ops).
 *   ISSUE(total, cycles)  adds one instruction's cycles to `total` (cycles, ADD_VALID_CYCLE); after a fault (an
 *                         instruction returned TX8_CYCLES_INVALID) the op returns it and issues nothing more.
 *   RNE                   the rounding of every conversion and arithmetic step that rounds: nearest, ties to even.
 */
#ifndef TX8_OPLIB_OPS_ISSUE_H
#define TX8_OPLIB_OPS_ISSUE_H

#include "tx8/dtype.h"
#include "tx8/hal.h"
#include "tx8/tsm.h"

#define ISSUE(total, cycles)                                    \
    do {                                                        \
        (total) = ADD_VALID_CYCLE((total), (cycles));           \
        if ((total) == TX8_CYCLES_INVALID) return (total);      \
    } while (0)

#define RNE RND_NEAREST_EVEN

#endif /* TX8_OPLIB_OPS_ISSUE_H */
