// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "core/verify/Poison.h"
#include "core/verify/ReportAdapter.h"

using namespace kwb;
using namespace kwb::verify;

TEST(VerifierReportAdapter, CarriesCountsPatternAndInputs) {
  TensorSpec z{"z", DType::Float32, {4096}, "ND"};
  std::vector<double> e(4096);
  for (std::size_t i = 0; i < e.size(); ++i) e[i] = 1.0 + static_cast<double>(i % 7);
  Bytes out = encodeAll(DType::Float32, e);
  const Bytes poison = poisonBytes(DType::Float32, 4096);
  std::copy(poison.end() - 40, poison.end(), out.end() - 40);  // last 10 elements never written
  VerifyResult v;
  v.seed = 99;
  CaseCheck c;
  c.caseName = "tail";
  c.outputs.push_back(checkOutput(z, e, out, poison, Tolerance{1e-5, 1e-4, 1e-4}, LaunchShape{1}));
  c.passed = false;
  InputCheck ic;
  ic.tensor = "x";
  ic.changed = 3;
  ic.summary = "input x was modified";
  c.modifiedInputs.push_back(ic);
  v.cases.push_back(c);
  const VerifyReport r = toVerifyReport(v, Verdict::WrongAnswer);
  EXPECT_EQ(r.seed, 99u);
  EXPECT_FALSE(r.passed());
  EXPECT_FALSE(r.inputsUnchanged);
  ASSERT_EQ(r.cases.size(), 1u);
  EXPECT_EQ(r.cases[0].tensor, "z");
  EXPECT_EQ(r.cases[0].unwritten, 10);
  EXPECT_EQ(r.cases[0].pattern.rfind("tail-only", 0), 0u) << r.cases[0].pattern;  // stable name first
  EXPECT_EQ(r.cases[0].firstMismatches.front().index, 4086);
  EXPECT_EQ(r.diagnostics.size(), 2u);  // the output and the modified input
}
