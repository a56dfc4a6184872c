// SPDX-License-Identifier: MIT
// Sigmoid, Tanh, Silu, Gelu, FasterGelu (kwb_sim/math_activation.h). Values are computed in double from
// the library's formulas and rounded once to the data type; the trace holds the vector instructions the
// library runs for them (computed in float, so half data is cast in and out), each over calCount
// elements, so the cost model charges what the hardware executes.

#include <cmath>
#include <string>

#include "BlockContext.h"
#include "VecMask.h"
#include "kwb_sim/math_activation.h"

namespace kwb_sim {

namespace {

constexpr std::uint32_t kRepeatBytes = 256;

const char* mathName(MathOp op) {
  switch (op) {
    case MathOp::Sigmoid:
      return "GetSigmoidMaxMinTmpSize";
    case MathOp::Tanh:
      return "GetTanhMaxMinTmpSize";
    case MathOp::Silu:
      return "GetSiluTmpSize";
    case MathOp::Gelu:
    case MathOp::FasterGelu:
      return "GetGeluMaxMinTmpSize";
  }
  return "";
}

double activation(MathOp op, double x) {
  switch (op) {
    case MathOp::Sigmoid:
      return 1.0 / (1.0 + std::exp(-x));
    case MathOp::Tanh:
      return std::tanh(x);
    case MathOp::Silu:
      return x / (1.0 + std::exp(-x));
    case MathOp::Gelu:  // tanh approximation: x * sigmoid(sqrt(8 / pi) * (x + 0.044715 x^3))
      return x / (1.0 + std::exp(-1.5957691216057308 * (x + 0.044715 * x * x * x)));
    case MathOp::FasterGelu:
      return x / (1.0 + std::exp(-1.702 * x));
  }
  return x;
}

// The float vector instructions the library runs per element (docs/emulator.md, "Supported API").
int steps(MathOp op, const char* const*& names) {
  static const char* const sigmoid[] = {"Muls", "Exp", "Adds", "Div"};
  static const char* const tanhSteps[] = {"Mins", "Maxs", "Muls", "Exp", "Adds", "Adds", "Div"};
  static const char* const gelu[] = {"Mul", "Mul", "Muls", "Add", "Muls", "Exp", "Adds", "Div"};
  switch (op) {
    case MathOp::Tanh:
      names = tanhSteps;
      return 7;
    case MathOp::Gelu:
      names = gelu;
      return 8;
    default:
      names = sigmoid;
      return 4;
  }
}

}  // namespace

std::uint32_t mathMinTmpBytes(MathOp op, std::uint32_t typeSize) {
  switch (op) {
    case MathOp::Sigmoid:
      return kRepeatBytes;
    case MathOp::Tanh:
      return kRepeatBytes * (typeSize == 4 ? 1 : 4);
    case MathOp::Silu:
      return 0;
    case MathOp::Gelu:
    case MathOp::FasterGelu:
      return 3 * kRepeatBytes;
  }
  return 0;
}

std::uint32_t mathMaxTmpBytes(MathOp op, std::uint32_t typeSize, std::uint64_t elements) {
  const std::uint64_t bytes = elements * typeSize;
  std::uint64_t v = 0;
  switch (op) {
    case MathOp::Sigmoid:
      v = bytes > kRepeatBytes ? bytes : kRepeatBytes;
      break;
    case MathOp::Tanh:
      v = std::uint64_t{typeSize == 4 ? 1u : 4u} * (bytes > kRepeatBytes ? bytes : kRepeatBytes);
      break;
    case MathOp::Silu:
      v = 0;
      break;
    case MathOp::Gelu:
    case MathOp::FasterGelu:
      v = std::uint64_t{3} * elements * 4 > std::uint64_t{3} * kRepeatBytes ? std::uint64_t{3} * elements * 4
                                                                            : std::uint64_t{3} * kRepeatBytes;
      break;
  }
  return static_cast<std::uint32_t>(v > 0xFFFFFFFFull ? 0xFFFFFFFFull : v);
}

void mathActivation(const VecArgs& a, MathOp op, const LocalDesc* tmp, std::uint64_t tmpBytes, SrcLoc loc) {
  const std::uint32_t es = a.esize;
  const auto n = static_cast<std::uint64_t>(a.count < 0 ? 0 : a.count);
  if (n == 0) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  const std::uint32_t minTmp = mathMinTmpBytes(op, es);
  if (tmp && tmpBytes < minTmp)
    report(Cat::InvalidParam, a.api, loc, Pipe::V, 2,
           std::string(a.api) + ": sharedTmpBuffer holds " + std::to_string(tmpBytes) +
               " bytes, less than the " + std::to_string(minTmp) + " bytes " + mathName(op) +
               " gives as the minimum; the library's intermediate values overrun it on hardware");
  VecOperand ops[3];
  ops[0].desc = &a.src0;
  ops[0].read = true;
  ops[0].operand = 1;
  ops[0].span = n * es;
  ops[1].desc = &a.dst;
  ops[1].write = true;
  ops[1].operand = 0;
  ops[1].span = n * es;
  int count = 2;
  if (tmp && tmpBytes > 0) {
    ops[2].desc = tmp;
    ops[2].write = true;
    ops[2].operand = 2;
    ops[2].span = tmpBytes < mathMaxTmpBytes(op, es, n) ? tmpBytes : mathMaxTmpBytes(op, es, n);
    count = 3;
  }
  if (!vecCheckOperands(a.api, loc, ops, count)) {
    vecRecordOp(a.api, loc, a.dt, es, 0, 0, nullptr, 0);
    return;
  }
  vecSyncOperands(a.api, loc, ops, count);
  for (std::uint64_t i = 0; i < n; ++i)
    storeFromDouble(a.dt, a.dst.ptr + i * es, activation(op, loadAsDouble(a.dt, a.src0.ptr + i * es)));
  const auto repeat = static_cast<std::uint32_t>((n * 4 + kRepeatBytes - 1) / kRepeatBytes);
  if (a.dt != DType::F32) vecRecordOp("Cast", loc, DType::F32, 4, n, repeat, ops, count);
  const char* const* names = nullptr;
  const int k = steps(op, names);
  for (int s = 0; s < k; ++s) vecRecordOp(names[s], loc, DType::F32, 4, n, repeat, ops, count);
  if (a.dt != DType::F32) vecRecordOp("Cast", loc, a.dt, es, n, repeat, ops, count);
}

}  // namespace kwb_sim
