// CacheKey: the key file is made once with mode 0600 and read back the same; tags verify only
// for the same key, name and bytes; a key others can read is refused.
#include "engine/ipc/cache_key.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <random>

namespace {

namespace fs = std::filesystem;
using kta::engine::ipc::CacheKey;

class CacheKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("kta-cache-key-" + std::to_string(std::random_device{}()));
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path dir;
};

TEST_F(CacheKeyTest, MadeOnceWithMode0600AndReadBack) {
  std::string error;
  auto a = CacheKey::open(dir, &error);
  ASSERT_TRUE(a) << error;
  struct stat st {};
  ASSERT_EQ(stat((dir / CacheKey::kFileName).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto b = CacheKey::open(dir, &error);
  ASSERT_TRUE(b) << error;
  std::string t = a->tag("entry.bin", "bytes");
  EXPECT_EQ(t.size(), CacheKey::kTagBytes);
  EXPECT_TRUE(b->verify("entry.bin", "bytes", t));
}

TEST_F(CacheKeyTest, ATagVerifiesOnlyItsKeyNameAndBytes) {
  CacheKey k = CacheKey::from_bytes(std::string(32, 'k'));
  CacheKey other = CacheKey::from_bytes(std::string(32, 'o'));
  std::string t = k.tag("a.bin", "outputs");
  EXPECT_TRUE(k.verify("a.bin", "outputs", t));
  EXPECT_FALSE(k.verify("a.bin", "outputz", t));
  EXPECT_FALSE(k.verify("b.bin", "outputs", t));  // a valid entry copied under another name
  EXPECT_FALSE(other.verify("a.bin", "outputs", t));
  EXPECT_FALSE(k.verify("a.bin", "outputs", ""));
  // The name's length is part of the tag: ("ab", "c") is not ("a", "bc").
  EXPECT_NE(k.tag("ab", "c"), k.tag("a", "bc"));
}

TEST_F(CacheKeyTest, AKeyOthersCanReadIsRefused) {
  std::string error;
  ASSERT_TRUE(CacheKey::open(dir, &error)) << error;
  fs::permissions(dir / CacheKey::kFileName, fs::perms::group_read, fs::perm_options::add);
  EXPECT_FALSE(CacheKey::open(dir, &error));
  EXPECT_NE(error.find("mode must be 0600"), std::string::npos) << error;
}

}  // namespace
