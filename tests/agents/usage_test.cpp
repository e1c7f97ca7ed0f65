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
  EXPECT_EQ(u.input_tokens, 5123);
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

TEST(Usage, UnknownIsUnsetNotZero) {
  std::istringstream s("plain text\n{\"type\":\"assistant\"}\nnot json {\n");
  auto u = kta::engine::parse_usage(s);
  EXPECT_FALSE(u.any());
  EXPECT_TRUE(kta::engine::Json(u).empty());
  EXPECT_FALSE(parse_usage_file(stream("no-such-file")).any());
}

}  // namespace
