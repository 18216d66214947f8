/* tour_html.c — the body of DIR/index.html: the lesson's sections in order,
 * each with its explanation, formula (MathML, drawn by the browser without
 * any network), judged claims, numbers and figures. No script. */
#include "tour.h"
#include "tour_lesson.h"

#include "posenc.h"

#include <string.h>
#include <unistd.h>

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

static const char *const style =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;"
    "line-height:1.55;max-width:980px;margin:2rem auto;padding:0 1rem;color:#111;background:#fff}\n"
    "header h1{font-size:1.8rem;margin-bottom:.3rem;line-height:1.25} .sub{color:#555;margin-top:0}\n"
    ".explore{display:inline-block;margin:.3rem 0;padding:.35rem .8rem;border:1px solid #0072b2;"
    "border-radius:4px;color:#0072b2;text-decoration:none;font-weight:600}\n"
    ".summary{font-weight:600} .summary.bad{color:#a50026}\n"
    "h2{margin-top:2.4rem;padding-top:.6rem;border-top:1px solid #e5e5e8;font-size:1.3rem}\n"
    ".intro{margin:.6rem 0} .formula{display:flex;flex-wrap:wrap;align-items:center;column-gap:1.6em;row-gap:.2rem;"
    "overflow-x:auto;overflow-y:hidden;margin:.6rem 0 1rem;padding:.3rem 0;font-size:1.15rem}\n"
    ".formula math{margin:0} .formula math.cut{margin-right:-1.3em}\n"
    ".more{font-size:.9rem;color:#555}\n"
    ".claim{margin:1.2rem 0 1.8rem} .say{display:flex;gap:.6rem;align-items:baseline;margin:.3rem 0}\n"
    ".n{flex:none;min-width:1.8rem;color:#0072b2;font-weight:700}\n"
    ".verdict{flex:none;font-size:.8rem;font-weight:700;padding:0 .4rem;border-radius:3px}\n"
    ".ok .verdict{color:#00603f;background:#e3f4ec} .failed .verdict{color:#fff;background:#a50026}\n"
    ".failed{border-left:4px solid #a50026;padding-left:.6rem}\n"
    ".num{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem;"
    "background:#f5f6f8;border-left:3px solid #0072b2;padding:.45rem .7rem;margin:.5rem 0;"
    "white-space:pre-wrap;overflow-wrap:anywhere}\n"
    ".tablewrap{overflow-x:auto;margin:.5rem 0} table{border-collapse:collapse;font-size:.85rem;"
    "font-variant-numeric:tabular-nums} th,td{padding:.15rem .45rem;text-align:right;white-space:nowrap}\n"
    "th:first-child,td:first-child{text-align:left;position:sticky;left:0;background:#fff}\n"
    "thead th{border-bottom:1px solid #999} td.split,th.split{border-left:1px solid #999}\n"
    "figure{margin:.8rem 0} img{max-width:100%;height:auto;border:1px solid #eee}\n"
    "nav ol{columns:2;font-size:.95rem;padding-left:1.4rem} footer{margin-top:3rem;color:#666;font-size:.9rem}\n"
    "@media (max-width:600px){body{margin:1rem auto;padding:0 .6rem} nav ol{columns:1}"
    " header h1{font-size:1.45rem} .formula{font-size:1rem} .num{font-size:.8rem} table{font-size:.75rem}"
    " .say{display:block} .n,.verdict{display:inline-block;margin-right:.4rem}"
    /* a figure 1200 px wide shrunk to a phone's 400 is unreadable: show it
     * at 760 px in a box that scrolls sideways (the image also links to
     * itself at full size) */
    " figure{overflow-x:auto} figure img{width:760px;max-width:none}"
    " figure::after{content:'scroll sideways, or tap for full size';display:block;font-size:.75rem;color:#666}}\n";

