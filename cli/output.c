/* output.c — number and matrix formatting for the CLI. */
#include "output.h"

#include <math.h>
#include <string.h>

void out_json_number(FILE *f, double v) {
    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    char buf[40];
    snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, f);
    if (strpbrk(buf, ".eE") == NULL) fputs(".0", f);
}

void out_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

void out_json_int_array(FILE *f, const int64_t *v, int64_t n) {
    fputc('[', f);
    for (int64_t i = 0; i < n; i++) fprintf(f, "%s%lld", i ? ", " : "", (long long)v[i]);
    fputc(']', f);
}

void out_json_number_array(FILE *f, const double *v, int64_t n) {
    fputc('[', f);
    for (int64_t i = 0; i < n; i++) {
        if (i) fputs(", ", f);
        out_json_number(f, v[i]);
    }
    fputc(']', f);
}

void out_rows_table(FILE *f, const char *label, const int64_t *labels,
                    const double *values, int64_t rows, int64_t cols) {
    fprintf(f, "%10s", label);
    for (int64_t j = 0; j < cols; j++) {
        char h[24];
        snprintf(h, sizeof h, "[%lld]", (long long)j);
        fprintf(f, " %12s", h);
    }
    fputc('\n', f);
    for (int64_t r = 0; r < rows; r++) {
        fprintf(f, "%10lld", (long long)labels[r]);
        for (int64_t j = 0; j < cols; j++) {
            double v = values[r * cols + j];
            if (fabs(v) < 1e7)
                fprintf(f, " %12.6f", v);
            else
                fprintf(f, " %12.5e", v);
        }
        fputc('\n', f);
    }
}

void out_rows_csv(FILE *f, const char *label, const int64_t *labels,
                  const double *values, int64_t rows, int64_t cols) {
    fputs(label, f);
    for (int64_t j = 0; j < cols; j++) fprintf(f, ",c%lld", (long long)j);
    fputc('\n', f);
    for (int64_t r = 0; r < rows; r++) {
        fprintf(f, "%lld", (long long)labels[r]);
        for (int64_t j = 0; j < cols; j++) fprintf(f, ",%.17g", values[r * cols + j]);
        fputc('\n', f);
    }
}

void out_rows_json(FILE *f, const double *values, int64_t rows, int64_t cols) {
    fputc('[', f);
    for (int64_t r = 0; r < rows; r++) {
        if (r) fputs(", ", f);
        out_json_number_array(f, values + r * cols, cols);
    }
    fputc(']', f);
}
