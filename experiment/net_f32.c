/* net_f32.c — the float32 model that trains and evaluates: layers_impl.h
 * and net_impl.h instantiated for float (the float64 twin the gradient
 * checks use is tests/experiment/net_f64.c). */
#define EX_R float
#define EX_S f32
#define EX_IS_F64 0
#include "layers_impl.h"
#include "net_impl.h"
