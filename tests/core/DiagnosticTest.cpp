// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/model/Diagnostic.h"

using namespace kwb;

TEST(Diagnostic, JsonRoundTripKeepsOptionalFields) {
  Diagnostic d;
  d.source = "emulator";
  d.severity = Severity::Error;
  d.category = std::string(category::MisalignedCopy);
  d.file = "add_custom.cpp";
  d.line = 42;
  d.column = 9;
  d.message = "DataCopy of 30 bytes is not a multiple of 32 bytes";
  d.api = "DataCopy";
  d.tensor = "xLocal";
  d.block = 3;
  d.pipe = "MTE2";
  nlohmann::json j = d;
  EXPECT_EQ(j["category"], "misaligned-copy");
  EXPECT_EQ(j["pipe"], "MTE2");
  EXPECT_EQ(j.get<Diagnostic>(), d);
}

TEST(Diagnostic, FormatNamesLocationCategoryAndBlock) {
  Diagnostic d{.source = "emulator",
               .severity = Severity::Error,
               .category = "ub-overflow",
               .file = "k.cpp",
               .line = 7,
               .column = 0,
               .message = "too big"};
  d.block = 1;
  EXPECT_EQ(d.format(), "k.cpp:7: error: [ub-overflow] [block 1] too big");
}

TEST(Diagnostic, UnknownSeverityIsRejected) {
  nlohmann::json j = {{"message", "x"}, {"severity", "catastrophic"}};
  EXPECT_THROW(j.get<Diagnostic>(), std::invalid_argument);
}

TEST(Diagnostic, BriefCategoriesAreKnown) {
  EXPECT_TRUE(isKnownCategory("missing-sync"));
  EXPECT_TRUE(isKnownCategory("sandbox-violation"));
  EXPECT_FALSE(isKnownCategory("made-up"));
}

TEST(Diagnostic, SandboxSetupIsAKnownCategory) {
  EXPECT_EQ(category::SandboxSetup, "sandbox-setup");
  EXPECT_TRUE(isKnownCategory(category::SandboxSetup));
}
