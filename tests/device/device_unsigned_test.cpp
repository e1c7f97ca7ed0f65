// u32 and u64 tensors on the cpu device (issue 16): a kernel over `unsigned int*` and
// `unsigned long long*` binds to them, and a mismatch spells the kernel's type as written.
#include "engine/device/cpu/cpu_device.h"
#include "engine/device/cpu/kernel_signature.h"
#include "lang/model.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

class Unsigned : public ::testing::Test {
 protected:
  cpu::CpuDevice dev{device_test_options()};
  // The pointee the engine declares for a tensor of `d` (engine/execute/bindings.cpp).
  static std::string c_type(model::DType d) { return model::hip_c_type(d); }
};

uint64_t fnv(uint32_t k) {
  uint64_t h = 1469598103934665603ull;
  for (int b = 0; b < 4; ++b) {
    h ^= (k >> (8 * b)) & 0xffu;
    h *= 1099511628211ull;
  }
  return h;
}

TEST_F(Unsigned, UnsignedLongLongBindsToU64) {
  const int n = 1000;
  std::vector<uint32_t> keys(n);
  for (int i = 0; i < n; ++i) keys[i] = 4000000000u + static_cast<uint32_t>(i) * 7919u;
  Buffer bk = upload(dev, keys), bh = dev.alloc(n * 8), bc = upload(dev, std::vector<uint64_t>{0});
  std::string u32 = c_type(model::DType::u32), u64 = c_type(model::DType::u64);
  uint64_t m = compile_kernel(dev, "u64_hash.hip", "fnv_hash",
                              {ptr({}, u32), ptr({}, u64), ptr({}, u64), i32(0)});
  auto r = dev.launch(m, {ptr(bk, u32), ptr(bh, u64), ptr(bc, u64), i32(n)}, geometry1(4, 256));
  ASSERT_TRUE(r.ok) << r.error;
  auto hashes = download<uint64_t>(dev, bh, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(hashes[i], fnv(keys[i])) << i;
  EXPECT_EQ(download<uint64_t>(dev, bc, 1)[0], uint64_t(n));
}

TEST_F(Unsigned, MismatchSpellsUnsignedLongLong) {
  CompileRequest req;
  req.source = kernel_path("u64_hash.hip");
  req.entry = "fnv_hash";
  std::string u32 = c_type(model::DType::u32), u64 = c_type(model::DType::u64);
  req.signature = {ptr({}, u32), ptr({}, c_type(model::DType::i64)), ptr({}, u64), i32(0)};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: parameter 2 'hashes' is unsigned long long*, the task passes "
            "int64_t*");
  req.signature = {ptr({}, c_type(model::DType::f32)), ptr({}, u64), ptr({}, u64), i32(0)};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: parameter 1 'keys' is const unsigned int*, the task passes "
            "float*");
  req.signature = {ptr({}, u32), ptr({}, u64), ptr({}, u64), i64(0)};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: parameter 4 'n' is int, the task passes i64");
}

TEST(UnsignedSignature, LongLongIsSpelledAsWritten) {
  using namespace engine::cpu;
  auto p = parse_signature("*u64ll,i64ll,*const u64,u32");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(c_spelling(p[0]), "unsigned long long*");
  EXPECT_EQ(c_spelling(p[1]), "long long");
  EXPECT_EQ(c_spelling(p[2]), "const unsigned long*");
  EXPECT_EQ(p[0].code, "u64");  // the same type as unsigned long for binding
  KernelArg u64;
  u64.type = ArgType::u64;
  EXPECT_EQ(check_signature(p, {ptr({}, "uint64_t"), i64(0), ptr({}, "uint64_t"), u64}, {}, "k"),
            "signature mismatch: parameter 4 is unsigned int, the task passes u64");
  KernelArg u32;
  u32.type = ArgType::u32;
  EXPECT_EQ(check_signature(p, {ptr({}, "uint64_t"), i64(0), ptr({}, "uint64_t"), u32}, {}, "k"),
            "");
}

}  // namespace
}  // namespace kta::test
