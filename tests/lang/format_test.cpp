// The formatter on every .kta file of the repository (found at test time): output parses, keeps
// every comment, is a fixed point (idempotent), and means the same as the input.
#include "lang/format.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "lang/parse.h"

namespace fs = std::filesystem;

namespace kta::lang {
namespace {

std::vector<fs::path> repo_kta_files() {
  std::vector<fs::path> out;
  fs::path root = KTA_TEST_SOURCE_ROOT;
  for (const char* top : {"stdlib", "tasks", "examples", "tests/lang", "docs", "bench"}) {
    std::error_code ec;
    if (!fs::exists(root / top, ec)) continue;
    for (auto it = fs::recursive_directory_iterator(root / top, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->path().extension() == ".kta") out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Formats text; nullopt on a syntax error.
std::optional<std::string> fmt_text(const std::string& text, std::string* errors = nullptr) {
  SourceManager sm;
  DiagnosticEngine d(sm);
  auto r = format_source(sm.add("input.kta", "input.kta", text), d);
  if (errors) *errors = d.str();
  return r;
}

// A structural dump without layout: formatted text with comments and whitespace dropped.
std::string meaning(const std::string& text) {
  SourceManager sm;
  DiagnosticEngine d(sm);
  auto f = parse_file(sm.add("x.kta", "x.kta", text), d);
  if (!f) return "<syntax error>";
  f->comments.clear();
  std::string s = format_file(*f, text), out;
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

TEST(Format, EveryRepoFileRoundTrips) {
  auto files = repo_kta_files();
  ASSERT_FALSE(files.empty());
  size_t formatted = 0;
  for (const fs::path& p : files) {
    std::string text = read(p);
    std::string errors;
    auto once = fmt_text(text, &errors);
    if (!once) continue;  // files that are syntax errors on purpose (golden diagnostics)
    ++formatted;
    auto twice = fmt_text(*once, &errors);
    ASSERT_TRUE(twice) << p << " formats to text that does not parse:\n" << errors << *once;
    EXPECT_EQ(*once, *twice) << p << " is not a fixed point";
    EXPECT_EQ(meaning(text), meaning(*once)) << p << " changed meaning";
    SourceManager sm;
    DiagnosticEngine d(sm);
    auto before = parse_file(sm.add("a", "a", text), d);
    auto after = parse_file(sm.add("b", "b", *once), d);
    ASSERT_TRUE(before && after);
    ASSERT_EQ(before->comments.size(), after->comments.size()) << p << " lost comments";
    for (size_t i = 0; i < before->comments.size(); ++i)
      EXPECT_EQ(before->comments[i].text, after->comments[i].text) << p;
  }
  EXPECT_GT(formatted, 10u);
}

TEST(Format, CanonicalLayout) {
  std::string in =
      "import std.inputs\n\n\n\ntask t{\nkind hip2hip // the kind\n  summary = \"s\"\n"
      "param N:i64\n  input x:f32[N,2*N]=std.inputs.normal(std:2)\n\n  // grids\n"
      "shapes visible {N in [1,2,3] }\n  gate correctness {seeds 3}\n bytes 8*N;flops N\n}\n";
  auto out = fmt_text(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(
      *out,
      "import std.inputs\n\ntask t {\n  kind    hip2hip  // the kind\n  summary \"s\"\n"
      "  param   N: i64\n  input   x: f32[N, 2 * N] = std.inputs.normal(std: 2)\n\n  // grids\n"
      "  shapes visible { N in [1, 2, 3] }\n  gate correctness { seeds 3 }\n  bytes 8 * N\n  flops "
      "N\n}\n");
}

// Issue 16's syntax: tuple axes, tolerances over params, a device with a warp size.
TEST(Format, TupleAxesToleranceExpressionsAndDeviceOptions) {
  std::string in =
      "task t {\n  shapes visible {\n    N in [1,2]\n    ( D,H ,W ) in [(3,5,7),( 17, 33, 65 )]\n"
      "    where D*N<=100\n  }\n  shapes heldout { (D, H, W) in [(4, 6, 8)]; N in [3] }\n"
      "  tolerance y { atol 1e-7*K*sqrt(N)  rtol 1e-5 }\n}\n\n"
      "plan p {\n  device cpu( warp:32 )\n}\n";
  auto out = fmt_text(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "task t {\n  shapes visible {\n    N         in [1, 2]\n"
            "    (D, H, W) in [(3, 5, 7), (17, 33, 65)]\n    where D * N <= 100\n  }\n"
            "  shapes heldout { (D, H, W) in [(4, 6, 8)]; N in [3] }\n"
            "  tolerance y { atol 1e-7 * K * sqrt(N)  rtol 1e-5 }\n}\n\n"
            "plan p {\n  device cpu(warp: 32)\n}\n");
  auto again = fmt_text(*out);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *out);
}

TEST(Format, TupleAxisSyntaxErrorsNameWhatIsMissing) {
  std::string errors;
  EXPECT_FALSE(fmt_text("task t {\n  shapes visible { (D, ) in [(1, 2)] }\n}\n", &errors));
  EXPECT_NE(errors.find("expected a name"), std::string::npos) << errors;
  EXPECT_FALSE(fmt_text("task t {\n  shapes visible { (D, H in [(1, 2)] }\n}\n", &errors));
  EXPECT_NE(errors.find("expected ')'"), std::string::npos) << errors;
}

TEST(Format, LongListsWrapUnderTheFirstValue) {
  std::string in =
      "agent a() {\n  command \"aaaaaaaaaaaaaaaaaaaa\", \"bbbbbbbbbbbbbbbbbbbbbbbb\", "
      "\"cccccccccccccccccccccccc\", "
      "\"dddddddddddddddddddddd\", \"eeeeeeeeeeeeeeeeeeeeeee\"\n  timeout 1s\n}\n";
  auto out = fmt_text(in);
  ASSERT_TRUE(out);
  EXPECT_NE(out->find(",\n          \"dddd"), std::string::npos) << *out;
  EXPECT_EQ(*fmt_text(*out), *out);
}

TEST(Format, SyntaxErrorsAreReportedNotFormatted) {
  std::string errors;
  EXPECT_FALSE(fmt_text("task t {\n  param N i64\n}\n", &errors));
  EXPECT_NE(errors.find("expected ':'"), std::string::npos) << errors;
}

// A multi-line string ends its run: the statements after a multi-line `notes` are padded among
// themselves, not to the longest keyword before it (docs/language.md, Tools).
TEST(Format, AMultiLineStatementEndsItsRun) {
  std::string in =
      "task t {\n  kind hip2hip\n  summary \"s\"\n  notes \"\"\"\n    one\n    two\n  \"\"\"\n"
      "  param N: i64\n  output y: f32[N]\n}\n";
  auto out = fmt_text(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out,
            "task t {\n  kind    hip2hip\n  summary \"s\"\n  notes   \"\"\"\n    one\n    two\n"
            "  \"\"\"\n  param  N: i64\n  output y: f32[N]\n}\n");
  EXPECT_EQ(*fmt_text(*out), *out);
}

// The axes of a shapes block line up: names padded so that `in` and `=` share a column.
TEST(Format, ShapeAxesLineUp) {
  auto out = fmt_text("task t {\n  shapes visible {\n    N in [1]\n    BLOCK in [64]\n  }\n}\n");
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("    N     in [1]\n    BLOCK in [64]\n"), std::string::npos) << *out;
}

// What `kta fmt --check` shows: a unified diff of the change, three lines of context.
TEST(Format, CheckShowsAUnifiedDiff) {
  std::string before = "a\nb\nc\nd\ne\nf\ng\nh\n", after = "a\nb\nc\nd\nE\nf\ng\nh\n";
  EXPECT_EQ(format_diff("x.kta", before, after),
            "--- x.kta\n+++ x.kta (formatted)\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n");
  EXPECT_EQ(format_diff("x.kta", before, before), "--- x.kta\n+++ x.kta (formatted)\n");
}

}  // namespace
}  // namespace kta::lang
