/* PLACEHOLDER: replaced when the CGRA wrappers land. */
typedef int tx8_oplib_placeholder;
