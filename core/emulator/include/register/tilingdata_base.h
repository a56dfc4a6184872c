// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the TilingData definition macros of a CANN operator project (op_host/<op>_tiling.h),
// for the host tiling and, through GET_TILING_DATA (kernel_operator.h), for the kernel.
//
// One class serves both sides, and its C++ layout is the byte layout CANN's TilingDef serialises
// (docs/emulator.md, "Operator projects"): fields in declaration order, each scalar aligned to its own
// size, an array to its element's size, a nested TilingData struct to 8 bytes, and the whole padded to
// a multiple of 8 bytes. `alignas(8)` on the class gives exactly that with the natural alignment of
// the allowed field types. Padding is zero (the constructor clears the object), so SaveToBuffer's
// bytes are deterministic.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace optiling {

// The field types CANN's TILING_DATA_FIELD_DEF accepts (int8..uint64, float), and bool, which public
// op projects use as well.
template <typename T>
inline constexpr bool KwbIsTilingFieldType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, bool>;

}  // namespace optiling

// The macro arguments are a class name, field types and field names: parenthesised they would not
// compile.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define BEGIN_TILING_DATA_DEF(class_name)                                       \
  class alignas(8) class_name {                                                 \
   public:                                                                      \
    static constexpr bool kwbIsTilingData = true;                               \
    class_name() { ::memset(static_cast<void*>(this), 0, sizeof(class_name)); } \
    void SaveToBuffer(void* kwbData, size_t kwbCapacity) const {                \
      if (kwbData != nullptr && kwbCapacity >= sizeof(class_name))              \
        ::memcpy(kwbData, static_cast<const void*>(this), sizeof(class_name));  \
    }                                                                           \
    size_t GetDataSize() const { return sizeof(class_name); }

#define TILING_DATA_FIELD_DEF(data_type, field_name)                                             \
 public:                                                                                         \
  static_assert(::optiling::KwbIsTilingFieldType<data_type>,                                     \
                "kwb-sim: unsupported-dtype: TILING_DATA_FIELD_DEF(" #data_type ", " #field_name \
                "): a tiling field is int8_t..uint64_t, float or bool");                         \
  data_type field_name;                                                                          \
  void set_##field_name(data_type kwbValue) {                                                    \
    field_name = kwbValue;                                                                       \
  }                                                                                              \
  data_type get_##field_name() const {                                                           \
    return field_name;                                                                           \
  }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)                                 \
 public:                                                                                          \
  static_assert(::optiling::KwbIsTilingFieldType<arr_type>,                                       \
                "kwb-sim: unsupported-dtype: TILING_DATA_FIELD_DEF_ARR(" #arr_type ", " #arr_size \
                ", " #field_name "): an array element is int8_t..uint64_t, float or bool");       \
  arr_type field_name[arr_size];                                                                  \
  void set_##field_name(const arr_type* kwbValues) {                                              \
    if (kwbValues != nullptr) ::memcpy(field_name, kwbValues, sizeof(field_name));                \
  }                                                                                               \
  arr_type* get_##field_name() {                                                                  \
    return field_name;                                                                            \
  }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)                                      \
 public:                                                                                           \
  static_assert(struct_type::kwbIsTilingData,                                                      \
                "kwb-sim: TILING_DATA_FIELD_DEF_STRUCT(" #struct_type ", " #field_name             \
                "): the struct must be defined with BEGIN_TILING_DATA_DEF");                       \
  struct_type field_name;                                                                          \
  /* ends in a function body, so that the `;` projects write after the macro is no empty member */ \
  const struct_type& kwb_get_##field_name() const {                                                \
    return field_name;                                                                             \
  }

#define END_TILING_DATA_DEF \
  }                         \
  ;
// NOLINTEND(bugprone-macro-parentheses)

// CANN registers the class with its operator type (or `<Struct>Op` for a nested struct). The kernel's
// GET_TILING_DATA type comes from the build (KWB_OP_TILING_DATA, core/toolchain/OpProjectForm.h), so
// here it is only checked. A namespace block, so that it ends with or without the `;` projects write.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                            \
  namespace kwb_registered_tiling_##op_type {                                      \
    static_assert(class_name::kwbIsTilingData && sizeof(class_name) % 8 == 0,      \
                  "kwb-sim: REGISTER_TILING_DATA_CLASS(" #op_type ", " #class_name \
                  "): register a class defined with BEGIN_TILING_DATA_DEF");       \
  }
