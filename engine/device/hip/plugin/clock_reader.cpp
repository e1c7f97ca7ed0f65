#include "engine/device/hip/plugin/clock_reader.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>

namespace kta::engine::hip {
namespace {

// The few NVML declarations used (nvml.h is not installed where kta builds). Values from nvml.h:
// nvmlReturn_t NVML_SUCCESS = 0; nvmlClockType_t NVML_CLOCK_GRAPHICS = 0, NVML_CLOCK_SM = 1,
// NVML_CLOCK_MEM = 2. A C enum argument is passed as an int.
using NvmlDevice = void*;
constexpr int kNvmlSuccess = 0;
constexpr int kNvmlClockSm = 1;
constexpr int kNvmlClockMem = 2;

// rocm_smi.h: rsmi_status_t RSMI_STATUS_SUCCESS = 0; rsmi_clk_type_t RSMI_CLK_TYPE_SYS = 0,
// RSMI_CLK_TYPE_MEM = 4 (SYS, DF, DCEF, SOC, MEM since ROCm 3).
constexpr int kRsmiSuccess = 0;
constexpr int kRsmiClkSys = 0;
constexpr int kRsmiClkMem = 4;
// Larger than rsmi_frequencies_t in every layout (at most 16 + 33 * 8 bytes).
constexpr size_t kRsmiFrequenciesBytes = 512;

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

template <typename F>
bool resolve(void* lib, const char* name, F* fn) {
  *fn = reinterpret_cast<F>(dlsym(lib, name));
  return *fn != nullptr;
}

uint32_t load_u32(const unsigned char* b, size_t at) {
  uint32_t v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}

}  // namespace

struct ClockReader::Nvml {
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*by_bus_id)(const char*, NvmlDevice*) = nullptr;
  int (*clock)(NvmlDevice, int, unsigned*) = nullptr;
  int (*reasons)(NvmlDevice, unsigned long long*) = nullptr;  // optional
  const char* (*error_string)(int) = nullptr;                 // optional
  NvmlDevice device = nullptr;
  bool initialized = false;

  std::string error(const std::string& what, int rc) const {
    const char* text = error_string ? error_string(rc) : nullptr;
    return what + " failed: " + (text ? text : "error") + " (" + std::to_string(rc) + ")";
  }
};

struct ClockReader::Rsmi {
  int (*init)(uint64_t) = nullptr;
  int (*shut_down)() = nullptr;
  int (*num_devices)(uint32_t*) = nullptr;
  int (*pci_id)(uint32_t, uint64_t*) = nullptr;
  int (*clock)(uint32_t, int, void*) = nullptr;
  uint32_t index = 0;
  bool initialized = false;

  double current_mhz(int type) const {
    unsigned char bytes[kRsmiFrequenciesBytes] = {};
    if (clock(index, type, bytes) != kRsmiSuccess) return 0;
    return decode_rsmi_current_mhz(bytes, sizeof bytes);
  }
};

std::unique_ptr<ClockReader> ClockReader::for_platform(const std::string& pci_bus_id) {
#if defined(__HIP_PLATFORM_AMD__)
  return std::make_unique<ClockReader>(
      Api::rsmi,
      std::vector<std::string>{"librocm_smi64.so.5", "librocm_smi64.so",
                               "/opt/rocm/lib/librocm_smi64.so"},
      pci_bus_id);
#else
  // Only the driver's versioned name: the CUDA toolkit's stub (stubs/libnvidia-ml.so) is for
  // linking and reports nothing real.
  return std::make_unique<ClockReader>(Api::nvml, std::vector<std::string>{"libnvidia-ml.so.1"},
                                       pci_bus_id);
#endif
}

ClockReader::ClockReader(Api api, const std::vector<std::string>& libraries,
                         const std::string& pci_bus_id)
    : api_(api) {
  for (const std::string& name : libraries) {
    lib_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib_ != nullptr) break;
  }
  if (lib_ == nullptr) {
    why_ = "cannot load " + join(libraries);
    return;
  }
  if (pci_bus_id.empty()) {
    why_ = "PCI bus id of the GPU unknown";
  } else {
    why_ = api_ == Api::nvml ? open_nvml(pci_bus_id) : open_rsmi(pci_bus_id);
  }
  if (!why_.empty()) {
    // Unreadable for good: release everything now so later reads cost nothing.
    if (nvml_ && nvml_->initialized) nvml_->shutdown();
    if (rsmi_ && rsmi_->initialized) rsmi_->shut_down();
    nvml_.reset();
    rsmi_.reset();
    dlclose(lib_);
    lib_ = nullptr;
  }
}

ClockReader::~ClockReader() {
  if (nvml_ && nvml_->initialized) nvml_->shutdown();
  if (rsmi_ && rsmi_->initialized) rsmi_->shut_down();
  if (lib_ != nullptr) dlclose(lib_);
}

