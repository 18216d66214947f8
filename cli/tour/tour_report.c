/* tour_report.c — recording the tour's judged claims, drawing their
 * figures, the test-only fault that makes a predicate fail, and the file
 * index.html is written to (tour_html.c writes its body). */
#include "tour.h"

#include "../atomic_file.h"
#include "../figures/figures.h"
#include "tour_lesson.h"
#include "posenc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int tour_fail(tour *t, int status) {
    if (t->err[0] == '\0')
        snprintf(t->err, sizeof t->err, "%s: %s", pe_strerror(status), pe_last_error());
    return status;
}

int tour_set_fault(tour *t, const char *spec) {
    const char *colon = strchr(spec, ':');
    if (colon == NULL || colon == spec || (size_t)(colon - spec) >= sizeof t->fault_key) return -1;
    char *end = NULL;
    long index = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end != '=' || index < 0 || index > 1000) return -1;
    char *vend = NULL;
    double value = strtod(end + 1, &vend);
    if (vend == end + 1 || *vend != '\0') return -1;
    memcpy(t->fault_key, spec, (size_t)(colon - spec));
    t->fault_key[colon - spec] = '\0';
    t->fault_index = (int)index;
    t->fault_value = value;
    return 0;
}

void tour_inputs(tour *t, const char *key, double *inputs, size_t n) {
    if (t->fault_key[0] == '\0' || strcmp(t->fault_key, key) != 0) return;
    if ((size_t)t->fault_index < n) {
        inputs[t->fault_index] = t->fault_value;
        t->fault_used = 1;
    }
}

tour_item *tour_last(tour *t) { return t->n > 0 ? &t->items[t->n - 1] : NULL; }

int tour_claim(tour *t, const char *section, const char *key, int holds, const char *figure,
               const char *sentence, const char *fmt, ...) {
    if (t->n >= TOUR_MAX_ITEMS) {
        snprintf(t->err, sizeof t->err, "too many claims (raise TOUR_MAX_ITEMS)");
        return -1;
    }
    FILE *out = t->out ? t->out : stdout;
    tour_item *it = &t->items[t->n];
    memset(it, 0, sizeof *it);
    it->section = section;
    it->key = key;
    it->holds = holds != 0;
    snprintf(it->claim, sizeof it->claim, "%s", sentence);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->number, sizeof it->number, fmt, ap);
    va_end(ap);
    if (t->n == 0 || strcmp(t->items[t->n - 1].section, section) != 0) {
        const tour_section *ts = tour_section_find(section);
        fprintf(out, "\n%s\n", ts ? ts->title : section);
    }
    t->n++;
    if (!it->holds) t->failed++;
    fprintf(out, "[%d] %s%s\n    %s\n", t->n, it->holds ? "" : "FAILED: ", it->claim, it->number);
    if (figure && t->draw) {
        const figure_entry *fe = figure_find(figure);
        if (fe == NULL) {
            snprintf(t->err, sizeof t->err, "no figure named %s", figure);
            return -1;
        }
        char path[1024];
        snprintf(it->figure, sizeof it->figure, "%s.png", figure);
        snprintf(path, sizeof path, "%s/%s", t->dir, it->figure);
        figure_opts o;
        memset(&o, 0, sizeof o);
        if (fe->draw(&o, path, t->err, sizeof t->err) != 0) return -1;
        fprintf(out, "    figure: %s\n", path);
    }
    fflush(out);
    return 0;
}

int tour_write_html(const tour *t, const char *path, char *err, size_t errlen) {
    FILE *f = atomic_open(path, err, errlen);
    if (f == NULL) return -1;
    tour_html_page(t, f);
    return atomic_close(f, true, err, errlen);
}
