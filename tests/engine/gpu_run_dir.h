// The fixture the GPU tests of kta eval share: skipped without a GPU for the hip device (saying
// why), a fresh folder per test, kept when the test failed.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>

#include "engine/device/hip/hip_plugin_loader.h"

namespace kta::test {

class GpuRunDir : public ::testing::Test {
 protected:
  explicit GpuRunDir(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    std::string why;
    if (kta::engine::hip::hip_device_count(&why, KTA_HIP_PLUGIN_FILE) <= 0)
      GTEST_SKIP() << "no GPU for the hip device: " << why;
    dir =
        std::filesystem::temp_directory_path() / (prefix_ + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir.empty() && !HasFailure()) std::filesystem::remove_all(dir, ec);
  }

  std::filesystem::path dir;

 private:
  std::string prefix_;
};

}  // namespace kta::test
