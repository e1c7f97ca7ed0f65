// Token usage from golden sample streams of each CLI (tests/agents/streams/).
#include "engine/agents/usage.h"

#include <gtest/gtest.h>

#include <sstream>

namespace {

namespace fs = std::filesystem;
using kta::engine::parse_usage_file;

fs::path stream(const std::string& name) {
  return fs::path(KTA_AGENTS_TEST_DIR) / "streams" / name;
}

TEST(Usage, ClaudeStreamJson) {
  auto u = parse_usage_file(stream("claude.jsonl"));
  EXPECT_EQ(u.input_tokens, 5123 + 40960 + 1024);  // cache reads and writes included
  EXPECT_EQ(u.output_tokens, 2048);
  EXPECT_EQ(u.cache_read_tokens, 40960);
  EXPECT_EQ(u.cache_write_tokens, 1024);
  ASSERT_TRUE(u.cost_usd);
  EXPECT_DOUBLE_EQ(*u.cost_usd, 0.4321);
}

TEST(Usage, CodexTurnsAreSummed) {
  auto u = parse_usage_file(stream("codex.jsonl"));
  EXPECT_EQ(u.input_tokens, 3000);
  EXPECT_EQ(u.cache_read_tokens, 1500);
  EXPECT_EQ(u.output_tokens, 700);
  EXPECT_FALSE(u.cost_usd);
}

TEST(Usage, CodexTokenCountTotals) {
  auto u = parse_usage_file(stream("codex_token_count.jsonl"));
  EXPECT_EQ(u.input_tokens, 9000);
  EXPECT_EQ(u.output_tokens, 1200);
}

TEST(Usage, CursorResult) {
  auto u = parse_usage_file(stream("cursor.jsonl"));
  EXPECT_EQ(u.input_tokens, 800);
  EXPECT_EQ(u.output_tokens, 90);
  EXPECT_FALSE(u.cost_usd);
}

// Streams the real CLIs wrote against the scripted model server (model_server/): three turns of
// 1000+k input and 100+k output tokens for `improve`, four of 1000 / 100 for `failing` (a write
// without a read, a command that exits 3, a read of a missing file, a final answer).
struct RealStream {
  const char* file;
  int64_t input, output, tool_calls, failed;
};

TEST(Usage, RealStreamsOfTheThreeClis) {
  for (RealStream s : {RealStream{"real_claude_improve.jsonl", 3006, 306, 2, 0},
                       RealStream{"real_codex_improve.jsonl", 3006, 306, 2, 0},
                       RealStream{"real_gemini_improve.jsonl", 3006, 306, 2, 0},
                       // Claude Code refuses a write before a read; Codex and Gemini CLI write.
                       // Gemini CLI reports a command's exit status to the model only.
                       RealStream{"real_claude_failing.jsonl", 4000, 400, 3, 3},
                       RealStream{"real_codex_failing.jsonl", 4000, 400, 3, 2},
                       RealStream{"real_gemini_failing.jsonl", 4000, 400, 3, 1}}) {
    SCOPED_TRACE(s.file);
    auto u = parse_usage_file(stream(s.file));
    EXPECT_EQ(u.input_tokens, s.input);
    EXPECT_EQ(u.output_tokens, s.output);
    EXPECT_EQ(u.tool_calls, s.tool_calls);
    EXPECT_EQ(u.failed_tool_calls, s.failed);
    EXPECT_EQ(u.cost_usd.has_value(), std::string(s.file).find("claude") != std::string::npos);
  }
}

TEST(Usage, AnthropicInputCountsTheCacheOpenAIsAlreadyDoes) {
  auto claude = parse_usage_file(stream("claude.jsonl"));
  EXPECT_EQ(claude.input_tokens, 5123 + 40960 + 1024);
  auto codex = parse_usage_file(stream("codex.jsonl"));
  EXPECT_EQ(codex.input_tokens, 3000);
  EXPECT_EQ(codex.cache_read_tokens, 1500);
}

TEST(Usage, CostFromThePricesOnlyWhereTheCliGaveNone) {
  kta::engine::AgentPrices p{1.25, 10.0, 0.125};
  auto codex = parse_usage_file(stream("codex.jsonl"));  // 3000 in (1500 cached), 700 out
  kta::engine::price_usage(codex, p);
  ASSERT_TRUE(codex.cost_usd);
  EXPECT_TRUE(codex.cost_computed);
  EXPECT_DOUBLE_EQ(*codex.cost_usd, (1500 * 1.25 + 1500 * 0.125 + 700 * 10.0) / 1e6);
  auto claude = parse_usage_file(stream("claude.jsonl"));
  kta::engine::price_usage(claude, p);
  EXPECT_DOUBLE_EQ(*claude.cost_usd, 0.4321);  // the CLI's own
  EXPECT_FALSE(claude.cost_computed);
  kta::engine::AgentUsage none;
  kta::engine::price_usage(none, p);  // no tokens: no cost, never 0
  EXPECT_FALSE(none.cost_usd);
  auto unpriced = parse_usage_file(stream("codex.jsonl"));
  kta::engine::price_usage(unpriced, {});
  EXPECT_FALSE(unpriced.cost_usd);
}

TEST(Usage, UnknownIsUnsetNotZero) {
  std::istringstream s("plain text\n{\"type\":\"assistant\"}\nnot json {\n");
  auto u = kta::engine::parse_usage(s);
  EXPECT_FALSE(u.any());
  EXPECT_TRUE(kta::engine::Json(u).empty());
  EXPECT_FALSE(parse_usage_file(stream("no-such-file")).any());
}

}  // namespace