static void write_table(FILE *f, const tour_table *tb) {
    fputs("<div class=\"tablewrap\"><table>\n", f);
    for (int r = 0; r < tb->rows; r++) {
        fputs(r == 0 ? "<thead><tr>" : "<tr>", f);
        for (int c = 0; c < tb->cols; c++) {
            const char *tag = r == 0 ? "th" : "td";
            fprintf(f, "<%s%s>", tag, tb->split && c == tb->split ? " class=\"split\"" : "");
            html_text(f, tb->cell[r][c]);
            fprintf(f, "</%s>", tag);
        }
        fputs(r == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", f);
    }
    fputs("</tbody></table></div>\n", f);
}

static void write_claim(FILE *f, const tour_item *it, int number) {
    fprintf(f, "<div class=\"claim %s\" id=\"c%d\" data-key=\"%s\">\n<p class=\"say\"><span class=\"n\">%d</span>"
               "<span class=\"verdict\">%s</span><span>",
            it->holds ? "ok" : "failed", number, it->key, number, it->holds ? "✓ holds" : "✗ FAILED");
    html_text(f, it->claim);
    fputs("</span></p>\n<div class=\"num\">", f);
    html_text(f, it->number);
    fputs("</div>\n", f);
    if (it->table.rows > 0) write_table(f, &it->table);
    if (it->figure[0]) {
        /* the image links to itself: on a phone, tap for full size */
        fputs("<figure><a href=\"", f);
        html_text(f, it->figure);
        fputs("\"><img src=\"", f);
        html_text(f, it->figure);
        fputs("\" alt=\"", f);
        html_text(f, it->claim);
        fputs("\" loading=\"lazy\"></a></figure>\n", f);
    }
    fputs("</div>\n", f);
}

void tour_html_page(const tour *t, FILE *f) {
    fprintf(f,
            "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<title>posenc tour: positional encodings, checked claim by claim</title>\n<style>\n%s</style>\n"
            "</head>\n<body>\n<header>\n<h1>Positional encodings, checked claim by claim</h1>\n"
            "<p class=\"sub\">A walk from attention without order to rotary embeddings and their scaling. "
            "Every number below was computed by posenc %s when this page was made (<code>posenc tour</code>), "
            "every claim is a test of those numbers, and every figure is drawn from the same inputs.</p>\n",
            style, pe_version_string());
    /* The explorer is built by another step into DIR/explorer/: link it only
     * when it is there. */
    char explorer[1100];
    snprintf(explorer, sizeof explorer, "%s/explorer/index.html", t->dir ? t->dir : ".");
    if (access(explorer, R_OK) == 0)
        fputs("<p><a class=\"explore\" href=\"explorer/index.html\">Explore interactively</a></p>\n", f);
    const int held = t->n - t->failed;
    if (t->failed)
        fprintf(f, "<p class=\"summary bad\">%d of %d claims hold; %d FAILED (marked ✗ below).</p>\n",
                held, t->n, t->failed);
    else
        fprintf(f, "<p class=\"summary\">%d claims checked.</p>\n", held);
    fputs("</header>\n<nav><ol>\n", f);
    for (size_t s = 0; s < tour_section_count; s++) {
        int any = 0;
        for (int i = 0; i < t->n && !any; i++) any = strcmp(t->items[i].section, tour_sections[s].key) == 0;
        if (!any) continue;
        fprintf(f, "<li><a href=\"#%s\">", tour_sections[s].key);
        html_text(f, tour_sections[s].title);
        fputs("</a></li>\n", f);
    }
    fputs("</ol></nav>\n<main>\n", f);
    int sec = 0;
    for (size_t s = 0; s < tour_section_count; s++) {
        const tour_section *ts = &tour_sections[s];
        int any = 0;
        for (int i = 0; i < t->n && !any; i++) any = strcmp(t->items[i].section, ts->key) == 0;
        if (!any) continue;
        fprintf(f, "<section id=\"%s\">\n<h2>%d. ", ts->key, ++sec);
        html_text(f, ts->title);
        fputs("</h2>\n<p class=\"intro\">", f);
        html_text(f, ts->intro);
        fprintf(f, "</p>\n<div class=\"formula\">%s</div>\n", ts->formula);
        for (int i = 0; i < t->n; i++)
            if (strcmp(t->items[i].section, ts->key) == 0) write_claim(f, &t->items[i], i + 1);
        if (ts->source[0]) {
            fputs("<p class=\"more\">Read more: <a href=\"", f);
            html_text(f, ts->url);
            fputs("\">", f);
            html_text(f, ts->source);
            fputs("</a></p>\n", f);
        }
        fputs("</section>\n", f);
    }
    fprintf(f, "</main>\n<footer>posenc %s, kernels: %s. Regenerate with <code>posenc tour --out DIR</code>; "
               "draw one figure with other parameters with <code>posenc plot NAME</code>.</footer>\n"
               "</body>\n</html>\n",
            pe_version_string(), pe_kernels_name());
}
