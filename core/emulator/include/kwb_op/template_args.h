// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: tiling template programming (docs/emulator.md, "Template tiling keys"). An operator
// project declares its kernel's template arguments with ASCENDC_TPL_ARGS_DECL and the combinations it
// builds with ASCENDC_TPL_SEL, usually in an op_kernel header both sides include; the TilingFunc turns
// the values it chose into the tiling key with GET_TPL_TILING_KEY / ASCENDC_TPL_SEL_PARAM, and the
// launch runs the kernel instance compiled for that key.
//
// Here both tables are constexpr arrays, the same on the host and in the kernel unit: the host encodes
// the key from them at run time, and the kernel unit's generated entry (kwb_op/template_dispatch.h)
// compiles one instance per selected combination and runs the one whose key matches.
//
// The key, as the reference encodes it: the declared arguments in order from bit 0, each taking its
// bit width (DTYPE/DATATYPE/FORMAT 8, BOOL 1, UINT its own); a UINT argument contributes the position
// of its value in its expanded declaration (RANGE pairs expanded, LIST as written, MIX ranges then the
// list), every other argument its value. More than 64 bits, or a UINT value the declaration does not
// list, gives INVALID_TILING_KEY; the emulator also refuses a value wider than its argument's bits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8

#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3

#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

// A DATATYPE/FORMAT declaration may name the kernel input or output whose type it follows; such an
// entry is not one of the argument's values.
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))

#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11

// graph/c_types.h's names for ge::DataType and ge::Format (the same numbers).
enum KwbTplCDataType : uint64_t {
  C_DT_FLOAT = 0,
  C_DT_FLOAT16 = 1,
  C_DT_INT8 = 2,
  C_DT_INT32 = 3,
  C_DT_UINT8 = 4,
  C_DT_INT16 = 6,
  C_DT_UINT16 = 7,
  C_DT_UINT32 = 8,
  C_DT_INT64 = 9,
  C_DT_UINT64 = 10,
  C_DT_DOUBLE = 11,
  C_DT_BOOL = 12,
  C_DT_COMPLEX64 = 16,
  C_DT_BF16 = 27,
  C_DT_INT4 = 29
};
enum KwbTplCFormat : uint64_t {
  C_FORMAT_NCHW = 0,
  C_FORMAT_NHWC = 1,
  C_FORMAT_ND = 2,
  C_FORMAT_NC1HWC0 = 3,
  C_FORMAT_FRACTAL_Z = 4,
  C_FORMAT_NDHWC = 27,
  C_FORMAT_FRACTAL_NZ = 29,
  C_FORMAT_NCDHW = 30
};

