// Same as <hip/hip_bf16.h> on the cpu device.
#include "hip/hip_bf16.h"
