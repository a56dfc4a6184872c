// SPDX-License-Identifier: MIT
// The verifier's attribute finding (core/verify/AttributeCorrelation): an attribute whose default value
// separates the passing cases from the failing ones is named, with the literal that replaced it.
#include <gtest/gtest.h>

#include "core/verify/AttributeCorrelation.h"

using namespace kwb;
using namespace kwb::verify;

namespace {

Task taskWithSlope() {
  Task t;
  t.name = "leaky";
  t.attrs = {AttrDecl{"negative_slope", AttrType::Float, nlohmann::json(0.01)},
             AttrDecl{"scale", AttrType::Float, nlohmann::json(1.0)}};
  VerificationCase a;
  a.name = "aligned";
  VerificationCase b;
  b.name = "tail";
  b.attrs["negative_slope"] = 0.2;
  VerificationCase c;
  c.name = "tiny";
  c.attrs["negative_slope"] = 0.01;  // the default, given explicitly
  c.attrs["scale"] = 2.0;
  t.cases = {a, b, c};
  return t;
}

CaseCheck result(const std::string& name, bool passed) {
  CaseCheck c;
  c.caseName = name;
  c.passed = passed;
  return c;
}

const char* kKernel =
    "// SPDX-License-Identifier: MIT\n"
    "__aicore__ void Compute() {\n"
    "  LeakyRelu(y, x, static_cast<float>(0.01), n);  // 0.01 in a comment does not count\n"
    "  const char* s = \"0.01\";\n"
    "}\n"
    "#if KWB_COMPILE_TILING\n"
    "  t.negative_slope = kwb_attr_float(in, \"negative_slope\", 0.01);\n"
    "#endif\n";

TEST(VerifierAttributeCorrelation, NamesTheAttributeItsValuesAndTheLiteral) {
  const auto d = attributeCorrelation(taskWithSlope(),
                                      {result("aligned", true), result("tail", false), result("tiny", true)},
                                      "kernel.cpp", kKernel);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->category, "wrong-answer");
  EXPECT_EQ(d->source, "verifier");
  EXPECT_EQ(d->file, "kernel.cpp");
  EXPECT_EQ(d->line, 3);
  EXPECT_NE(
      d->message.find("every case that fails sets attribute negative_slope to a value other than its "
                      "default 0.01 (tail (negative_slope 0.2)) and every case with negative_slope 0.01 "
                      "passes"),
      std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("this line uses 0.01 as a literal"), std::string::npos) << d->message;
}

TEST(VerifierAttributeCorrelation, NothingWhenTheAttributeDoesNotSeparateTheCases) {
  const Task t = taskWithSlope();
  // A default case fails too: something else is wrong.
  EXPECT_FALSE(attributeCorrelation(
      t, {result("aligned", false), result("tail", false), result("tiny", true)}, "kernel.cpp", kKernel));
  // A case with another value may pass (inside the tolerance): the failing ones still all lack the
  // default.
  Task more = t;
  VerificationCase other;
  other.name = "mild";
  other.attrs["negative_slope"] = 0.011;
  more.cases.push_back(other);
  EXPECT_TRUE(attributeCorrelation(
      more, {result("aligned", true), result("tail", false), result("tiny", true), result("mild", true)},
      "kernel.cpp", kKernel));
  // All fail, or all pass: nothing to correlate.
  EXPECT_FALSE(attributeCorrelation(
      t, {result("aligned", false), result("tail", false), result("tiny", false)}, "kernel.cpp", kKernel));
  EXPECT_FALSE(attributeCorrelation(t, {result("aligned", true), result("tail", true), result("tiny", true)},
                                    "kernel.cpp", kKernel));
}

TEST(VerifierAttributeCorrelation, NoLineWhenTheLiteralIsAbsentOrAmbiguous) {
  const auto none = attributeCorrelation(
      taskWithSlope(), {result("aligned", true), result("tail", false), result("tiny", true)}, "kernel.cpp",
      "void f() { LeakyRelu(y, x, slope, n); }\n");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->line, 0);
  EXPECT_TRUE(none->file.empty());
  const auto two = attributeCorrelation(
      taskWithSlope(), {result("aligned", true), result("tail", false), result("tiny", true)}, "kernel.cpp",
      "float a = 0.01f;\nfloat b = 1e-2;\n");
  ASSERT_TRUE(two);
  EXPECT_EQ(two->line, 0);
  EXPECT_NE(two->message.find("appears at lines 1, 2"), std::string::npos) << two->message;
}

TEST(VerifierAttributeCorrelation, LiteralsAreNumbersNotPartsOfNames) {
  EXPECT_EQ(linesWithLiteral("int x1 = 2;\nfloat y = 2.0f;\nint z = 0x2;\nuint32_t w = 2u;\n", 2.0),
            (std::vector<int>{1, 2, 4}));
  EXPECT_EQ(linesWithLiteral("float e = 1e-5f; // 1e-5\n", 1e-5), (std::vector<int>{1}));
}

}  // namespace
