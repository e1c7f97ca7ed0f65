// Reads a GPU's current SM (graphics) and memory clocks through the platform's management
// library — NVML on NVIDIA, rocm-smi on AMD — opened with dlopen at run time, so the plugin links
// neither and starts where they are missing. A reader that cannot read says why once, at
// construction, and then costs nothing: read() returns zeros without calling anything.
// Free of HIP on purpose: tests compile it alone against fake libraries (tests/support).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kta::engine::hip {

struct ClockSample {
  double sm_mhz = 0;   // 0: not read
  double mem_mhz = 0;  // 0: not read
  // NVML's clocks event (throttle) reasons bit mask when the driver reports one.
  std::optional<uint64_t> event_reasons;
};

class ClockReader {
 public:
  enum class Api { nvml, rsmi };

  // The library of this build's HIP platform, for the GPU at `pci_bus_id` as
  // hipDeviceGetPCIBusId writes it ("0000:17:00.0"). Never throws.
  static std::unique_ptr<ClockReader> for_platform(const std::string& pci_bus_id);
  // Tries `libraries` (dlopen names or paths) in order and uses the first that loads.
  ClockReader(Api api, const std::vector<std::string>& libraries, const std::string& pci_bus_id);
  ~ClockReader();
  ClockReader(const ClockReader&) = delete;
  ClockReader& operator=(const ClockReader&) = delete;

  bool readable() const { return why_.empty(); }
  // "readable via NVML" | "not readable (libnvidia-ml.so.1 not found)"
  std::string describe() const;
  // The clocks now. All zero when unreadable or when this read failed.
  ClockSample read();

 private:
  struct Nvml;
  struct Rsmi;
  std::string open_nvml(const std::string& pci_bus_id);
  std::string open_rsmi(const std::string& pci_bus_id);
  ClockSample read_nvml();
  ClockSample read_rsmi();

  Api api_;
  void* lib_ = nullptr;
  std::string why_;  // empty when readable
  std::unique_ptr<Nvml> nvml_;
  std::unique_ptr<Rsmi> rsmi_;
};

// rsmi_frequencies_t changed layout (ROCm 6 added a leading `bool has_deep_sleep` and a 33rd
// slot); decodes either from the bytes rsmi_dev_gpu_clk_freq_get wrote into a zeroed buffer
// and returns the current frequency in MHz, 0 when the bytes fit neither layout.
double decode_rsmi_current_mhz(const unsigned char* bytes, size_t size);

}  // namespace kta::engine::hip
