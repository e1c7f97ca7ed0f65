#include "analyzers/suppression.h"

#include <gtest/gtest.h>

namespace kta::analyzers {
namespace {

const std::vector<std::string> kChecks = {"kta-shape-literal", "kta-unguarded-index"};

Finding at(unsigned line, const std::string& check = "kta-shape-literal") {
  return Finding{check, "error", "f.hip", line, 3, "m", "code"};
}

TEST(Suppression, SameLineWithReason) {
  std::vector<Finding> f = {at(1), at(2)};
  apply_suppressions("f.hip",
                     "x = 4096;  // kta-audit: allow(kta-shape-literal): fixed table\ny = 4096;\n",
                     kChecks, f);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].line, 2u);
}

TEST(Suppression, CommentLinesAboveApplyToNextCodeLine) {
  std::vector<Finding> f = {at(3)};
  apply_suppressions(
      "f.hip",
      "// kta-audit: allow(kta-shape-literal): the LUT is 4096 entries\n// more words\nx = 4096;\n",
      kChecks, f);
  EXPECT_TRUE(f.empty());
}

TEST(Suppression, OnlyTheNamedCheck) {
  std::vector<Finding> f = {at(1, "kta-unguarded-index")};
  apply_suppressions("f.hip", "y[i] = 4096; // kta-audit: allow(kta-shape-literal): table\n",
                     kChecks, f);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "kta-unguarded-index");
}

TEST(Suppression, SeveralChecksInOneComment) {
  std::vector<Finding> f = {at(1), at(1, "kta-unguarded-index")};
  apply_suppressions(
      "f.hip", "y[i] = 4096; // kta-audit: allow(kta-shape-literal, kta-unguarded-index): ok\n",
      kChecks, f);
  EXPECT_TRUE(f.empty());
}

TEST(Suppression, MissingReasonIsAWarningButStillSuppresses) {
  std::vector<Finding> f = {at(1)};
  apply_suppressions("f.hip", "x = 4096; // kta-audit: allow(kta-shape-literal)\n", kChecks, f);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].check, "kta-audit-suppression");
  EXPECT_EQ(f[0].severity, "warning");
  EXPECT_EQ(f[0].message,
            "suppression without a reason; write 'allow(check): why this is general'");
}

TEST(Suppression, UnknownCheckAndMalformedAreReported) {
  std::vector<Finding> f;
  apply_suppressions("f.hip", "// kta-audit: allow(kta-nope): x\n// kta-audit: ignore everything\n",
                     kChecks, f);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].message, "suppression names unknown check 'kta-nope'");
  EXPECT_EQ(f[1].message, "malformed suppression; expected 'kta-audit: allow(check-name): reason'");
}

TEST(Suppression, FarAboveDoesNotCount) {
  std::vector<Finding> f = {at(3)};
  apply_suppressions("f.hip", "// kta-audit: allow(kta-shape-literal): r\nint a;\nx = 4096;\n",
                     kChecks, f);
  EXPECT_EQ(f.size(), 1u);
}

}  // namespace
}  // namespace kta::analyzers
