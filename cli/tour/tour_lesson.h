/*
 * tour_lesson.h — the tour's sections in the design notes' order: a title,
 * a short explanation in the project's own words, the section's formula as
 * MathML (rendered by the browser, no network), and where to read more.
 */
#ifndef PE_CLI_TOUR_LESSON_H
#define PE_CLI_TOUR_LESSON_H

#include <stddef.h>

typedef struct {
    const char *key;      /* what claims name as their section */
    const char *title;
    const char *intro;    /* two or three sentences, plain text */
    const char *formula;  /* a <math display="block"> element */
    const char *source;   /* link text, "" for none */
    const char *url;
} tour_section;

extern const tour_section tour_sections[];
extern const size_t tour_section_count;

/* NULL if no section has that key. */
const tour_section *tour_section_find(const char *key);

#endif
