// lang/hash.h, kta's one home for hashing: the exact values are pinned, because task content
// hashes, plan and step keys, drawn inputs and tensor digests in stored runs depend on them.
#include "lang/hash.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace kta::lang {
namespace {

std::string hex(uint64_t v) { return hex64(v); }

TEST(Hash, Fnv1a64) {
  EXPECT_EQ(hex(fnv1a64("")), "cbf29ce484222325");
  EXPECT_EQ(hex(fnv1a64("abc")), "e71fa2190541574b");
  EXPECT_EQ(hex(fnv1a64("def", fnv1a64("abc"))), "d80bda3fbe244a0a");
  EXPECT_EQ(fnv1a64("abcdef"), fnv1a64("def", fnv1a64("abc")));
}

TEST(Hash, Hex64PadsToSixteenDigits) {
  EXPECT_EQ(hex64(0), "0000000000000000");
  EXPECT_EQ(hex64(0xabcull), "0000000000000abc");
  EXPECT_EQ(hex64(~0ull), "ffffffffffffffff");
}

TEST(Hash, ContentHasher) {
  EXPECT_EQ(ContentHasher().hex(), "cbf29ce48422232584222325cbf29ce4");
  EXPECT_EQ(ContentHasher().add("abc").hex(), "e71fa2190541574bc71321e7b797f396");
  EXPECT_EQ(ContentHasher().add(int64_t{-2}).hex(), "fc1a35225397861cf4ed1c159c98f3e6");
  EXPECT_EQ(ContentHasher().field("task", "saxpy").field("n", "4096").hex(),
            "cb17b8151c8438b60d2264a32e7762ac");
  EXPECT_NE(ContentHasher().field("ab", "c").hex(), ContentHasher().field("a", "bc").hex());
}

TEST(Hash, ContentHasherOfFiles) {
  const std::filesystem::path f = std::filesystem::path(::testing::TempDir()) / "kta_hash_test.txt";
  std::ofstream(f, std::ios::binary) << "kernel bytes\n";
  EXPECT_EQ(ContentHasher().file(f).hex(), "8dc22b9c1ac2039ef1a12411fa8fc1ee");
  EXPECT_EQ(hash_file(f), "8dc22b9c1ac2039ef1a12411fa8fc1ee");
  EXPECT_EQ(ContentHasher().file("/nonexistent/dir/x.hip").hex(),
            "dfc8ce12ca3e6f6c0c43d181d100acc6");
  EXPECT_EQ(hash_file("/nonexistent/x"), "missing");
}

TEST(Hash, HashBytesOverEveryTailLength) {
  std::string s;
  for (int i = 0; i < 77; ++i) s.push_back(static_cast<char>(i * 37 + 11));
  const std::pair<size_t, const char*> expected[] = {
      {0, "2cf1f8390674dfeb"},  {1, "bd8c0ed3383a6f80"},  {7, "0328602582383a41"},
      {8, "c24eaf0748a9d276"},  {31, "e866cf625707e3be"}, {32, "53e07d12bb950327"},
      {33, "4faaab1d5d4bd7b9"}, {77, "3e2befa9df094cf2"},
  };
  for (const auto& [n, digest] : expected) EXPECT_EQ(hex(hash_bytes(s.data(), n)), digest) << n;
  EXPECT_EQ(hex(hash_bytes(s.data(), 77, 0x6b7461u)), "22e88e9d127b4b97");
  EXPECT_EQ(hex(hash_string("saxpy", 0x6b7461u)), "9271466bc5a3865b");
}

TEST(Hash, HashMix) {
  EXPECT_EQ(hex(hash_mix(1, 2)), "a3efbcce2e044f84");
  EXPECT_EQ(hex(hash_mix(0, 0)), "0000000000000000");
  EXPECT_NE(hash_mix(hash_mix(0, 1), 2), hash_mix(hash_mix(0, 2), 1));
}

}  // namespace
}  // namespace kta::lang
