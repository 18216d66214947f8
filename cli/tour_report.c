/* tour_report.c — recording the tour's claims, drawing their figures, and the
 * static index.html that presents them (no script, no network). */
#include "tour.h"

#include "atomic_file.h"
#include "figures.h"
#include "posenc.h"

#include <stdarg.h>
#include <string.h>

int tour_fail(tour *t, int status) {
    if (t->err[0] == '\0')
        snprintf(t->err, sizeof t->err, "%s: %s", pe_strerror(status), pe_last_error());
    return status;
}

int tour_claim(tour *t, const char *section, const char *claim, const char *figure, const char *fmt, ...) {
    if (t->n >= TOUR_MAX_ITEMS) {
        snprintf(t->err, sizeof t->err, "too many claims (raise TOUR_MAX_ITEMS)");
        return -1;
    }
    tour_item *it = &t->items[t->n];
    it->section = section;
    snprintf(it->claim, sizeof it->claim, "%s", claim);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(it->number, sizeof it->number, fmt, ap);
    va_end(ap);
    it->figure[0] = '\0';
    if (t->n == 0 || strcmp(t->items[t->n - 1].section, section) != 0) printf("\n%s\n", section);
    t->n++;
    printf("[%d] %s\n    %s\n", t->n, it->claim, it->number);
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
        printf("    figure: %s\n", path);
    }
    fflush(stdout);
    return 0;
}

static void html_text(FILE *f, const char *s) {
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

int tour_write_html(const tour *t, const char *path) {
    char err[1024];
    FILE *f = atomic_open(path, err, sizeof err);
    if (f == NULL) return -1;
    fprintf(f,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>posenc tour: positional encodings, claim by claim</title>\n<style>\n"
            "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
            "line-height:1.55;max-width:980px;margin:2.5rem auto;padding:0 1.2rem;color:#111;background:#fff}\n"
            "h1{font-size:1.8rem;margin-bottom:.3rem} .sub{color:#555;margin-top:0}\n"
            "h2{margin-top:2.4rem;padding-top:.6rem;border-top:1px solid #e5e5e8;font-size:1.3rem}\n"
            ".claim{margin:1.3rem 0 1.8rem} .claim p{margin:.3rem 0}\n"
            ".n{display:inline-block;min-width:2.2rem;color:#0072b2;font-weight:700}\n"
            ".num{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92rem;"
            "background:#f5f6f8;border-left:3px solid #0072b2;padding:.45rem .7rem;margin:.5rem 0;"
            "white-space:pre-wrap}\n"
            "figure{margin:.8rem 0} img{max-width:100%%;height:auto;border:1px solid #eee}\n"
            "nav ol{columns:2;font-size:.95rem} footer{margin-top:3rem;color:#666;font-size:.9rem}\n"
            "</style>\n</head>\n<body>\n"
            "<h1>Positional encodings, claim by claim</h1>\n"
            "<p class=\"sub\">Every number below was computed by posenc %s when this page was made "
            "(<code>posenc tour</code>); every figure is drawn from the same library calls.</p>\n<nav><ol>\n",
            pe_version_string());
    const char *last = NULL;
    int sec = 0;
    for (int i = 0; i < t->n; i++)
        if (last == NULL || strcmp(last, t->items[i].section) != 0) {
            last = t->items[i].section;
            fprintf(f, "<li><a href=\"#s%d\">", ++sec);
            html_text(f, last);
            fputs("</a></li>\n", f);
        }
    fputs("</ol></nav>\n", f);
    last = NULL;
    sec = 0;
    for (int i = 0; i < t->n; i++) {
        const tour_item *it = &t->items[i];
        if (last == NULL || strcmp(last, it->section) != 0) {
            last = it->section;
            fprintf(f, "<h2 id=\"s%d\">", ++sec);
            html_text(f, last);
            fputs("</h2>\n", f);
        }
        fprintf(f, "<div class=\"claim\" id=\"c%d\">\n<p><span class=\"n\">[%d]</span>", i + 1, i + 1);
        html_text(f, it->claim);
        fputs("</p>\n<div class=\"num\">", f);
        html_text(f, it->number);
        fputs("</div>\n", f);
        if (it->figure[0]) {
            fputs("<figure><img src=\"", f);
            html_text(f, it->figure);
            fputs("\" alt=\"", f);
            html_text(f, it->claim);
            fputs("\" loading=\"lazy\"></figure>\n", f);
        }
        fputs("</div>\n", f);
    }
    fprintf(f, "<footer>posenc %s, kernels: %s. Regenerate with <code>posenc tour --out DIR</code>.</footer>\n"
               "</body>\n</html>\n",
            pe_version_string(), pe_kernels_name());
    return atomic_close(f, true, err, sizeof err);
}
