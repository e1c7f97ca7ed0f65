// A fake of the GPU management libraries the hip device's ClockReader opens (NVML and rocm-smi,
// C ABI as their headers declare it), scripted by the test through kta_fake_smi_mode (the test
// holds the library open, so the reader's dlopen finds the same instance):
//   "ok"         one GPU at PCI 0000:17:00.0: SM 1980 MHz, memory 2619 MHz (NVML; graphics 1111
//                MHz, so a wrong clock type shows), rsmi_frequencies_t in the ROCm 6 layout
//   "rsmi5"      as "ok", rsmi_frequencies_t in the ROCm 5 layout
//   "init_fail"  nvmlInit_v2 / rsmi_init fail, as the CUDA toolkit's stub library or a machine
//                without a driver do
// Counters let a test see whether the reader still calls in after giving up.
#include <cstdint>
#include <cstring>

extern "C" {
__attribute__((visibility("default"))) const char* kta_fake_smi_mode = "ok";
}

namespace {

bool is(const char* m) { return std::strcmp(kta_fake_smi_mode, m) == 0; }
int g_device_token = 0;

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int kta_fake_smi_clock_calls = 0;
__attribute__((visibility("default"))) int kta_fake_smi_shutdowns = 0;

// ---- NVML ----
__attribute__((visibility("default"))) int nvmlInit_v2() { return is("init_fail") ? 9 : 0; }
__attribute__((visibility("default"))) int nvmlShutdown() {
  ++kta_fake_smi_shutdowns;
  return 0;
}
__attribute__((visibility("default"))) const char* nvmlErrorString(int rc) {
  return rc == 9 ? "Driver Not Loaded" : rc == 6 ? "Not Found" : "Unknown Error";
}
__attribute__((visibility("default"))) int nvmlDeviceGetHandleByPciBusId_v2(const char* bus,
                                                                            void** device) {
  if (std::strcmp(bus, "0000:17:00.0") != 0) return 6;
  *device = &g_device_token;
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetClockInfo(void* device, int type,
                                                                  unsigned* mhz) {
  ++kta_fake_smi_clock_calls;
  if (device != &g_device_token) return 2;
  static const unsigned kByType[] = {1111, 1980, 2619, 1500};  // graphics, SM, memory, video
  if (type < 0 || type > 3) return 2;
  *mhz = kByType[type];
  return 0;
}
__attribute__((visibility("default"))) int nvmlDeviceGetCurrentClocksEventReasons(
    void*, unsigned long long* reasons) {
  *reasons = 0x4;  // applications clocks setting
  return 0;
}

// ---- rocm-smi ----
__attribute__((visibility("default"))) int rsmi_init(uint64_t) { return is("init_fail") ? 8 : 0; }
__attribute__((visibility("default"))) int rsmi_shut_down() {
  ++kta_fake_smi_shutdowns;
  return 0;
}
__attribute__((visibility("default"))) int rsmi_num_monitor_devices(uint32_t* n) {
  *n = 2;
  return 0;
}
__attribute__((visibility("default"))) int rsmi_dev_pci_id_get(uint32_t i, uint64_t* bdfid) {
  *bdfid = i == 0 ? (uint64_t(0x03) << 8) : (uint64_t(0x17) << 8);  // domain 0, device 0
  return 0;
}
__attribute__((visibility("default"))) int rsmi_dev_gpu_clk_freq_get(uint32_t i, int type,
                                                                     void* out) {
  ++kta_fake_smi_clock_calls;
  if (i != 1) return 2;
  // System clock: three levels, the second current; memory: one level (the edge case of the
  // layout detection). Other clock types (DF = 1 would be a wrong MEM value) are unsupported.
  uint64_t sys[] = {500000000, 1700000000, 2100000000}, mem[] = {1300000000};
  const uint64_t* f = type == 0 ? sys : type == 4 ? mem : nullptr;
  uint32_t n = type == 0 ? 3 : 1, current = type == 0 ? 1 : 0;
  if (f == nullptr) return 2;
  auto* b = static_cast<unsigned char*>(out);
  bool old_layout = is("rsmi5");
  size_t at = 0;
  if (!old_layout) {
    b[0] = 1;  // has_deep_sleep
    at = 4;
  }
  std::memcpy(b + at, &n, 4);
  std::memcpy(b + at + 4, &current, 4);
  std::memcpy(b + (old_layout ? 8 : 16), f, n * sizeof(uint64_t));
  return 0;
}

}  // extern "C"
