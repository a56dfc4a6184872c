// kwb_reference.h - how a task's reference.cpp computes the golden outputs.
//
// A task folder holds reference.cpp:
//
//     #include "kwb_reference.h"
//     void reference(kwb::ref::Case& c) {
//       const auto& x = c.in("x");            // inputs by name (or c.in(0)), values as double
//       auto& z = c.out("z");                 // outputs, pre-sized, filled by you
//       const double alpha = c.attr("alpha"); // attributes (the case's value or the task default)
//       for (int64_t i = 0; i < z.size(); ++i) z[i] = alpha * x[i];
//     }
//
// Everything is double precision: inputs are the exact values the kernel sees (float16/bfloat16 inputs
// are widened exactly), outputs are compared against the kernel's outputs by the verifier with the
// task's tolerance for the output dtype. Tensors are row-major; rows()/cols() view a tensor as a matrix
// over its last dimension. roundTo(dtype, v) rounds to a narrower type where the operator's definition
// includes an intermediate cast (e.g. "cast to float16, then scale").
//
// The harness compiles reference.cpp with -DKWB_REFERENCE_MAIN, which adds a main() that reads a case
// manifest (argv[1]), loads the raw little-endian input files, calls reference(), and writes every
// output as raw little-endian float64 to the path the manifest names. Plain C++17, standard library only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace kwb::ref {

struct Tensor {
  std::string name;
  std::string dtype;  // "float16", "bfloat16", "float32", "int32", "int8", "uint8", "bool", ...
  std::vector<int64_t> shape;
  std::vector<double> data;

  int64_t size() const { return static_cast<int64_t>(data.size()); }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  // dim(-1) is the last dimension.
  int64_t dim(int64_t i) const {
    const int64_t r = rank();
    if (i < 0) i += r;
    if (i < 0 || i >= r) throw std::out_of_range("tensor " + name + ": no dimension " + std::to_string(i));
    return shape[static_cast<size_t>(i)];
  }
  int64_t cols() const { return shape.empty() ? 1 : shape.back(); }
  int64_t rows() const { return cols() == 0 ? 0 : size() / cols(); }
  double& operator[](int64_t i) { return data[static_cast<size_t>(i)]; }
  double operator[](int64_t i) const { return data[static_cast<size_t>(i)]; }
  double& at(int64_t r, int64_t c) { return data[static_cast<size_t>(r * cols() + c)]; }
  double at(int64_t r, int64_t c) const { return data[static_cast<size_t>(r * cols() + c)]; }
};

struct Attr {
  std::string name;
  std::string type;  // "int", "float", "bool", "int_list", "float_list", "string"
  std::vector<double> values;
  std::string text;  // "string"
};

struct Case {
  std::string name;
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  std::vector<Attr> attrs;

  const Tensor& in(size_t i) const { return inputs.at(i); }
  const Tensor& in(const std::string& n) const {
    for (const auto& t : inputs)
      if (t.name == n) return t;
    throw std::out_of_range("reference: no input named " + n);
  }
  Tensor& out(size_t i) { return outputs.at(i); }
  Tensor& out(const std::string& n) {
    for (auto& t : outputs)
      if (t.name == n) return t;
    throw std::out_of_range("reference: no output named " + n);
  }
  bool hasAttr(const std::string& n) const {
    for (const auto& a : attrs)
      if (a.name == n) return true;
    return false;
  }
  double attr(const std::string& n) const {
    for (const auto& a : attrs)
      if (a.name == n && !a.values.empty()) return a.values.front();
    throw std::out_of_range("reference: no attribute named " + n);
  }
  double attr(const std::string& n, double def) const { return hasAttr(n) ? attr(n) : def; }
  // A string attribute (the case's value or the task default).
  const std::string& attrStr(const std::string& n) const {
    for (const auto& a : attrs)
      if (a.name == n && a.type == "string") return a.text;
    throw std::out_of_range("reference: no string attribute named " + n);
  }
  std::vector<double> attrList(const std::string& n) const {
    for (const auto& a : attrs)
      if (a.name == n) return a.values;
    throw std::out_of_range("reference: no attribute named " + n);
  }
};

