// The hip device's clock reader against fake management libraries (tests/support/fake_gpu_smi.cpp)
// and against whatever this machine has: unreadable is a described outcome that costs nothing
// afterwards, readable reads the right clock types, and rocm-smi's two struct layouts decode.
#include "engine/device/hip/plugin/clock_reader.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace kta::test {
namespace {

using engine::hip::ClockReader;

// Holds the fake open (so its counters and script outlive a reader that closes it, and the
// reader's dlopen finds this instance) and sets its script.
class FakeSmi {
 public:
  explicit FakeSmi(const char* mode) {
    lib_ = dlopen(KTA_FAKE_SMI_FILE, RTLD_NOW | RTLD_LOCAL);
    if (lib_ != nullptr) *static_cast<const char**>(dlsym(lib_, "kta_fake_smi_mode")) = mode;
  }
  ~FakeSmi() {
    if (lib_ != nullptr) dlclose(lib_);
  }
  bool loaded() const { return lib_ != nullptr; }
  int counter(const char* name) const { return *static_cast<int*>(dlsym(lib_, name)); }

 private:
  void* lib_ = nullptr;
};

constexpr const char* kBus = "0000:17:00.0";

TEST(ClockReader, PlatformLibraryUnreadableForAnUnknownGpuSaysWhy) {
  // No GPU has this bus id: whether or not the library exists here, nothing is read.
  auto r = ClockReader::for_platform("0000:ff:1f.7");
  EXPECT_FALSE(r->readable());
  EXPECT_EQ(r->describe().rfind("not readable (", 0), 0u) << r->describe();
  auto s = r->read();
  EXPECT_EQ(s.sm_mhz, 0);
  EXPECT_EQ(s.mem_mhz, 0);
  EXPECT_FALSE(s.event_reasons.has_value());
}

TEST(ClockReader, MissingLibraryIsUnreadableByName) {
  // This machine has no NVML driver library (nor the test a path that exists).
  ClockReader r(ClockReader::Api::nvml, {"libkta-no-such-nvml.so.1"}, kBus);
  EXPECT_FALSE(r.readable());
  EXPECT_EQ(r.describe(), "not readable (cannot load libkta-no-such-nvml.so.1)");
  EXPECT_EQ(r.read().sm_mhz, 0);
  if (dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD) == nullptr &&
      dlopen("libnvidia-ml.so.1", RTLD_NOW) == nullptr) {
    // Without the driver's library the platform reader names it.
    auto p = ClockReader::for_platform(kBus);
#if !defined(__HIP_PLATFORM_AMD__)
    EXPECT_EQ(p->describe(), "not readable (cannot load libnvidia-ml.so.1)");
#endif
    EXPECT_FALSE(p->readable());
  }
}

TEST(ClockReader, FailingInitLikeTheToolkitStubIsUnreadableAndCostsNothingAfter) {
  FakeSmi fake("init_fail");
  ASSERT_TRUE(fake.loaded()) << dlerror();
  ClockReader r(ClockReader::Api::nvml, {KTA_FAKE_SMI_FILE}, kBus);
  EXPECT_FALSE(r.readable());
  EXPECT_EQ(r.describe(), "not readable (nvmlInit_v2 failed: Driver Not Loaded (9))");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(r.read().sm_mhz, 0);
  EXPECT_EQ(fake.counter("kta_fake_smi_clock_calls"), 0);
}

TEST(ClockReader, NvmlReadsSmAndMemoryClocksOfTheMatchingGpu) {
  FakeSmi fake("ok");
  ASSERT_TRUE(fake.loaded()) << dlerror();
  {
    ClockReader r(ClockReader::Api::nvml, {"libkta-no-such-nvml.so.1", KTA_FAKE_SMI_FILE}, kBus);
    ASSERT_TRUE(r.readable()) << r.describe();
    EXPECT_EQ(r.describe(), "readable via NVML");
    auto s = r.read();
    EXPECT_EQ(s.sm_mhz, 1980);   // NVML_CLOCK_SM, not graphics (1111)
    EXPECT_EQ(s.mem_mhz, 2619);  // NVML_CLOCK_MEM
    ASSERT_TRUE(s.event_reasons.has_value());
    EXPECT_EQ(*s.event_reasons, 0x4u);
  }
  EXPECT_EQ(fake.counter("kta_fake_smi_shutdowns"), 1);  // the reader shut NVML down
}

TEST(ClockReader, NvmlWithoutTheGpuIsUnreadableAndShutsDown) {
  FakeSmi fake("ok");
  ASSERT_TRUE(fake.loaded()) << dlerror();
  ClockReader r(ClockReader::Api::nvml, {KTA_FAKE_SMI_FILE}, "0000:65:00.0");
  EXPECT_EQ(r.describe(),
            "not readable (nvmlDeviceGetHandleByPciBusId_v2(0000:65:00.0) failed: Not Found (6))");
  EXPECT_EQ(fake.counter("kta_fake_smi_shutdowns"), 1);
  int calls = fake.counter("kta_fake_smi_clock_calls");
  EXPECT_EQ(r.read().sm_mhz, 0);
  EXPECT_EQ(fake.counter("kta_fake_smi_clock_calls"), calls);
}

TEST(ClockReader, RocmSmiBothLayoutsDecodeTheCurrentLevel) {
  for (const char* mode : {"ok", "rsmi5"}) {
    FakeSmi fake(mode);
    ASSERT_TRUE(fake.loaded()) << dlerror();
    ClockReader r(ClockReader::Api::rsmi, {KTA_FAKE_SMI_FILE}, kBus);
    ASSERT_TRUE(r.readable()) << mode << ": " << r.describe();
    EXPECT_EQ(r.describe(), "readable via rocm-smi");
    auto s = r.read();
    EXPECT_DOUBLE_EQ(s.sm_mhz, 1700) << mode;   // RSMI_CLK_TYPE_SYS, current level 1
    EXPECT_DOUBLE_EQ(s.mem_mhz, 1300) << mode;  // RSMI_CLK_TYPE_MEM, the only level
  }
}

TEST(ClockReader, RocmSmiFailingInitOrNoMatchingGpuIsUnreadable) {
  {
    FakeSmi fake("init_fail");
    ClockReader r(ClockReader::Api::rsmi, {KTA_FAKE_SMI_FILE}, kBus);
    EXPECT_EQ(r.describe(), "not readable (rsmi_init failed (8))");
  }
  FakeSmi fake("ok");
  ClockReader r(ClockReader::Api::rsmi, {KTA_FAKE_SMI_FILE}, "0000:65:00.0");
  EXPECT_EQ(r.describe(), "not readable (no rocm-smi device at PCI bus id 0000:65:00.0)");
  EXPECT_EQ(r.read().mem_mhz, 0);
}

TEST(ClockReader, DecodeRejectsBytesThatFitNoLayout) {
  unsigned char b[512] = {};
  EXPECT_EQ(engine::hip::decode_rsmi_current_mhz(b, sizeof b), 0);  // no levels
  uint32_t words[3] = {5, 7, 0};  // old layout, current index past the count
  std::memcpy(b, words, sizeof words);
  EXPECT_EQ(engine::hip::decode_rsmi_current_mhz(b, sizeof b), 0);
  uint32_t huge[2] = {1000, 0};  // more levels than any layout holds
  std::memcpy(b, huge, sizeof huge);
  EXPECT_EQ(engine::hip::decode_rsmi_current_mhz(b, sizeof b), 0);
}

}  // namespace
}  // namespace kta::test
