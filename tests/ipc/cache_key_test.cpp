// CacheKey: the key file is made once with mode 0600 and read back the same; tags verify only
// for the same key, name and bytes; a key others can read is refused.
#include "engine/ipc/cache_key.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
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

// Tagged entries: what store_tagged wrote reads back; anything else under the name (changed bytes,
// a cut tag, another entry's file) is rejected by name and removed.
TEST_F(CacheKeyTest, ATaggedEntryReadsBackAndAnyOtherIsRejectedAndRemoved) {
  using kta::engine::ipc::load_tagged;
  using kta::engine::ipc::store_tagged;
  EXPECT_FALSE(load_tagged(dir, "a.code").bytes);  // a miss
  EXPECT_TRUE(load_tagged(dir, "a.code").rejected.empty());
  ASSERT_TRUE(store_tagged(dir, "a.code", "payload"));
  auto hit = load_tagged(dir, "a.code");
  ASSERT_TRUE(hit.bytes);
  EXPECT_EQ(*hit.bytes, "payload");

  std::string file;
  ASSERT_TRUE(kta::engine::ipc::read_whole_file(dir / "a.code", &file));
  for (const std::string& bad : {std::string("PAYLOAD") + file.substr(7),  // changed bytes
                                 file.substr(0, file.size() - 1),          // a cut tag
                                 std::string("short")}) {
    std::ofstream(dir / "a.code", std::ios::binary | std::ios::trunc) << bad;
    auto e = load_tagged(dir, "a.code");
    EXPECT_FALSE(e.bytes);
    EXPECT_EQ(e.rejected, "fails authentication");
    EXPECT_FALSE(fs::exists(dir / "a.code"));
  }
  ASSERT_TRUE(store_tagged(dir, "b.code", "payload"));
  fs::copy_file(dir / "b.code", dir / "a.code");
  EXPECT_EQ(load_tagged(dir, "a.code").rejected, "fails authentication");
}

// A file's tag, streamed in 1 MiB pieces, is the tag of its bytes; a changed, truncated or
// missing file does not verify; read_whole_file reads back every byte.
TEST_F(CacheKeyTest, AFileTagIsTheTagOfItsBytes) {
  CacheKey k = CacheKey::from_bytes(std::string(32, 'k'));
  fs::create_directories(dir);
  std::string bytes;
  for (size_t i = 0; i < (size_t(3) << 20) + 12345; ++i) bytes += char(i * 131 % 251);
  const fs::path file = dir / "module.so";
  std::ofstream(file, std::ios::binary) << bytes;
  std::string t = k.tag_file("module.so", file);
  EXPECT_EQ(t, k.tag("module.so", bytes));
  EXPECT_TRUE(k.verify_file("module.so", file, t));
  EXPECT_FALSE(k.verify_file("other.so", file, t));
  std::string back;
  ASSERT_TRUE(kta::engine::ipc::read_whole_file(file, &back));
  EXPECT_EQ(back, bytes);
  bytes[(size_t(2) << 20) + 7] ^= 1;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  EXPECT_FALSE(k.verify_file("module.so", file, t));
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, 100);
  EXPECT_FALSE(k.verify_file("module.so", file, t));
  EXPECT_EQ(k.tag_file("module.so", dir / "missing.so"), "");
  EXPECT_FALSE(k.verify_file("module.so", dir / "missing.so", t));
  EXPECT_FALSE(kta::engine::ipc::read_whole_file(dir / "missing.so", &back));
  std::ofstream(file, std::ios::binary | std::ios::trunc);
  ASSERT_TRUE(kta::engine::ipc::read_whole_file(file, &back));
  EXPECT_EQ(back, "");
}

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(kta::engine::ipc::sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(kta::engine::ipc::sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

}  // namespace
