/*
 * output.h — how the CLI prints numbers and matrices: tables for people,
 * CSV and JSON for programs, .npy for numpy. No math here.
 */
#ifndef PE_CLI_OUTPUT_H
#define PE_CLI_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

typedef enum { OUT_TABLE = 0, OUT_CSV = 1, OUT_JSON = 2, OUT_NPY = 3 } out_format;

/* A JSON number with 17 significant digits that always reads as a float
 * ("1.0", not "1"); non-finite values become null (JSON has no NaN). */
void out_json_number(FILE *f, double v);
/* A JSON string with the necessary escapes. */
void out_json_string(FILE *f, const char *s);
void out_json_int_array(FILE *f, const int64_t *v, int64_t n);
void out_json_number_array(FILE *f, const double *v, int64_t n);

/* Rows labelled by position: table (aligned, 6 decimals), CSV (header
 * "position,c0,c1,...", 17 significant digits) or the "values" JSON array of
 * arrays (the caller writes the surrounding object). */
void out_rows_table(FILE *f, const char *label, const int64_t *labels,
                    const double *values, int64_t rows, int64_t cols);
void out_rows_csv(FILE *f, const char *label, const int64_t *labels,
                  const double *values, int64_t rows, int64_t cols);
void out_rows_json(FILE *f, const double *values, int64_t rows, int64_t cols);

#endif
