// Launcher mode's build on the hip device (engine/device/hip/plugin/launcher_build.cpp, compiled
// in here: `nvcc -x cu` on NVIDIA, hipcc on AMD; no GPU needed). The key names the code wherever
// the source's folder lies (a worker builds from a staged copy, at another path each run; the
// engine keeps the code across runs under this key), and covers the headers beside the source.
#include "engine/device/hip/plugin/launcher_build.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace kta::engine::hip {
namespace {
namespace fs = std::filesystem;

#if defined(__HIP_PLATFORM_AMD__)
constexpr const char* kArch = "gfx90a";
#else
constexpr const char* kArch = "sm_90";
#endif

class LauncherBuildTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("kta-launcher-build-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    options.cache_dir = root / "cache";
  }
  void TearDown() override { fs::remove_all(root); }

  // A copy of launcher_saxpy.hip in root/folder, with `header` beside it as scale.h.
  CompileRequest source_in(const std::string& folder, const std::string& header) {
    fs::create_directories(root / folder);
    fs::copy_file(fs::path(KTA_HIP_TEST_KERNELS) / "launcher_saxpy.hip",
                  root / folder / "launcher.hip");
    std::ofstream(root / folder / "scale.h") << header;
    CompileRequest r;
    r.source = root / folder / "launcher.hip";
    r.launcher = true;
    return r;
  }

  fs::path root;
  DeviceOptions options;
};

TEST_F(LauncherBuildTest, TheKeyNamesTheCodeWhereverItsFolderLies) {
  LauncherBuild a = build_launcher(source_in("a", "// v1\n"), kArch, options, /*key_only=*/true);
  LauncherBuild b = build_launcher(source_in("b", "// v1\n"), kArch, options, true);
  ASSERT_TRUE(a.result.ok) << a.result.error;
  ASSERT_TRUE(b.result.ok) << b.result.error;
  EXPECT_EQ(a.key.size(), 64u) << a.key;
  EXPECT_EQ(a.key, b.key);
  EXPECT_FALSE(fs::exists(options.cache_dir / "hip"));  // key_only builds nothing
  // Another file beside the source is another key.
  LauncherBuild c = build_launcher(source_in("c", "// v2\n"), kArch, options, true);
  EXPECT_NE(c.key, a.key);
}

TEST_F(LauncherBuildTest, ABuildIsKeyedAsTheKeyOnlyRequestSaid) {
  CompileRequest r = source_in("a", "// v1\n");
  LauncherBuild k = build_launcher(r, kArch, options, true);
  LauncherBuild built = build_launcher(r, kArch, options);
  ASSERT_TRUE(built.result.ok) << built.result.error << built.result.log;
  EXPECT_EQ(built.key, k.key);
  EXPECT_TRUE(fs::exists(built.library));
  EXPECT_FALSE(built.result.cache_hit);
  // The same source again, from another folder: this worker's cache has it.
  LauncherBuild again = build_launcher(source_in("b", "// v1\n"), kArch, options);
  EXPECT_TRUE(again.result.cache_hit);
  // A changed header beside it is not served the old library.
  std::ofstream(root / "b" / "scale.h", std::ios::trunc) << "// v2\n";
  r.source = root / "b" / "launcher.hip";
  LauncherBuild changed = build_launcher(r, kArch, options);
  EXPECT_FALSE(changed.result.cache_hit);
  EXPECT_NE(changed.key, built.key);
}

}  // namespace
}  // namespace kta::engine::hip
