// Device assert on the cpu device: a failed assertion fails the launch with its source line
// instead of aborting the process. Deliberately without an include guard, like <assert.h>: the
// cpu device includes it again wherever a candidate includes <cassert> or <assert.h>.
#include <cassert>

#include "kta/cpu_runtime.h"

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) \
  ((e) ? (void)0 : kta_rt_fail("device assertion '" #e "' failed", __FILE__, __LINE__))
#endif
