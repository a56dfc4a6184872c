// SPDX-License-Identifier: MIT
// A missing hand-off the emulator found at a use inside a helper is moved to the helper's call in the
// function that took the tensor (core/diag/HandOffCause); golden input under tests/fixtures/source_cause.
#include <gtest/gtest.h>

#include <fstream>

#include "core/diag/HandOffCause.h"

namespace kwb {
namespace {

std::vector<std::string> fixture(const std::string& name) {
  std::ifstream in(std::string(KWB_SOURCE_DIR) + "/tests/fixtures/source_cause/" + name);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

Diagnostic missingEnQue(int line, int takenAt) {
  Diagnostic d;
  d.category = "queue-misuse";
  d.file = "kernel.cpp";
  d.line = line;
  d.message = "nothing was EnQue'd after this Mmad";
  d.api = "Mmad";
  d.related = {{"the DeQue that waits forever", "kernel.cpp", 40},
               {"the AllocTensor that took the tensor", "kernel.cpp", takenAt}};
  return d;
}

TEST(HandOffCause, AUseInsideAHelperMovesToTheHelpersCallInTheOwner) {
  const auto lines = fixture("handoff_in_owner.cpp");
  ASSERT_FALSE(lines.empty());
  Diagnostic d = missingEnQue(18, 9);
  ASSERT_TRUE(placeHandOffInOwner(d, lines));
  EXPECT_EQ(d.line, 10);
  EXPECT_EQ(d.excerpt, "for (uint32_t k0 = 0; k0 < k_; k0 += 64) Compute(c1, k0 == 0);");
  ASSERT_GE(d.related.size(), 3u);
  EXPECT_EQ(d.related[0].line, 18);
  EXPECT_EQ(d.related[0].role, "the last use of the tensor, inside Compute");
  EXPECT_EQ(d.message,
            "nothing was EnQue'd after this call of Compute (its Mmad at line 18 is the tensor's last use)");
}

TEST(HandOffCause, NothingMovesWithinOneFunctionOrWithoutAUniqueCall) {
  const auto lines = fixture("handoff_in_owner.cpp");
  // Taken and used in the same function.
  Diagnostic same = missingEnQue(10, 9);
  EXPECT_FALSE(placeHandOffInOwner(same, lines));
  EXPECT_EQ(same.line, 10);
  // Twice calls Compute twice: which call is the last one is not the text's to say.
  Diagnostic twice = missingEnQue(18, 21);
  EXPECT_FALSE(placeHandOffInOwner(twice, lines));
  // Another category, or no taker.
  Diagnostic other = missingEnQue(18, 9);
  other.category = "missing-sync";
  EXPECT_FALSE(placeHandOffInOwner(other, lines));
  Diagnostic noTaker = missingEnQue(18, 9);
  noTaker.related.pop_back();
  EXPECT_FALSE(placeHandOffInOwner(noTaker, lines));
}

}  // namespace
}  // namespace kwb
