// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the ACL host subset the samples use (the kernel-launch samples' data_utils.h includes
// acl/acl.h even in CPU mode; the `.asc` samples manage memory with it). Device memory (aclrtMalloc) is
// emulator GM, shared with the forked blocks; host memory (aclrtMallocHost) is ordinary memory that a
// kernel launched with <<<>>> or ACLRT_LAUNCH_KERNEL cannot reach, as on a device; aclrtMemcpy really
// copies and checks that its kind matches where the pointers live (docs/emulator.md, "Launch forms").
// Init, device, context and stream calls succeed without doing anything; launches are synchronous.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "kwb_sim/fp16.h"
#include "kwb_sim/host.h"
#include "kwb_sim/runtime.h"

typedef int aclError;
typedef uint16_t aclFloat16;
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_BAD_ALLOC = 200000;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

typedef enum aclrtRunMode { ACL_DEVICE = 0, ACL_HOST } aclrtRunMode;

typedef enum aclDataType {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_BF16 = 27,
} aclDataType;

inline float aclFloat16ToFloat(aclFloat16 value) {
  return kwb_sim::half::toFloat(value);
}
inline aclFloat16 aclFloatToFloat16(float value) {
  return kwb_sim::half::fromFloat(value);
}

inline aclError aclInit(const char* = nullptr) {
  return ACL_SUCCESS;
}
inline aclError aclFinalize() {
  return ACL_SUCCESS;
}
inline aclError aclrtSetDevice(int32_t) {
  return ACL_SUCCESS;
}
inline aclError aclrtResetDevice(int32_t) {
  return ACL_SUCCESS;
}
inline aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count) *count = 1;
  return ACL_SUCCESS;
}
inline aclError aclrtGetRunMode(aclrtRunMode* mode) {
  if (mode) *mode = ACL_HOST;
  return ACL_SUCCESS;
}
inline aclError aclrtCreateContext(aclrtContext* ctx, int32_t) {
  if (ctx) *ctx = nullptr;
  return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext) {
  return ACL_SUCCESS;
}
inline aclError aclrtSetCurrentContext(aclrtContext) {
  return ACL_SUCCESS;
}
inline aclError aclrtCreateStream(aclrtStream* stream) {
  if (stream) *stream = nullptr;
  return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream) {
  return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeStream(aclrtStream) {
  return ACL_SUCCESS;
}
inline aclError aclrtSynchronizeDevice() {
  return ACL_SUCCESS;
}
inline const char* aclGetRecentErrMsg() {
  return "";
}

inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy = ACL_MEM_MALLOC_HUGE_FIRST) {
  if (!devPtr) return ACL_ERROR_INVALID_PARAM;
  *devPtr = kwb_sim::gmAlloc(size);
  return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
  if (!hostPtr) return ACL_ERROR_INVALID_PARAM;
  // Page-aligned like pinned host memory; never inside the emulator's device memory.
  const size_t rounded = (size + 4095) / 4096 * 4096;
  *hostPtr = std::aligned_alloc(4096, rounded == 0 ? 4096 : rounded);
  if (*hostPtr) kwb_sim::registerHostBuffer(*hostPtr, rounded == 0 ? 4096 : rounded);
  return *hostPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* devPtr) {
  kwb_sim::gmFree(devPtr);
  return ACL_SUCCESS;
}
inline aclError aclrtFreeHost(void* hostPtr) {
  kwb_sim::unregisterHostBuffer(hostPtr);
  std::free(hostPtr);
  return ACL_SUCCESS;
}

namespace kwb_sim {
inline aclError aclCopyError(const char* api, const char* what) {
  std::fprintf(stderr, "[ERROR][kwb-sim] %s: %s\n", api, what);
  return ACL_ERROR_INVALID_PARAM;
}
// The checks a device runtime makes before a copy: sizes, and each side in the memory its kind names.
inline aclError aclCheckCopy(const char* api, void* dst, size_t destMax, const void* src, size_t count,
                             aclrtMemcpyKind kind) {
  if (count > destMax) return aclCopyError(api, "count is larger than destMax");
  if (count && (!dst || !src)) return aclCopyError(api, "a null pointer with a non-zero count");
  const bool dstDevice = gmKnown(dst), srcDevice = gmKnown(src);
  const bool wantDstDevice = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  const bool wantSrcDevice = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
  if (kind != ACL_MEMCPY_DEFAULT) {
    if (dstDevice != wantDstDevice)
      return aclCopyError(api, wantDstDevice
                                   ? "the kind copies to the device, but dst is not aclrtMalloc memory"
                                   : "the kind copies to the host, but dst is device memory");
    if (srcDevice != wantSrcDevice)
      return aclCopyError(api, wantSrcDevice
                                   ? "the kind copies from the device, but src is not aclrtMalloc memory"
                                   : "the kind copies from the host, but src is device memory");
  }
  if (dstDevice && gmBytesFrom(dst) < count)
    return aclCopyError(api, "the copy runs past the end of the destination's aclrtMalloc buffer");
  if (srcDevice && gmBytesFrom(src) < count)
    return aclCopyError(api, "the copy reads past the end of the source's aclrtMalloc buffer");
  return ACL_SUCCESS;
}
}  // namespace kwb_sim

inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  const aclError e = kwb_sim::aclCheckCopy("aclrtMemcpy", dst, destMax, src, count, kind);
  if (e != ACL_SUCCESS) return e;
  if (count) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                                 aclrtMemcpyKind kind, aclrtStream) {
  return aclrtMemcpy(dst, destMax, src, count, kind);
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (count > maxCount || (!devPtr && count)) return ACL_ERROR_INVALID_PARAM;
  if (kwb_sim::gmKnown(devPtr) && kwb_sim::gmBytesFrom(devPtr) < count)
    return kwb_sim::aclCopyError("aclrtMemset", "the count runs past the end of the aclrtMalloc buffer");
  if (count) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}
inline aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream) {
  return aclrtMemset(devPtr, maxCount, value, count);
}
