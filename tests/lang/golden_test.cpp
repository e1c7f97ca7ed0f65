// Golden diagnostics: each tests/lang/diagnostics/NAME.kta is checked and the whole printed output
// (location, message, source line, caret) must equal NAME.expected.
// Regenerate: KTA_UPDATE_GOLDEN=1 ctest -R lang.golden, then review the diff.
#include "tests/support/golden.h"

#include <gtest/gtest.h>

#include "lang/load.h"

namespace fs = std::filesystem;

namespace {

fs::path golden_dir() { return fs::path(KTA_TEST_DIR) / "diagnostics"; }

std::vector<std::string> cases() {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(golden_dir()))
    if (e.path().extension() == ".kta") out.push_back(e.path().stem().string());
  std::sort(out.begin(), out.end());
  return out;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesExpectedOutput) {
  fs::current_path(golden_dir());
  kta::lang::LoadOptions options;
  options.stdlib_dir = "../fixtures/stdlib";
  kta::lang::SourceManager sm;
  kta::lang::DiagnosticEngine diags(sm);
  kta::lang::load_file(GetParam() + ".kta", diags, options);
  std::string got = diags.str();
  EXPECT_GT(diags.error_count() + diags.warning_count(), 0u)
      << "a golden case must report a mistake";
  kta::test::expect_golden(GetParam() + ".expected", got);
}

INSTANTIATE_TEST_SUITE_P(lang, Golden, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

TEST(GoldenSuite, HasAtLeastFortyDistinctMistakes) { EXPECT_GE(cases().size(), 40u); }

}  // namespace
