/* Bare-metal CMocka subset: see cmocka.h. Single-threaded: tests run on hart 0. */
#include "cmocka.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf g_test_exit; /* where a failed assertion returns to */
static int g_in_test;

void print_message(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
}

void print_error(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    vprintf(format, ap);
    va_end(ap);
}

void _fail(const char *file, int line) {
    printf("[   LINE   ] --- %s:%d: error: Failure!\n", file, line);
    if (g_in_test) longjmp(g_test_exit, 1);
    printf("[  FAILED  ] assertion outside a test\n");
    exit(1);
}

void _assert_true(LargestIntegralType result, const char *expression, const char *file, int line) {
    if (!result) {
        printf("[   ERROR  ] --- %s\n", expression);
        _fail(file, line);
    }
}

void _assert_int_equal(LargestIntegralType a, LargestIntegralType b, const char *file, int line) {
    if (a != b) {
        printf("[   ERROR  ] --- %#llx != %#llx\n", (unsigned long long)a, (unsigned long long)b);
        _fail(file, line);
    }
}

void _assert_int_not_equal(LargestIntegralType a, LargestIntegralType b, const char *file, int line) {
    if (a == b) {
        printf("[   ERROR  ] --- %#llx == %#llx\n", (unsigned long long)a, (unsigned long long)b);
        _fail(file, line);
    }
}

void _assert_string_equal(const char *a, const char *b, const char *file, int line) {
    if (strcmp(a, b) != 0) {
        printf("[   ERROR  ] --- \"%s\" != \"%s\"\n", a, b);
        _fail(file, line);
    }
}

void _assert_memory_equal(const void *a, const void *b, size_t size, const char *file, int line) {
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    size_t differ = 0, first = 0;
    for (size_t i = 0; i < size; ++i)
        if (x[i] != y[i] && differ++ == 0) first = i;
    if (differ) {
        printf("[   ERROR  ] --- %zu of %zu bytes differ; first at offset %zu: 0x%02x != 0x%02x\n", differ, size,
               first, x[first], y[first]);
        _fail(file, line);
    }
}

static void *g_state; /* the running test's state: not a local, so longjmp cannot clobber it */

static int run_one(const struct CMUnitTest *t) {
    volatile int ok = 1;
    g_state = t->initial_state;
    printf("[ RUN      ] %s\n", t->name);
    g_in_test = 1;
    if (setjmp(g_test_exit) == 0) {
        if (t->setup_func && t->setup_func(&g_state) != 0) {
            printf("[  ERROR   ] %s: setup failed\n", t->name);
            g_in_test = 0;
            return 0;
        }
        t->test_func(&g_state);
    } else {
        ok = 0;
    }
    g_in_test = 0;
    if (t->teardown_func && t->teardown_func(&g_state) != 0) {
        printf("[  ERROR   ] %s: teardown failed\n", t->name);
        ok = 0;
    }
    printf(ok ? "[       OK ] %s\n" : "[  FAILED  ] %s\n", t->name);
    return ok;
}

int _cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *tests, size_t count,
                            CMFixtureFunction group_setup, CMFixtureFunction group_teardown) {
    void *group_state = NULL;
    size_t failed = 0;
    printf("[==========] %s: Running %zu test(s).\n", group_name, count);
    if (group_setup && group_setup(&group_state) != 0) {
        printf("[  ERROR   ] %s: group setup failed\n", group_name);
        return (int)count;
    }
    for (size_t i = 0; i < count; ++i) failed += !run_one(&tests[i]);
    if (group_teardown) group_teardown(&group_state);
    printf("[==========] %s: %zu test(s) run.\n", group_name, count);
    printf("[  PASSED  ] %zu test(s).\n", count - failed);
    if (failed) printf("[  FAILED  ] %zu test(s).\n", failed);
    return (int)failed;
}
