// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the bounded copies of the securec library (c_sec) that CANN samples' host code calls.
// Each checks its sizes first and returns 0 (EOK) on success, a non-zero code otherwise, copying
// nothing then; they are written from the documented contract, not from securec.
#include <cerrno>
#include <cstddef>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;

inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  if (dest == nullptr || (src == nullptr && count != 0)) return EINVAL;
  if (count > destMax) return ERANGE;
  if (count != 0) std::memmove(dest, src, count);
  return EOK;
}
inline errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  return memcpy_s(dest, destMax, src, count);
}
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (dest == nullptr) return EINVAL;
  if (count > destMax) return ERANGE;
  if (count != 0) std::memset(dest, c, count);
  return EOK;
}
