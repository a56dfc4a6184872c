// SPDX-License-Identifier: MIT
#pragma once
// kwb emulator: the kernel side of tiling template programming (kwb_op/template_args.h; docs/emulator.md,
// "Template tiling keys"). The kernel unit of a project whose entry is a function template ends with a
// generated extern "C" entry (core/toolchain/OpProjectTemplate.h) that walks the combinations below,
// compiled one instance each, and launches the instance whose key is the TilingFunc's; a key no
// combination has stops the launch here, decoded argument by argument.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "kernel_operator.h"
#include "kwb_op/template_args.h"

namespace kwb_tpl {

struct TplCombo {
  std::array<uint64_t, kMaxParams> v{};
  uint64_t key = 0;
};

// The values combination group `g` gives argument `arg` of the declaration: its ASCENDC_TPL_*_SEL
// entry, or every declared value when the group leaves the argument out.
template <std::size_t N>
constexpr const TplParam& selected(const TplParam (&decl)[N], const TplGroup& g, std::size_t arg) {
  const TplParam* s = g.find(decl[arg].name);
  return s != nullptr ? *s : decl[arg];
}

template <std::size_t N, std::size_t G>
constexpr std::size_t comboCount(const TplParam (&decl)[N], const TplGroup (&sel)[G]) {
  std::size_t total = 0;
  for (const TplGroup& g : sel) {
    for (std::size_t i = 0; i < g.count; ++i)
      if (g.params[i].isArgument()) {
        bool declared = false;
        for (const TplParam& d : decl) declared = declared || sameName(d.name, g.params[i].name);
        if (!declared) error_a_combination_names_an_argument_the_declaration_does_not();
      }
    std::size_t product = 1;
    for (std::size_t a = 0; a < N; ++a) product *= selected(decl, g, a).count;
    total += product;
  }
  return total;
}

// Every selected combination in ASCENDC_TPL_SEL's order, each argument's values in its SEL order, the
// last argument varying fastest; each with its key.
template <std::size_t Count, std::size_t N, std::size_t G>
constexpr std::array<TplCombo, Count> combos(const TplParam (&decl)[N], const TplGroup (&sel)[G]) {
  std::array<TplCombo, Count> out{};
  std::size_t at = 0;
  for (const TplGroup& g : sel) {
    std::array<std::size_t, kMaxParams> pos{};
    bool empty = false;
    for (std::size_t a = 0; a < N; ++a) empty = empty || selected(decl, g, a).count == 0;
    while (!empty) {
      TplCombo c;
      for (std::size_t a = 0; a < N; ++a) c.v[a] = selected(decl, g, a).vals[pos[a]];
      const TplEncoded e = tplEncode(decl, c.v.data(), N);
      if (e.problem != nullptr) error_a_combination_value_is_not_in_its_argument_declaration();
      c.key = e.key;
      out[at++] = c;
      std::size_t a = N;
      while (a > 0) {
        --a;
        if (++pos[a] < selected(decl, g, a).count) break;
        pos[a] = 0;
        if (a == 0) empty = true;
      }
      if (N == 0) empty = true;
    }
  }
  return out;
}

// ge::DataType numbers -> the kernel's element types, for ASCENDC_TPL_DATATYPE_DECL arguments that the
// kernel takes as typenames.
template <uint64_t Id>
struct DataTypeOf {};
template <>
struct DataTypeOf<C_DT_FLOAT> {
  using type = float;
};
template <>
struct DataTypeOf<C_DT_FLOAT16> {
  using type = half;
};
template <>
struct DataTypeOf<C_DT_INT8> {
  using type = int8_t;
};
template <>
struct DataTypeOf<C_DT_INT32> {
  using type = int32_t;
};
template <>
struct DataTypeOf<C_DT_UINT8> {
  using type = uint8_t;
};
template <>
struct DataTypeOf<C_DT_INT16> {
  using type = int16_t;
};
template <>
struct DataTypeOf<C_DT_UINT16> {
  using type = uint16_t;
};
template <>
struct DataTypeOf<C_DT_UINT32> {
  using type = uint32_t;
};
template <>
struct DataTypeOf<C_DT_INT64> {
  using type = int64_t;
};
template <>
struct DataTypeOf<C_DT_UINT64> {
  using type = uint64_t;
};
template <>
struct DataTypeOf<C_DT_DOUBLE> {
  using type = double;
};
template <>
struct DataTypeOf<C_DT_BOOL> {
  using type = bool;
};
template <>
struct DataTypeOf<C_DT_BF16> {
  using type = bfloat16_t;
};

template <uint64_t Id, typename = void>
struct HasDataType : std::false_type {};
template <uint64_t Id>
struct HasDataType<Id, std::void_t<typename DataTypeOf<Id>::type>> : std::true_type {};

// Runs f(std::integral_constant<std::size_t, I>) for I = 0..Count-1 until one returns true.
template <std::size_t Count, typename F>
inline bool anyIndex(F&& f) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return (f(std::integral_constant<std::size_t, I>{}) || ...);
  }
  (std::make_index_sequence<Count>{});
}

// The launch's key has no compiled instance: INVALID_TILING_KEY from GET_TPL_TILING_KEY, a key no
// ASCENDC_TPL_SEL combination gives, or a combination whose element type the emulator lacks.
template <std::size_t N, std::size_t Count>
[[noreturn]] inline void noInstance(uint64_t key, const TplParam (&decl)[N],
                                    const std::array<TplCombo, Count>& all,
                                    ::kwb_sim::SrcLoc loc = ::kwb_sim::SrcLoc::current()) {
  std::string msg;
  if (key == kInvalidKey) {
    msg =
        "the tiling key is INVALID_TILING_KEY: GET_TPL_TILING_KEY could not encode the TilingFunc's template "
        "argument values (its reason is in the tiling run's output)";
  } else {
    bool listed = false;
    for (const TplCombo& c : all) listed = listed || c.key == key;
    msg = "tiling key " + std::to_string(key) + " (";
    unsigned bits = 0;
    for (std::size_t i = 0; i < N; ++i) {
      const uint64_t field =
          decl[i].bitWidth >= 64 ? key >> bits : (key >> bits) & ((1ull << decl[i].bitWidth) - 1);
      uint64_t value = field;
      if (decl[i].kind == kUint) value = field < decl[i].count ? decl[i].vals[field] : ~0ull;
      msg += std::string(i ? ", " : "") + decl[i].name + "=" + std::to_string(value);
      bits += decl[i].bitWidth;
    }
    msg += ") ";
    msg += listed ? "selects a combination whose element type the emulator does not have"
                  : "is no combination of ASCENDC_TPL_SEL, so no kernel instance was compiled for it";
  }
  ::kwb_sim::fatal(::kwb_sim::Cat::InvalidParam, "ASCENDC_TPL_SEL", loc, ::kwb_sim::Pipe::S,
                   ::kwb_sim::kOperandNone, msg);
}

}  // namespace kwb_tpl
