// The host API lives in <hip/hip_runtime.h> on the cpu device.
#include "hip/hip_runtime.h"