// ---- exact conversions between storage formats and double ------------------------------------------
inline double halfToDouble(uint16_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, man = h & 0x3ff;
  double v;
  if (exp == 0)
    v = std::ldexp(static_cast<double>(man), -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<double>(man | 0x400), exp - 25);
  return sign ? -v : v;
}
inline double bf16ToDouble(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
// Round-to-nearest-even to float16 and back (overflow gives +-inf).
inline double roundHalf(double v) {
  if (std::isnan(v) || std::isinf(v) || v == 0.0) return v;
  const double a = std::fabs(v);
  int e;
  std::frexp(a, &e);                                   // a = m * 2^e, m in [0.5, 1)
  int q = e - 11;                                      // quantum exponent for 11 significant bits
  if (q < -24) q = -24;                                // subnormals
  const double r = std::nearbyint(std::ldexp(a, -q));  // default rounding mode: to nearest even
  double out = std::ldexp(r, q);
  if (out > 65504.0) out = INFINITY;
  return v < 0 ? -out : out;
}
inline double roundBf16(double v) {
  if (std::isnan(v) || std::isinf(v) || v == 0.0) return v;
  float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  bits &= 0xffff0000u;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline double roundTo(const std::string& dtype, double v) {
  if (dtype == "float16") return roundHalf(v);
  if (dtype == "bfloat16") return roundBf16(v);
  if (dtype == "float32") return static_cast<double>(static_cast<float>(v));
  return v;
}

inline size_t dtypeBytes(const std::string& d) {
  if (d == "float16" || d == "bfloat16" || d == "int16" || d == "uint16") return 2;
  if (d == "float32" || d == "int32" || d == "uint32") return 4;
  if (d == "float64" || d == "int64" || d == "uint64") return 8;
  if (d == "int8" || d == "uint8" || d == "bool") return 1;
  throw std::runtime_error("reference: unsupported dtype " + d);
}

inline double decodeElement(const std::string& d, const unsigned char* p) {
  if (d == "float16") {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return halfToDouble(v);
  }
  if (d == "bfloat16") {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return bf16ToDouble(v);
  }
  if (d == "float32") {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (d == "float64") {
    double v;
    std::memcpy(&v, p, 8);
    return v;
  }
  if (d == "int8") {
    int8_t v;
    std::memcpy(&v, p, 1);
    return v;
  }
  if (d == "uint8" || d == "bool") return *p;
  if (d == "int16") {
    int16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  if (d == "uint16") {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
  }
  if (d == "int32") {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (d == "uint32") {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (d == "int64") {
    int64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  if (d == "uint64") {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return static_cast<double>(v);
  }
  throw std::runtime_error("reference: unsupported dtype " + d);
}

}  // namespace kwb::ref

// The task's golden computation.
void reference(kwb::ref::Case& c);

#ifdef KWB_REFERENCE_MAIN
namespace kwb::ref::detail {
inline std::vector<int64_t> readShape(std::istringstream& is) {
  int n = 0;
  is >> n;
  std::vector<int64_t> s(static_cast<size_t>(n));
  for (auto& d : s) is >> d;
  return s;
}
inline std::string restOfLine(std::istringstream& is) {
  std::string rest;
  std::getline(is, rest);
  const auto b = rest.find_first_not_of(' ');
  return b == std::string::npos ? std::string() : rest.substr(b);
}
}  // namespace kwb::ref::detail

// Manifest lines: "case NAME" | "attr NAME TYPE N v..." | "input NAME DTYPE RANK d... PATH" |
// "output NAME DTYPE RANK d... PATH". Exit 0 on success, 1 with a message on stderr otherwise.
int main(int argc, char** argv) {
  using namespace kwb::ref;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s MANIFEST\n", argv[0]);
    return 2;
  }
  try {
    std::ifstream mf(argv[1]);
    if (!mf) throw std::runtime_error(std::string("cannot open manifest ") + argv[1]);
    Case c;
    std::vector<std::string> outPaths;
    std::string line;
    while (std::getline(mf, line)) {
      std::istringstream is(line);
      std::string kind;
      is >> kind;
      if (kind.empty()) continue;
      if (kind == "case") {
        is >> c.name;
      } else if (kind == "attr") {
        Attr a;
        int n = 0;
        is >> a.name >> a.type >> n;
        if (a.type == "string") {
          // N bytes as hex, "-" when empty (core/verify/ReferenceRunner.cpp).
          std::string hex;
          is >> hex;
          for (size_t k = 0; n > 0 && k + 1 < hex.size() && a.text.size() < static_cast<size_t>(n); k += 2)
            a.text += static_cast<char>(std::stoi(hex.substr(k, 2), nullptr, 16));
        } else {
          a.values.resize(static_cast<size_t>(n));
          for (auto& v : a.values) is >> v;
        }
        c.attrs.push_back(a);
      } else if (kind == "input" || kind == "output") {
        Tensor t;
        is >> t.name >> t.dtype;
        t.shape = detail::readShape(is);
        const std::string path = detail::restOfLine(is);
        int64_t n = 1;
        for (auto d : t.shape) n *= d;
        t.data.assign(static_cast<size_t>(n), 0.0);
        if (kind == "input") {
          const size_t eb = dtypeBytes(t.dtype);
          std::vector<unsigned char> raw(static_cast<size_t>(n) * eb);
          std::ifstream f(path, std::ios::binary);
          if (!f.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(raw.size())))
            throw std::runtime_error("cannot read " + std::to_string(raw.size()) + " bytes of input " +
                                     t.name + " from " + path);
          for (int64_t i = 0; i < n; ++i)
            t.data[static_cast<size_t>(i)] = decodeElement(t.dtype, raw.data() + i * eb);
          c.inputs.push_back(std::move(t));
        } else {
          c.outputs.push_back(std::move(t));
          outPaths.push_back(path);
        }
      } else {
        throw std::runtime_error("unknown manifest line: " + line);
      }
    }
    reference(c);
    for (size_t k = 0; k < c.outputs.size(); ++k) {
      std::ofstream f(outPaths[k], std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(c.outputs[k].data.data()),
              static_cast<std::streamsize>(c.outputs[k].data.size() * sizeof(double)));
      if (!f) throw std::runtime_error("cannot write " + outPaths[k]);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "reference failed: %s\n", e.what());
    return 1;
  }
  return 0;
}
#endif
