/*
 * The subset of the CMocka API our per-op suites use, for bare-metal RISC-V builds (Debian ships CMocka for the
 * host only). Same names, same semantics, same console format, so a test source builds unchanged against either:
 * a failed assertion prints what and where, ends the current test (longjmp) and runs its teardown; the group
 * returns the number of failed tests. Mocking (will_return, expect_*) is not provided.
 */
#ifndef TX8_BAREMETAL_CMOCKA_H
#define TX8_BAREMETAL_CMOCKA_H

#include <stddef.h>
#include <stdint.h>

typedef uintmax_t LargestIntegralType;
typedef void (*CMUnitTestFunction)(void **state);
typedef int (*CMFixtureFunction)(void **state);

struct CMUnitTest {
    const char *name;
    CMUnitTestFunction test_func;
    CMFixtureFunction setup_func;
    CMFixtureFunction teardown_func;
    void *initial_state;
};

#define cmocka_unit_test(f) {#f, f, NULL, NULL, NULL}
#define cmocka_unit_test_setup(f, setup) {#f, f, setup, NULL, NULL}
#define cmocka_unit_test_teardown(f, teardown) {#f, f, NULL, teardown, NULL}
#define cmocka_unit_test_setup_teardown(f, setup, teardown) {#f, f, setup, teardown, NULL}

#define cmocka_run_group_tests(tests, group_setup, group_teardown)                                                 \
    _cmocka_run_group_tests(#tests, tests, sizeof(tests) / sizeof((tests)[0]), group_setup, group_teardown)
#define cmocka_run_group_tests_name(name, tests, group_setup, group_teardown)                                      \
    _cmocka_run_group_tests(name, tests, sizeof(tests) / sizeof((tests)[0]), group_setup, group_teardown)

#define assert_true(c) _assert_true((LargestIntegralType)(!!(c)), #c, __FILE__, __LINE__)
#define assert_false(c) _assert_true((LargestIntegralType)(!(c)), "!(" #c ")", __FILE__, __LINE__)
#define assert_non_null(p) _assert_true((LargestIntegralType)((p) != NULL), #p " != NULL", __FILE__, __LINE__)
#define assert_null(p) _assert_true((LargestIntegralType)((p) == NULL), #p " == NULL", __FILE__, __LINE__)
#define assert_int_equal(a, b)                                                                                     \
    _assert_int_equal((LargestIntegralType)(a), (LargestIntegralType)(b), __FILE__, __LINE__)
#define assert_int_not_equal(a, b)                                                                                 \
    _assert_int_not_equal((LargestIntegralType)(a), (LargestIntegralType)(b), __FILE__, __LINE__)
#define assert_ptr_equal(a, b)                                                                                     \
    _assert_int_equal((LargestIntegralType)(uintptr_t)(a), (LargestIntegralType)(uintptr_t)(b), __FILE__, __LINE__)
#define assert_string_equal(a, b) _assert_string_equal((a), (b), __FILE__, __LINE__)
#define assert_memory_equal(a, b, size) _assert_memory_equal((const void *)(a), (const void *)(b), (size), __FILE__, __LINE__)
#define fail() _fail(__FILE__, __LINE__)
#define fail_msg(...)                                                                                               \
    do {                                                                                                           \
        print_error("ERROR: " __VA_ARGS__);                                                                        \
        print_error("\n");                                                                                         \
        fail();                                                                                                    \
    } while (0)

void print_message(const char *format, ...) __attribute__((format(printf, 1, 2)));
void print_error(const char *format, ...) __attribute__((format(printf, 1, 2)));

void _assert_true(LargestIntegralType result, const char *expression, const char *file, int line);
void _assert_int_equal(LargestIntegralType a, LargestIntegralType b, const char *file, int line);
void _assert_int_not_equal(LargestIntegralType a, LargestIntegralType b, const char *file, int line);
void _assert_string_equal(const char *a, const char *b, const char *file, int line);
void _assert_memory_equal(const void *a, const void *b, size_t size, const char *file, int line);
void _fail(const char *file, int line) __attribute__((noreturn));
int _cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *tests, size_t count,
                            CMFixtureFunction group_setup, CMFixtureFunction group_teardown);

#endif /* TX8_BAREMETAL_CMOCKA_H */
