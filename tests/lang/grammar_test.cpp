// Grammar rules by family: what matches, what does not, and what is a hard error (must<> raises).
#include "lang/grammar.h"

#include <gtest/gtest.h>

namespace g = kta::lang::grammar;
namespace pegtl = tao::pegtl;

namespace {

// Full match of `text` by `Rule`.
template <typename Rule>
bool matches(std::string_view text) {
  pegtl::memory_input in(text.data(), text.size(), "test");
  try {
    return pegtl::parse<pegtl::seq<Rule, pegtl::eof>>(in);
  } catch (const pegtl::parse_error&) {
    return false;
  }
}

// True when parsing raises a hard error rather than failing softly.
template <typename Rule>
bool hard_error(std::string_view text) {
  pegtl::memory_input in(text.data(), text.size(), "test");
  try {
    pegtl::parse<Rule>(in);
    return false;
  } catch (const pegtl::parse_error&) {
    return true;
  }
}

TEST(GrammarLexical, Comments) {
  EXPECT_TRUE(matches<g::ws>("  // a comment\n  /* block */ \n"));
  EXPECT_TRUE(matches<g::sp>(" /* inline */ \t"));
  EXPECT_FALSE(matches<g::sp>("\n"));
  EXPECT_TRUE(hard_error<g::ws>("/* never closed"));
}

TEST(GrammarLexical, Identifiers) {
  EXPECT_TRUE(matches<g::ident>("_N2"));
  EXPECT_FALSE(matches<g::ident>("2N"));
  EXPECT_TRUE(matches<g::qname>("std.tolerances.f32_strict"));
  EXPECT_FALSE(matches<g::qname>("std..x"));
}

TEST(GrammarLiterals, Numbers) {
  for (auto t : {"4096", "0x1000", "1_000_000", "1.0", "1e-5", "2.5e3", "3600s", "10m", "256MiB",
                 "0.5%", "500ms"})
    EXPECT_TRUE(matches<g::number>(t)) << t;
  EXPECT_FALSE(matches<g::number>(".5"));
  EXPECT_FALSE(matches<g::number>("x1"));
  EXPECT_TRUE(hard_error<g::number>("1e+"));
}

TEST(GrammarLiterals, Strings) {
  EXPECT_TRUE(matches<g::string_lit>(R"("a \"q\" \\ \n")"));
  EXPECT_TRUE(matches<g::string_lit>("\"\"\"\n  text\n  block\n\"\"\""));
  EXPECT_FALSE(matches<g::string_lit>("'single'"));
  EXPECT_TRUE(hard_error<g::string_lit>("\"unterminated"));
  EXPECT_TRUE(hard_error<g::string_lit>("\"bad \\q escape\""));
  EXPECT_TRUE(hard_error<g::string_lit>("\"\"\" never closed"));
}

TEST(GrammarExpressions, Operators) {
  for (auto t : {"1 << 20", "(3 << 20) + 7", "ceil_div(N, 256)", "min(a, b, c)", "-x", "!flag",
                 "M * N <= 1 << 22 && K > 0 || false", "[1, 2, 3,]", "(x, y, z)", "a % b",
                 "std.inputs.normal(mean: 0, std: 2)", "pow2(10..14)"})
    EXPECT_TRUE(matches<g::expr>(t)) << t;
  EXPECT_FALSE(matches<g::expr>("* 2"));
  EXPECT_FALSE(matches<g::expr>("a b"));
  EXPECT_TRUE(hard_error<g::expr>("1 +"));
  EXPECT_TRUE(hard_error<g::expr>("(1, 2"));
  EXPECT_TRUE(hard_error<g::expr>("[1, 2"));
  EXPECT_TRUE(hard_error<g::expr>("f(a: )"));
}

TEST(GrammarSettings, BlocksAndLines) {
  EXPECT_TRUE(matches<g::settings_block>("{ atol 1e-5  rtol 1e-5 }"));
  EXPECT_TRUE(matches<g::settings_block>("{\n  mode cold\n  budget = 2s;\n}"));
  EXPECT_TRUE(matches<g::settings_block>("{}"));
  EXPECT_TRUE(hard_error<g::settings_block>("{ atol }"));
  EXPECT_TRUE(hard_error<g::settings_block>("{ atol 1 "));
  EXPECT_TRUE(matches<g::line_setting>("command \"a\", \"b\""));
  EXPECT_TRUE(matches<g::line_setting>("env NAME = \"1\""));
  EXPECT_TRUE(matches<g::line_setting>("gate correctness { seeds 3 }"));
  EXPECT_TRUE(hard_error<g::line_setting>("kind hip2hip extra stuff ]"));
}

TEST(GrammarTask, Statements) {
  EXPECT_TRUE(matches<g::param_stmt>("param N: i64"));
  EXPECT_TRUE(matches<g::param_stmt>("param alpha: f32 = 0.5"));
  EXPECT_FALSE(matches<g::param_stmt>("params N: i64"));
  EXPECT_TRUE(hard_error<g::param_stmt>("param N: int"));
  EXPECT_TRUE(matches<g::tensor_stmt>("input x: f32[M, N] = std.inputs.normal()"));
  EXPECT_TRUE(matches<g::tensor_stmt>("output s: f32[]"));
  EXPECT_TRUE(hard_error<g::tensor_stmt>("output y: f31[N]"));
  EXPECT_TRUE(hard_error<g::tensor_stmt>("output y f32[N]"));
  EXPECT_TRUE(
      matches<g::entry_stmt>("reference hip \"r.hip\" kernel r(x, y, N) grid (ceil_div(N, 16), M) "
                             "block (16, 16) shared 1KiB"));
  EXPECT_TRUE(matches<g::entry_stmt>("baseline hip \"b.hip\" launcher"));
  EXPECT_TRUE(matches<g::entry_stmt>("reference torch \"ref.py\" module Model(N, 2)"));
  EXPECT_TRUE(matches<g::entry_stmt>("baseline triton \"k.py\" function launch"));
  EXPECT_TRUE(hard_error<g::entry_stmt>("reference cuda \"r.cu\" kernel r(x)"));
  EXPECT_TRUE(hard_error<g::entry_stmt>("reference hip r.hip kernel r(x)"));
  EXPECT_TRUE(hard_error<g::entry_stmt>("reference hip \"r.hip\" kernal r(x)"));
}

TEST(GrammarTask, Shapes) {
  EXPECT_TRUE(matches<g::shapes_stmt>("shapes visible { N in [1, 2]; M in range(1, 9, 2) }"));
  EXPECT_TRUE(matches<g::shapes_stmt>(
      "shapes visible {\n  K in pow2(10..14)\n  L = K * 2\n  where K <= L\n}"));
  EXPECT_TRUE(matches<g::shapes_stmt>("shapes heldout = std.heldout.perturb(visible, count: 8)"));
  EXPECT_TRUE(hard_error<g::shapes_stmt>("shapes visibel { N in [1] }"));
  EXPECT_TRUE(hard_error<g::shapes_stmt>("shapes visible { N: [1] }"));
  EXPECT_TRUE(hard_error<g::shapes_stmt>("shapes visible { N in }"));
}

TEST(GrammarDeclarations, TopLevel) {
  EXPECT_TRUE(matches<g::import_decl>("import std.inputs as inp"));
  EXPECT_TRUE(hard_error<g::import_decl>("import 42"));
  EXPECT_TRUE(matches<g::const_decl>("const BLOCK = 256"));
  EXPECT_TRUE(hard_error<g::const_decl>("const BLOCK 256"));
  EXPECT_TRUE(matches<g::preset_decl>("tolerance f32_strict { atol 1e-5  rtol 1e-5 }"));
  EXPECT_TRUE(
      matches<g::callable_decl>("distribution normal(mean: f64 = 0, std: f64 = 1) builtin"));
  EXPECT_TRUE(
      matches<g::callable_decl>("agent a(model: string = \"m\",\n        timeout: duration = 1h) "
                                "{\n  command \"x\", \"{model}\"\n}"));
  EXPECT_TRUE(hard_error<g::callable_decl>("generator g(count i64) builtin"));
  EXPECT_TRUE(matches<g::plan_decl>("plan p {\n  tasks \"a\", \"b\"\n  device auto\n}"));
  EXPECT_TRUE(hard_error<g::plan_decl>("plan p {\n  42\n}"));
  EXPECT_TRUE(matches<g::file>("\n// only a comment\n"));
  EXPECT_TRUE(hard_error<g::file>("tsak t {}"));
}

TEST(GrammarIssue16, UnsignedDtypes) {
  EXPECT_TRUE(matches<g::tensor_stmt>("input h: u32[B] = std.inputs.integers(hi: 9)"));
  EXPECT_TRUE(matches<g::tensor_stmt>("output k: u64[N]"));
  EXPECT_TRUE(hard_error<g::tensor_stmt>("output k: u16[N]"));
}

TEST(GrammarIssue16, InfAndNanAreLiterals) {
  EXPECT_TRUE(matches<g::float_word>("inf"));
  EXPECT_TRUE(matches<g::float_word>("nan"));
  EXPECT_FALSE(matches<g::float_word>("info"));  // a name that starts like one stays a name
  EXPECT_FALSE(matches<g::float_word>("nan_ok"));
  EXPECT_TRUE(matches<g::expr>("-inf"));
  EXPECT_TRUE(matches<g::expr>("std.inputs.constant(value: -inf)"));
  EXPECT_TRUE(matches<g::name_ref>("infinity"));
}

TEST(GrammarIssue16, ListTypedParameters) {
  EXPECT_TRUE(matches<g::callable_decl>(
      "distribution categorical(weights: [f64], values: [f64] = []) builtin"));
  EXPECT_TRUE(matches<g::callable_decl>(
      "distribution mixture(components: [distribution], weights: [f64] = []) builtin"));
  EXPECT_TRUE(hard_error<g::callable_decl>("distribution d(w: [f64) builtin"));
  EXPECT_TRUE(
      matches<g::expr>("mixture(components: [normal(), constant(value: 0)], "
                       "weights: [0.9, 0.1])"));
}

}  // namespace
