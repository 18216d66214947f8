/* net_f64.c — the model in double precision, only for the tests: the same
 * source as the float32 model that trains (experiment/net_f32.c), so the
 * finite-difference checks run on the code that ships. */
#define EX_R double
#define EX_S f64
#define EX_IS_F64 1
#include "../../experiment/layers_impl.h"
#include "../../experiment/net_impl.h"
