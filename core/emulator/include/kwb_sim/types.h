// SPDX-License-Identifier: MIT
#pragma once
// Ascend C enums, constants and parameter structs (positions, pipes, events, rounding/compare modes,
// DataCopy and repeat parameters), spelled as in the real headers so user code compiles unchanged.

#include <cstdint>

#include "kwb_sim/base.h"

// Pipes and event ids are global (CCE builtins) in the real toolchain.
enum pipe_t : int {
  PIPE_S = 0,
  PIPE_V,
  PIPE_M,
  PIPE_MTE1,
  PIPE_MTE2,
  PIPE_MTE3,
  PIPE_ALL,
  PIPE_MTE4,
  PIPE_MTE5,
  PIPE_V2,
  PIPE_FIX,
};

enum event_t : int {
  EVENT_ID0 = 0,
  EVENT_ID1,
  EVENT_ID2,
  EVENT_ID3,
  EVENT_ID4,
  EVENT_ID5,
  EVENT_ID6,
  EVENT_ID7,
};

namespace AscendC {

enum class TPosition : uint8_t {
  GM,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  LCM = VECCALC,
  SPM,
  SHM = SPM,
  TSCM,
  C2PIPE2GM,
  C2PIPE2LOCAL,
  MAX,
};
using QuePosition = TPosition;

using TEventID = int8_t;

enum class HardEvent : uint8_t {
  MTE2_MTE1,
  MTE1_MTE2,
  MTE1_M,
  M_MTE1,
  MTE2_V,
  V_MTE2,
  MTE3_V,
  V_MTE3,
  M_V,
  V_M,
  V_V,
  MTE3_MTE1,
  MTE1_MTE3,
  MTE1_V,
  MTE2_M,
  M_MTE2,
  V_MTE1,
  M_FIX,
  FIX_M,
  MTE3_MTE2,
  MTE2_MTE3,
  S_V,
  V_S,
  S_MTE2,
  MTE2_S,
  S_MTE3,
  MTE3_S,
  MTE2_FIX,
  FIX_MTE2,
  FIX_S,
  M_S,
  FIX_MTE3,
  MTE1_FIX,
  FIX_MTE1,
  FIX_FIX,
  MAX,
};

enum class RoundMode : uint8_t {
  CAST_NONE = 0,
  CAST_RINT,
  CAST_FLOOR,
  CAST_CEIL,
  CAST_ROUND,
  CAST_TRUNC,
  CAST_ODD
};
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum ReduceOrder { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class TensorTrait : uint8_t { DEFAULT = 0 };

inline constexpr uint32_t ONE_BLK_SIZE = 32;
inline constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
inline constexpr uint32_t DEFAULT_BLK_NUM = 8;
inline constexpr uint32_t DEFAULT_BLK_STRIDE = 1;
inline constexpr uint32_t DEFAULT_REPEAT_STRIDE = 8;
inline constexpr uint32_t MAX_REPEAT_TIMES = 255;
inline constexpr uint32_t BLOCK_CUBE = 16;
inline constexpr uint32_t ONE_BLOCK_SIZE = 32;
#if KWB_SIM_ARCH == 2002
inline constexpr uint32_t TOTAL_UB_SIZE = 256 * 1024;
inline constexpr uint32_t TOTAL_L1_SIZE = 1024 * 1024;
#else
inline constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
inline constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
#endif

struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;   // in 32-byte blocks
  uint16_t srcStride = 0;  // gap in 32-byte blocks
  uint16_t dstStride = 0;  // gap in 32-byte blocks
};

struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn,
                    uint32_t rsvIn = 0)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;   // bytes
  uint32_t srcStride = 0;  // GM side: bytes; UB side: 32-byte blocks
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
      : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue{};
};

struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
      : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

