// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/DType.h"
#include "core/model/JsonReader.h"

using namespace kwb;

TEST(DType, SizesMatchAscendCTypes) {
  EXPECT_EQ(dtypeSize(DType::Float16), 2u);
  EXPECT_EQ(dtypeSize(DType::BFloat16), 2u);
  EXPECT_EQ(dtypeSize(DType::Float32), 4u);
  EXPECT_EQ(dtypeSize(DType::Float64), 8u);
  EXPECT_EQ(dtypeSize(DType::Int8), 1u);
  EXPECT_EQ(dtypeSize(DType::Int16), 2u);
  EXPECT_EQ(dtypeSize(DType::Int32), 4u);
  EXPECT_EQ(dtypeSize(DType::Int64), 8u);
  EXPECT_EQ(dtypeSize(DType::UInt8), 1u);
  EXPECT_EQ(dtypeSize(DType::UInt16), 2u);
  EXPECT_EQ(dtypeSize(DType::UInt32), 4u);
  EXPECT_EQ(dtypeSize(DType::UInt64), 8u);
  EXPECT_EQ(dtypeSize(DType::Bool), 1u);
  EXPECT_EQ(dtypeCppName(DType::Float16), "half");
  EXPECT_EQ(dtypeCppName(DType::BFloat16), "bfloat16_t");
}

TEST(DType, EveryCanonicalAndCppNameParsesBack) {
  for (DType t : allDTypes()) {
    EXPECT_EQ(parseDType(dtypeName(t)), t) << dtypeName(t);
    EXPECT_EQ(parseDType(dtypeCppName(t)), t) << dtypeCppName(t);
  }
  EXPECT_EQ(allDTypes().size(), 13u);
}

TEST(DType, AcceptsCommonAliasesCaseInsensitively) {
  EXPECT_EQ(parseDType("half"), DType::Float16);
  EXPECT_EQ(parseDType("fp16"), DType::Float16);
  EXPECT_EQ(parseDType("FP16"), DType::Float16);
  EXPECT_EQ(parseDType("bf16"), DType::BFloat16);
  EXPECT_EQ(parseDType("float"), DType::Float32);
  EXPECT_EQ(parseDType("fp32"), DType::Float32);
  EXPECT_EQ(parseDType("double"), DType::Float64);
  EXPECT_EQ(parseDType("int32_t"), DType::Int32);
  EXPECT_EQ(parseDType("u8"), DType::UInt8);
  EXPECT_EQ(parseDType("boolean"), DType::Bool);
}

TEST(DType, AmbiguousOrMisspeltNamesAreRejected) {
  EXPECT_FALSE(parseDType("int"));  // int32 in C, int64 in numpy
  EXPECT_FALSE(parseDType("flaot16"));
  EXPECT_FALSE(parseDType(""));
  try {
    parseDTypeOrThrow("flaot16");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(
        e.what(),
        "unknown dtype \"flaot16\"; expected one of float16, bfloat16, float32, float64, int8, int16, int32, "
        "int64, uint8, uint16, uint32, uint64, bool");
  }
}

TEST(DType, ClassificationHelpers) {
  EXPECT_TRUE(isFloating(DType::BFloat16));
  EXPECT_FALSE(isFloating(DType::Int8));
  EXPECT_TRUE(isSignedInteger(DType::Int64));
  EXPECT_FALSE(isSignedInteger(DType::UInt64));
  EXPECT_TRUE(isUnsignedInteger(DType::UInt8));
  EXPECT_FALSE(isUnsignedInteger(DType::Bool));
}

TEST(DType, JsonUsesCanonicalNamesAndLocatesErrors) {
  for (DType t : allDTypes()) {
    nlohmann::json j = t;
    EXPECT_EQ(j, std::string(dtypeName(t)));
    EXPECT_EQ(j.get<DType>(), t);
  }
  EXPECT_EQ(nlohmann::json("fp16").get<DType>(), DType::Float16);
  try {
    nlohmann::json(16).get<DType>();
    FAIL() << "no exception";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("expected one of float16, bfloat16"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("but found 16"), std::string::npos) << e.what();
  }
}