namespace kwb_tpl {

inline constexpr std::size_t kMaxValues = 64;  // values of one argument after expansion
inline constexpr std::size_t kMaxParams = 16;  // arguments of one declaration or combination
inline constexpr uint64_t kInvalidKey = 0xFFFFFFFFFFFFFFFFull;

enum Kind : uint32_t {
  kDType = 0,  // ASCENDC_TPL_DTYPE_DECL: the project's own dtype numbers; an int template argument
  kFormat = 1,
  kUint = 2,
  kBool = 3,
  kKernelType = 4,  // ASCENDC_TPL_KERNEL_TYPE_SEL: how the combination launches, not an argument
  kDeterministic = 5,
  kSharedKernelType = 6,
  kTilingStruct = 7,  // ASCENDC_TPL_TILING_STRUCT_SEL: the combination's tiling struct, not an argument
  kDataType = 8       // ASCENDC_TPL_DATATYPE_DECL: ge::DataType numbers; a typename template argument
};

// Reaching one of these during constant evaluation stops the build with its name in the error.
void error_template_argument_has_more_than_64_values();
void error_template_declaration_or_combination_has_more_than_16_arguments();
void error_uint_template_argument_has_an_unknown_mode_or_an_odd_range_list();
void error_a_combination_value_is_not_in_its_argument_declaration();
void error_a_combination_names_an_argument_the_declaration_does_not();

constexpr bool sameName(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

struct TplParam {
  const char* name = "";
  uint32_t kind = kUint;
  uint8_t bitWidth = 0;
  std::array<uint64_t, kMaxValues> vals{};
  std::size_t count = 0;

  constexpr TplParam() = default;
  constexpr TplParam(const char* n, uint32_t k, uint8_t bw, std::initializer_list<uint64_t> raw)
      : name(n), kind(k), bitWidth(bw) {
    if (k == kUint) {
      expandUint(raw);
      return;
    }
    if (k == kTilingStruct) return;
    for (const uint64_t v : raw)
      if (v < ASCENDC_TPL_INPUT_BIAS) push(v);
  }
  constexpr void push(uint64_t v) {
    if (count == kMaxValues) error_template_argument_has_more_than_64_values();
    vals[count++] = v;
  }
  // The mode first, then: LIST the values; RANGE the number of ranges and each range's first and last
  // value; MIX the same ranges followed by listed values.
  constexpr void expandUint(std::initializer_list<uint64_t> raw) {
    const uint64_t* p = raw.begin();
    const std::size_t n = raw.size();
    if (n == 0) error_uint_template_argument_has_an_unknown_mode_or_an_odd_range_list();
    const uint64_t mode = p[0];
    if (mode == ASCENDC_TPL_UI_LIST) {
      for (std::size_t i = 1; i < n; ++i) push(p[i]);
      return;
    }
    if ((mode != ASCENDC_TPL_UI_RANGE && mode != ASCENDC_TPL_UI_MIX) || n < 2)
      error_uint_template_argument_has_an_unknown_mode_or_an_odd_range_list();
    const std::size_t ranges = static_cast<std::size_t>(p[1]);
    if (2 + 2 * ranges > n || (mode == ASCENDC_TPL_UI_RANGE && 2 + 2 * ranges != n))
      error_uint_template_argument_has_an_unknown_mode_or_an_odd_range_list();
    for (std::size_t r = 0; r < ranges; ++r) {
      const uint64_t first = p[2 + 2 * r];
      const uint64_t last = p[3 + 2 * r];
      if (last < first) error_uint_template_argument_has_an_unknown_mode_or_an_odd_range_list();
      for (uint64_t v = first; v <= last; ++v) push(v);
    }
    for (std::size_t i = 2 + 2 * ranges; i < n; ++i) push(p[i]);
  }
  constexpr bool isArgument() const {
    return kind != kKernelType && kind != kDeterministic && kind != kTilingStruct;
  }
  constexpr long indexOf(uint64_t v) const {
    for (std::size_t i = 0; i < count; ++i)
      if (vals[i] == v) return static_cast<long>(i);
    return -1;
  }
};

struct TplGroup {
  std::array<TplParam, kMaxParams> params{};
  std::size_t count = 0;
  constexpr TplGroup(std::initializer_list<TplParam> ps) {
    for (const TplParam& p : ps) {
      if (count == kMaxParams) error_template_declaration_or_combination_has_more_than_16_arguments();
      params[count++] = p;
    }
  }
  constexpr const TplParam* find(const char* name) const {
    for (std::size_t i = 0; i < count; ++i)
      if (params[i].isArgument() && sameName(params[i].name, name)) return &params[i];
    return nullptr;
  }
};

// Why a key could not be encoded; nullptr when it was.
struct TplEncoded {
  uint64_t key = kInvalidKey;
  const char* problem = nullptr;
  std::size_t argument = 0;  // the declared argument the problem is about
};

template <std::size_t N>
constexpr TplEncoded tplEncode(const TplParam (&decl)[N], const uint64_t* values, std::size_t n) {
  TplEncoded e;
  uint64_t key = 0;
  unsigned bits = 0;
  const std::size_t used = n < N ? n : N;
  for (std::size_t i = 0; i < used; ++i) {
    const TplParam& p = decl[i];
    uint64_t v = values[i];
    if (p.kind == kUint) {
      const long at = p.indexOf(v);
      if (at < 0) {
        e.problem = "is not a value its ASCENDC_TPL_UINT_DECL lists";
        e.argument = i;
        return e;
      }
      v = static_cast<uint64_t>(at);
    }
    if (p.bitWidth < 64 && v >> p.bitWidth != 0) {
      e.problem = "does not fit the argument's bit width";
      e.argument = i;
      return e;
    }
    if (bits + p.bitWidth > 64) {
      e.problem = "ends past bit 64 of the tiling key";
      e.argument = i;
      return e;
    }
    if (bits < 64) key |= v << bits;
    bits += p.bitWidth;
  }
  e.key = key;
  return e;
}

// GET_TPL_TILING_KEY on the host: the key, or INVALID_TILING_KEY with the reason on stderr (which the
// tiling run's output keeps), as the reference prints its error and returns that key.
template <std::size_t N>
inline uint64_t tplEncodeOnHost(const TplParam (&decl)[N], std::initializer_list<uint64_t> values) {
  if (values.size() != N)
    std::fprintf(stderr,
                 "GET_TPL_TILING_KEY: %zu values for the %zu arguments ASCENDC_TPL_ARGS_DECL declares\n",
                 values.size(), N);
  const TplEncoded e = tplEncode(decl, values.begin(), values.size());
  if (e.problem != nullptr)
    std::fprintf(stderr, "GET_TPL_TILING_KEY: the value %llu of template argument %s %s\n",
                 static_cast<unsigned long long>(values.begin()[e.argument]), decl[e.argument].name,
                 e.problem);
  return e.key;
}

}  // namespace kwb_tpl

#define ASCENDC_TPL_DTYPE_DECL(x, ...) \
  ::kwb_tpl::TplParam {                \
#x, ::kwb_tpl::kDType, 8, {        \
      __VA_ARGS__                      \
    }                                  \
  }
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) \
  ::kwb_tpl::TplParam {                   \
#x, ::kwb_tpl::kDataType, 8, {        \
      __VA_ARGS__                         \
    }                                     \
  }
