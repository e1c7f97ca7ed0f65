/* The kta launch ABI: what a launcher-mode candidate receives. A launcher is a HIP translation
   unit exporting   extern "C" int kta_launch(const kta_call* call);
   that launches its kernels on call->stream and returns 0 on success. Plain C so that every
   compiler (host, hipcc, nvcc, NVRTC prelude) agrees on the layout. */
#ifndef KTA_LAUNCH_H
#define KTA_LAUNCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum kta_dtype {
  KTA_F16 = 0,
  KTA_BF16,
  KTA_F32,
  KTA_F64,
  KTA_I8,
  KTA_I32,
  KTA_I64,
  KTA_U8,
  KTA_BOOL,
  KTA_U32,
  KTA_U64
};

#define KTA_MAX_DIMS 8

/* One tensor: contiguous, row-major, on the device. */
typedef struct kta_tensor {
  const char* name;
  void* data;
  int32_t dtype; /* enum kta_dtype */
  int32_t ndim;
  int64_t shape[KTA_MAX_DIMS];
} kta_tensor;

/* One scalar parameter: integers in i, floating point in f, by the declared type. */
typedef struct kta_param {
  const char* name;
  int32_t is_float;
  int64_t i;
  double f;
} kta_param;

typedef struct kta_call {
  int32_t abi_version; /* KTA_ABI_VERSION */
  int32_t num_tensors;
  const kta_tensor* tensors; /* in the task's declaration order */
  int32_t num_params;
  const kta_param* params; /* in the task's declaration order */
  void* stream;            /* hipStream_t to launch on */
} kta_call;

#define KTA_ABI_VERSION 1

#ifdef __cplusplus
}
#endif

#endif /* KTA_LAUNCH_H */
