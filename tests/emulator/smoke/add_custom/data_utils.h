// Trimmed copy of the shape of the samples' data_utils.h: includes acl/acl.h even in CPU mode.
#pragma once
#include <cstdint>
#include <cstdio>
#include "acl/acl.h"
#define CHECK_ACL(x)                                                                      \
  do {                                                                                    \
    aclError __ret = x;                                                                   \
    if (__ret != ACL_ERROR_NONE) std::printf("%s:%d aclError:%d\n", __FILE__, __LINE__, __ret); \
  } while (0)
