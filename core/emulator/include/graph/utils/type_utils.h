// SPDX-License-Identifier: MIT
#pragma once
// The one helper of GE's graph/utils/type_utils.h that operator TilingFuncs call: the byte size of a
// ge::DataType (docs/emulator.md, "Operator projects").
#include <cstdint>

#include "kwb_op/ge_types.h"

namespace ge {

struct TypeUtils {
  // False (and `length` untouched) for a type without a fixed byte size (DT_STRING, DT_UNDEFINED).
  static bool GetDataTypeLength(DataType type, uint32_t& length) {
    switch (type) {
      case DT_INT8:
      case DT_UINT8:
      case DT_BOOL:
        length = 1;
        return true;
      case DT_FLOAT16:
      case DT_BF16:
      case DT_INT16:
      case DT_UINT16:
        length = 2;
        return true;
      case DT_FLOAT:
      case DT_INT32:
      case DT_UINT32:
        length = 4;
        return true;
      case DT_INT64:
      case DT_UINT64:
      case DT_DOUBLE:
      case DT_COMPLEX64:
        length = 8;
        return true;
      case DT_COMPLEX128:
        length = 16;
        return true;
      default:
        return false;
    }
  }
};

}  // namespace ge