std::string ClockReader::open_nvml(const std::string& pci_bus_id) {
  nvml_ = std::make_unique<Nvml>();
  Nvml& n = *nvml_;
  if (!resolve(lib_, "nvmlInit_v2", &n.init)) return "NVML lacks nvmlInit_v2";
  if (!resolve(lib_, "nvmlShutdown", &n.shutdown)) return "NVML lacks nvmlShutdown";
  if (!resolve(lib_, "nvmlDeviceGetHandleByPciBusId_v2", &n.by_bus_id))
    return "NVML lacks nvmlDeviceGetHandleByPciBusId_v2";
  if (!resolve(lib_, "nvmlDeviceGetClockInfo", &n.clock))
    return "NVML lacks nvmlDeviceGetClockInfo";
  resolve(lib_, "nvmlErrorString", &n.error_string);
  // Drivers before R535 name the event reasons "throttle reasons".
  if (!resolve(lib_, "nvmlDeviceGetCurrentClocksEventReasons", &n.reasons))
    resolve(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons", &n.reasons);
  // The toolkit's stub library fails here (no driver behind it), as does a machine without one.
  int rc = n.init();
  if (rc != kNvmlSuccess) return n.error("nvmlInit_v2", rc);
  n.initialized = true;
  rc = n.by_bus_id(pci_bus_id.c_str(), &n.device);
  if (rc != kNvmlSuccess)
    return n.error("nvmlDeviceGetHandleByPciBusId_v2(" + pci_bus_id + ")", rc);
  unsigned mhz = 0;
  rc = n.clock(n.device, kNvmlClockSm, &mhz);
  if (rc != kNvmlSuccess) return n.error("nvmlDeviceGetClockInfo(SM)", rc);
  if (mhz == 0) return "NVML reports an SM clock of 0 MHz";
  return "";
}

std::string ClockReader::open_rsmi(const std::string& pci_bus_id) {
  rsmi_ = std::make_unique<Rsmi>();
  Rsmi& r = *rsmi_;
  if (!resolve(lib_, "rsmi_init", &r.init) || !resolve(lib_, "rsmi_shut_down", &r.shut_down) ||
      !resolve(lib_, "rsmi_num_monitor_devices", &r.num_devices) ||
      !resolve(lib_, "rsmi_dev_pci_id_get", &r.pci_id) ||
      !resolve(lib_, "rsmi_dev_gpu_clk_freq_get", &r.clock))
    return "rocm-smi lacks a needed function";
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  if (std::sscanf(pci_bus_id.c_str(), "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4)
    return "unparsable PCI bus id '" + pci_bus_id + "'";
  int rc = r.init(0);
  if (rc != kRsmiSuccess) return "rsmi_init failed (" + std::to_string(rc) + ")";
  r.initialized = true;
  uint32_t count = 0;
  if (r.num_devices(&count) != kRsmiSuccess) count = 0;
  bool found = false;
  for (uint32_t i = 0; i < count && !found; ++i) {
    uint64_t id = 0;
    if (r.pci_id(i, &id) != kRsmiSuccess) continue;
    // BDFID: domain in bits 63..32, bus 15..8, device 7..3; the function bits may carry a
    // partition id instead, so they are not compared.
    found = (id >> 32) == domain && ((id >> 8) & 0xff) == bus && ((id >> 3) & 0x1f) == device;
    if (found) r.index = i;
  }
  if (!found) return "no rocm-smi device at PCI bus id " + pci_bus_id;
  if (r.current_mhz(kRsmiClkSys) <= 0) return "rocm-smi reports no current system clock";
  return "";
}

std::string ClockReader::describe() const {
  if (!readable()) return "not readable (" + why_ + ")";
  return api_ == Api::nvml ? "readable via NVML" : "readable via rocm-smi";
}

ClockSample ClockReader::read() {
  if (!readable()) return {};
  return api_ == Api::nvml ? read_nvml() : read_rsmi();
}

ClockSample ClockReader::read_nvml() {
  ClockSample s;
  unsigned mhz = 0;
  if (nvml_->clock(nvml_->device, kNvmlClockSm, &mhz) == kNvmlSuccess) s.sm_mhz = mhz;
  mhz = 0;
  if (nvml_->clock(nvml_->device, kNvmlClockMem, &mhz) == kNvmlSuccess) s.mem_mhz = mhz;
  unsigned long long reasons = 0;
  if (nvml_->reasons && nvml_->reasons(nvml_->device, &reasons) == kNvmlSuccess)
    s.event_reasons = reasons;
  return s;
}

ClockSample ClockReader::read_rsmi() {
  ClockSample s;
  s.sm_mhz = rsmi_->current_mhz(kRsmiClkSys);
  s.mem_mhz = rsmi_->current_mhz(kRsmiClkMem);
  return s;
}

double decode_rsmi_current_mhz(const unsigned char* bytes, size_t size) {
  if (size < 16) return 0;
  // ROCm 5: {uint32 num_supported; uint32 current; uint64 frequency[32]}.
  // ROCm 6+: {bool has_deep_sleep; uint32 num_supported; uint32 current; uint64 frequency[33]}.
  // The first word tells them apart: a count of 2 or more is the old layout; 0 or 1 is the new
  // bool (its padding stays zero in our zeroed buffer), except an old count of 1, whose current
  // index after it must then be 0, where the new layout has a count of at least 1.
  uint32_t first = load_u32(bytes, 0);
  bool old_layout = first >= 2 || (first == 1 && load_u32(bytes, 4) == 0);
  size_t count_at = old_layout ? 0 : 4, freq_at = old_layout ? 8 : 16;
  uint32_t slots = old_layout ? 32 : 33;
  uint32_t count = load_u32(bytes, count_at), current = load_u32(bytes, count_at + 4);
  if (count == 0 || count > slots || current >= count) return 0;
  if (freq_at + 8 * (size_t(current) + 1) > size) return 0;
  uint64_t hz;
  std::memcpy(&hz, bytes + freq_at + 8 * size_t(current), sizeof hz);
  return double(hz) * 1e-6;
}

}  // namespace kta::engine::hip