struct BinaryRepeatParams {
  BinaryRepeatParams() = default;
  BinaryRepeatParams(uint8_t dstBlk, uint8_t src0Blk, uint8_t src1Blk, uint8_t dstRep, uint8_t src0Rep,
                     uint8_t src1Rep)
      : dstBlkStride(dstBlk),
        src0BlkStride(src0Blk),
        src1BlkStride(src1Blk),
        dstRepStride(dstRep),
        src0RepStride(src0Rep),
        src1RepStride(src1Rep) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = 1;
  uint8_t src0BlkStride = 1;
  uint8_t src1BlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t src0RepStride = 8;
  uint8_t src1RepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

struct UnaryRepeatParams {
  UnaryRepeatParams() = default;
  UnaryRepeatParams(uint16_t dstBlk, uint16_t srcBlk, uint8_t dstRep, uint8_t srcRep)
      : dstBlkStride(dstBlk), srcBlkStride(srcBlk), dstRepStride(dstRep), srcRepStride(srcRep) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = 1;
  uint16_t srcBlkStride = 1;
  uint8_t dstRepStride = 8;
  uint8_t srcRepStride = 8;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

}  // namespace AscendC

namespace kwb_sim {

inline Pipe toPipe(pipe_t p) {
  switch (p) {
    case PIPE_S:
      return Pipe::S;
    case PIPE_V:
      return Pipe::V;
    case PIPE_M:
      return Pipe::M;
    case PIPE_MTE1:
      return Pipe::MTE1;
    case PIPE_MTE2:
      return Pipe::MTE2;
    case PIPE_MTE3:
      return Pipe::MTE3;
    case PIPE_FIX:
      return Pipe::FIX;
    case PIPE_ALL:
      return Pipe::All;
    default:
      return Pipe::None;
  }
}

// Source and destination pipe of a HardEvent (X_Y: set on X, waited on Y).
struct EventPipes {
  Pipe src, dst;
};
inline EventPipes eventPipes(AscendC::HardEvent e) {
  using H = AscendC::HardEvent;
  switch (e) {
    case H::MTE2_MTE1:
      return {Pipe::MTE2, Pipe::MTE1};
    case H::MTE1_MTE2:
      return {Pipe::MTE1, Pipe::MTE2};
    case H::MTE1_M:
      return {Pipe::MTE1, Pipe::M};
    case H::M_MTE1:
      return {Pipe::M, Pipe::MTE1};
    case H::MTE2_V:
      return {Pipe::MTE2, Pipe::V};
    case H::V_MTE2:
      return {Pipe::V, Pipe::MTE2};
    case H::MTE3_V:
      return {Pipe::MTE3, Pipe::V};
    case H::V_MTE3:
      return {Pipe::V, Pipe::MTE3};
    case H::M_V:
      return {Pipe::M, Pipe::V};
    case H::V_M:
      return {Pipe::V, Pipe::M};
    case H::V_V:
      return {Pipe::V, Pipe::V};
    case H::MTE3_MTE1:
      return {Pipe::MTE3, Pipe::MTE1};
    case H::MTE1_MTE3:
      return {Pipe::MTE1, Pipe::MTE3};
    case H::MTE1_V:
      return {Pipe::MTE1, Pipe::V};
    case H::MTE2_M:
      return {Pipe::MTE2, Pipe::M};
    case H::M_MTE2:
      return {Pipe::M, Pipe::MTE2};
    case H::V_MTE1:
      return {Pipe::V, Pipe::MTE1};
    case H::M_FIX:
      return {Pipe::M, Pipe::FIX};
    case H::FIX_M:
      return {Pipe::FIX, Pipe::M};
    case H::MTE3_MTE2:
      return {Pipe::MTE3, Pipe::MTE2};
    case H::MTE2_MTE3:
      return {Pipe::MTE2, Pipe::MTE3};
    case H::S_V:
      return {Pipe::S, Pipe::V};
    case H::V_S:
      return {Pipe::V, Pipe::S};
    case H::S_MTE2:
      return {Pipe::S, Pipe::MTE2};
    case H::MTE2_S:
      return {Pipe::MTE2, Pipe::S};
    case H::S_MTE3:
      return {Pipe::S, Pipe::MTE3};
    case H::MTE3_S:
      return {Pipe::MTE3, Pipe::S};
    case H::MTE2_FIX:
      return {Pipe::MTE2, Pipe::FIX};
    case H::FIX_MTE2:
      return {Pipe::FIX, Pipe::MTE2};
    case H::FIX_S:
      return {Pipe::FIX, Pipe::S};
    case H::M_S:
      return {Pipe::M, Pipe::S};
    case H::FIX_MTE3:
      return {Pipe::FIX, Pipe::MTE3};
    case H::MTE1_FIX:
      return {Pipe::MTE1, Pipe::FIX};
    case H::FIX_MTE1:
      return {Pipe::FIX, Pipe::MTE1};
    case H::FIX_FIX:
      return {Pipe::FIX, Pipe::FIX};
    case H::MAX:
      break;
  }
  return {Pipe::None, Pipe::None};
}

// Producer and consumer pipe of a queue between two positions (see trace.h).
inline EventPipes positionPipes(AscendC::TPosition src, AscendC::TPosition dst) {
  using P = AscendC::TPosition;
  auto producer = [](P p) {
    switch (p) {
      case P::VECIN:
      case P::A1:
      case P::B1:
      case P::C1:
        return Pipe::MTE2;
      case P::A2:
      case P::B2:
      case P::C2:
        return Pipe::MTE1;
      case P::CO1:
        return Pipe::M;
      case P::CO2:
        return Pipe::FIX;
      default:
        return Pipe::V;
    }
  };
  auto consumer = [](P p) {
    switch (p) {
      case P::VECOUT:
        return Pipe::MTE3;
      case P::A1:
      case P::B1:
      case P::C1:
        return Pipe::MTE1;
      case P::A2:
      case P::B2:
      case P::C2:
        return Pipe::M;
      case P::CO1:
        return Pipe::FIX;
      case P::CO2:
        return Pipe::MTE3;
      default:
        return Pipe::V;
    }
  };
  return {producer(src), consumer(dst)};
}

inline MemSpace positionSpace(AscendC::TPosition p) {
  using P = AscendC::TPosition;
  switch (p) {
    case P::GM:
      return MemSpace::GM;
    case P::A1:
    case P::B1:
    case P::C1:
    case P::TSCM:
      return MemSpace::L1;
    case P::A2:
      return MemSpace::L0A;
    case P::B2:
      return MemSpace::L0B;
    case P::CO1:
      return MemSpace::L0C;
    case P::C2:
      return MemSpace::BT;
    default:
      return MemSpace::UB;
  }
}

}  // namespace kwb_sim
