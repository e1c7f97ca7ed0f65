// The hip device's compile cache: an entry reads back as stored; a tampered entry, or a valid one
// copied under another key, fails authentication by name and is removed (the kernel is then
// compiled again).
#include "engine/device/hip/rtc/code_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace {

namespace fs = std::filesystem;
using namespace kta::engine::hip;

class CodeCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-code-cache-" + std::to_string(std::random_device{}()));
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir;
};

TEST_F(CodeCache, AnEntryReadsBack) {
  cache_store(dir, "k1", {"cubin", "_Z4vaddPf", "warning: x", "CODE"});
  std::string note;
  auto hit = cache_load(dir, "k1", &note);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->code, "CODE");
  EXPECT_EQ(hit->lowered_name, "_Z4vaddPf");
  EXPECT_TRUE(note.empty()) << note;
}

TEST_F(CodeCache, ATamperedEntryFailsAuthenticationByName) {
  cache_store(dir, "k1", {"cubin", "_Z4vaddPf", "", "CODE"});
  std::string bytes = read(dir / "k1.code");
  bytes.replace(bytes.find("CODE"), 4, "EVIL");
  std::ofstream(dir / "k1.code", std::ios::binary | std::ios::trunc) << bytes;
  std::string note;
  EXPECT_FALSE(cache_load(dir, "k1", &note));
  EXPECT_EQ(note, "compile cache entry k1.code fails authentication; recompiled");
  EXPECT_FALSE(fs::exists(dir / "k1.code"));
}

TEST_F(CodeCache, AValidEntryUnderAnotherKeyFailsAuthentication) {
  cache_store(dir, "k1", {"cubin", "_Z4slowPf", "", "SLOW"});
  fs::copy_file(dir / "k1.code", dir / "k2.code");
  std::string note;
  EXPECT_FALSE(cache_load(dir, "k2", &note));
  EXPECT_EQ(note, "compile cache entry k2.code fails authentication; recompiled");
  EXPECT_TRUE(cache_load(dir, "k1"));
}

// The folder digest that stands in for a source's folder in compile keys.
TEST_F(CodeCache, AFoldersDigestIsItsContentNotItsPath) {
  for (const char* copy : {"a", "b"}) {
    fs::create_directories(dir / copy / "sub" / "deeper" / "deepest");
    std::ofstream(dir / copy / "k.hip") << "kernel";
    std::ofstream(dir / copy / "sub" / "h.h") << "header";
    std::ofstream(dir / copy / "sub" / "deeper" / "i.h") << "two levels down";
    // Three levels down: not in a worker's staged copy, so not in the digest.
    std::ofstream(dir / copy / "sub" / "deeper" / "deepest" / "x.h") << copy;
  }
  const std::string a = source_folder_digest(dir / "a");
  EXPECT_EQ(a.size(), 64u) << a;
  EXPECT_EQ(a, source_folder_digest(dir / "b"));
  std::ofstream(dir / "b" / "sub" / "deeper" / "i.h", std::ios::app) << "!";
  EXPECT_NE(source_folder_digest(dir / "b"), a);
  fs::rename(dir / "a" / "sub" / "h.h", dir / "a" / "sub" / "g.h");
  EXPECT_NE(source_folder_digest(dir / "a"), a);
}

TEST_F(CodeCache, AFolderTooLargeToDigestHasNoDigest) {
  fs::create_directories(dir);
  std::ofstream(dir / "k.hip") << "kernel";
  fs::resize_file(dir / "k.hip", (size_t(64) << 20) + 1);  // sparse: nothing is written
  EXPECT_EQ(source_folder_digest(dir), "");
}

TEST_F(CodeCache, AnEntryEncodesAndDecodes) {
  CachedCode c{"so", "kta_launch", "log", std::string("\0ELF\n", 5)};
  auto back = decode_code(encode_code(c));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->format, "so");
  EXPECT_EQ(back->lowered_name, "kta_launch");
  EXPECT_EQ(back->log, "log");
  EXPECT_EQ(back->code, c.code);
  EXPECT_FALSE(decode_code("not an entry"));
}

}  // namespace
