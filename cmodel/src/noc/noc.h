/*
 * cmodel internals of the NoC: the DTE engine (noc/dte.c). Routes and link ids are public: tx8/cm_noc.h.
 */
#ifndef TX8_CM_NOC_INTERNAL_H
#define TX8_CM_NOC_INTERNAL_H

#include <stdint.h>

#include "cm_internal.h"
#include "sched/cm_cost.h"
#include "tx8/cm_noc.h"

/* Executes a DTE_Param issued by `tile`: validates every field and every byte range (source, and the destination
 * on each tile of the rectangle) before a byte moves, with a message naming "DTE" and the field; then copies the
 * box to every destination tile's SPM and describes the cost in *cost (kind CM_COST_DTE; spans: the source, and
 * the issuing tile's own destination range when it lies in the rectangle; other tiles' destinations are not
 * listed). */
cm_status cm_dte_execute(cm_chip *chip, uint32_t tile, const DTE_Param *p, cm_cost *cost, cm_error *err);

#endif /* TX8_CM_NOC_INTERNAL_H */