#define ASCENDC_TPL_FORMAT_DECL(x, ...) \
  ::kwb_tpl::TplParam {                 \
#x, ::kwb_tpl::kFormat, 8, {        \
      __VA_ARGS__                       \
    }                                   \
  }
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) \
  ::kwb_tpl::TplParam {                   \
#x, ::kwb_tpl::kUint, bw, {           \
      __VA_ARGS__                         \
    }                                     \
  }
#define ASCENDC_TPL_BOOL_DECL(x, ...) \
  ::kwb_tpl::TplParam {               \
#x, ::kwb_tpl::kBool, 1, {        \
      __VA_ARGS__                     \
    }                                 \
  }
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
  ::kwb_tpl::TplParam {                      \
#x, ::kwb_tpl::kSharedKernelType, 8, {   \
      __VA_ARGS__                            \
    }                                        \
  }

#define ASCENDC_TPL_DTYPE_SEL(x, ...) \
  ::kwb_tpl::TplParam {               \
#x, ::kwb_tpl::kDType, 8, {       \
      __VA_ARGS__                     \
    }                                 \
  }
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) \
  ::kwb_tpl::TplParam {                  \
#x, ::kwb_tpl::kDataType, 8, {       \
      __VA_ARGS__                        \
    }                                    \
  }
#define ASCENDC_TPL_FORMAT_SEL(x, ...) \
  ::kwb_tpl::TplParam {                \
#x, ::kwb_tpl::kFormat, 8, {       \
      __VA_ARGS__                      \
    }                                  \
  }
#define ASCENDC_TPL_UINT_SEL(x, ...) \
  ::kwb_tpl::TplParam {              \
#x, ::kwb_tpl::kUint, 0, {       \
      __VA_ARGS__                    \
    }                                \
  }
#define ASCENDC_TPL_BOOL_SEL(x, ...) \
  ::kwb_tpl::TplParam {              \
#x, ::kwb_tpl::kBool, 1, {       \
      __VA_ARGS__                    \
    }                                \
  }
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...) \
  ::kwb_tpl::TplParam {                       \
#x, ::kwb_tpl::kTilingStruct, 0, {}       \
  }
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)        \
  ::kwb_tpl::TplParam {                         \
    "kernel_type", ::kwb_tpl::kKernelType, 8, { \
      __VA_ARGS__                               \
    }                                           \
  }
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)           \
  ::kwb_tpl::TplParam {                              \
    "deterministic", ::kwb_tpl::kDeterministic, 1, { \
      __VA_ARGS__                                    \
    }                                                \
  }
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
  ::kwb_tpl::TplParam {                            \
#x, ::kwb_tpl::kSharedKernelType, 8, {         \
      __VA_ARGS__                                  \
    }                                              \
  }

// The tables have fixed names in the namespace the project declares them in; the kernel unit's entry
// names that namespace (core/toolchain/OpProjectTemplate.h).
#define ASCENDC_TPL_ARGS_DECL(op, ...)                                                      \
  [[maybe_unused]] static constexpr ::kwb_tpl::TplParam kwb_tpl_declared[] = {__VA_ARGS__}; \
  [[maybe_unused]] static constexpr const char* kwb_tpl_op_type = #op
#define ASCENDC_TPL_ARGS_SEL(...) \
  ::kwb_tpl::TplGroup {           \
    __VA_ARGS__                   \
  }
#define ASCENDC_TPL_SEL(...) \
  [[maybe_unused]] static constexpr ::kwb_tpl::TplGroup kwb_tpl_selected[] = {__VA_ARGS__}

#define GET_TPL_TILING_KEY(...) ::kwb_tpl::tplEncodeOnHost(kwb_tpl_declared, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                     \
  do {                                                          \
    const uint64_t kwbTplKey = GET_TPL_TILING_KEY(__VA_ARGS__); \
    (context)->SetTilingKey(kwbTplKey);                         \
  } while (0)
