/* Error reporting of the cmodel: one formatted message per failure, no allocation. */
#include <stdarg.h>
#include <stdio.h>

#include "cm_internal.h"

cm_status cm_fail(cm_error *err, cm_status code, const char *fmt, ...) {
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof(err->message), fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}
