// Replays tests/fuzz/regressions/* (inputs that once crashed or stress the limits) through the
// fuzz target: each must come back without a crash, an abort or a stack overflow.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace fs = std::filesystem;

namespace {

std::vector<std::string> inputs() {
  std::vector<std::string> out;
  for (const auto& e :
       fs::directory_iterator(fs::path(KTA_TEST_SOURCE_ROOT) / "tests" / "fuzz" / "regressions"))
    out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class FuzzRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzRegression, SurvivesTheFuzzTarget) {
  std::ifstream in(fs::path(KTA_TEST_SOURCE_ROOT) / "tests" / "fuzz" / "regressions" / GetParam(),
                   std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

INSTANTIATE_TEST_SUITE_P(lang, FuzzRegression, ::testing::ValuesIn(inputs()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string name = p.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(FuzzLimits, DeepNestingIsADiagnostic) {
  kta::lang::SourceManager sm;
  kta::lang::DiagnosticEngine d(sm);
  std::string deep = "const A = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  EXPECT_FALSE(kta::lang::parse_file(sm.add("deep.kta", "deep.kta", deep), d));
  EXPECT_NE(d.str().find("nesting deeper than 64 levels"), std::string::npos) << d.str();
  std::string sum = "const A = 1";
  for (int i = 0; i < 1000; ++i) sum += " + 1";
  EXPECT_FALSE(kta::lang::parse_file(sm.add("sum.kta", "sum.kta", sum + "\n"), d));
  EXPECT_NE(d.str().find("nesting deeper than 256 levels"), std::string::npos) << d.str();
}

}  // namespace
