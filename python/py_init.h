/*
 * py_init.h — each area of the binding registers its functions with
 * PyInit_posenc (module.c) through one of these; each returns 0, or -1 with
 * an exception set. Only module.c calls them, so the areas (py_*.c) and
 * their shared helpers (posenc_py.h) never depend on module.c.
 */
#ifndef POSENC_PY_INIT_H
#define POSENC_PY_INIT_H

#include "posenc_py.h"

int py_init_freqs(PyObject *m);
int py_init_rope(PyObject *m);
int py_init_encode(PyObject *m);
int py_init_bias(PyObject *m);
int py_init_analysis(PyObject *m);
int py_init_io(PyObject *m);
int py_init_plan(PyObject *m);
int py_init_check(PyObject *m);
int py_init_dlpack(PyObject *m);
int py_init_tables(PyObject *m);
int py_init_fused(PyObject *m);
int py_init_pool(PyObject *m);
/* last: wraps the functions registered before it (torch in, torch out) */
int py_init_torch(PyObject *m);

#endif
