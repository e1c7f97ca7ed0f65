// Settings from an environment: the one place kta reads its variables.
#include "engine/settings/settings.h"

#include <gtest/gtest.h>

namespace kta::engine {
namespace {

TEST(Settings, CacheFolderPrecedence) {
  EXPECT_EQ(
      settings_from({{"KTA_CACHE_DIR", "/c"}, {"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}}).cache_dir,
      "/c");
  EXPECT_EQ(settings_from({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}}).cache_dir, "/x/kta");
  EXPECT_EQ(settings_from({{"HOME", "/h"}}).cache_dir, "/h/.cache/kta");
  EXPECT_EQ(settings_from({{"TMPDIR", "/t"}}).cache_dir, "/t/kta-cache");
  EXPECT_EQ(settings_from({}).cache_dir, "/tmp/kta-cache");
  // A variable set to "" counts as unset.
  EXPECT_EQ(settings_from({{"KTA_CACHE_DIR", ""}, {"HOME", "/h"}}).cache_dir, "/h/.cache/kta");
}

TEST(Settings, ModulePathSplitsOnColonsAndSkipsEmptyParts) {
  Settings s = settings_from({{"KTA_PATH", "/a::/b/c:"}});
  EXPECT_EQ(s.module_path, (std::vector<std::filesystem::path>{"/a", "/b/c"}));
  EXPECT_TRUE(settings_from({}).module_path.empty());
}

TEST(Settings, EachVariableLandsInItsField) {
  Settings s = settings_from({{"HOME", "/h"},
                              {"KTA_STDLIB", "/std"},
                              {"KTA_PROMPTS_DIR", "/p"},
                              {"KTA_PYTHON", "/usr/bin/python3"},
                              {"KTA_RUNNER", "/r.py"},
                              {"PATH", "/bin"},
                              {"KTA_WORKER", "/w"},
                              {"KTA_HIP_PLUGIN", "/k.so"},
                              {"KTA_CXX", "g++-13"},
                              {"KTA_CPU_RUNTIME_LIB", "/rt.so"},
                              {"KTA_CPU_RUNTIME_INCLUDE", "/rt"},
                              {"KTA_CUDA_INCLUDE_DIR", "/cuda"},
                              {"KTA_HIP_LAUNCHER_COMPILER", "nvcc"},
                              {"KTA_HIP_INCLUDE_DIR", "/hip"},
                              {"KTA_LAUNCH_ABI_INCLUDE_DIR", "/abi"}});
  EXPECT_EQ(s.home, "/h");
  EXPECT_EQ(s.stdlib_dir, "/std");
  EXPECT_EQ(s.prompts_dir, "/p");
  EXPECT_EQ(s.python, "/usr/bin/python3");
  EXPECT_EQ(s.runner_script, "/r.py");
  EXPECT_EQ(s.path, "/bin");
  EXPECT_EQ(s.worker, "/w");
  EXPECT_EQ(s.hip_plugin, "/k.so");
  EXPECT_EQ(s.cxx, "g++-13");
  EXPECT_EQ(s.cpu_runtime_lib, "/rt.so");
  EXPECT_EQ(s.cpu_runtime_include, "/rt");
  EXPECT_EQ(s.cuda_include_dir, "/cuda");
  EXPECT_EQ(s.hip_launcher_compiler, "nvcc");
  EXPECT_EQ(s.hip_include_dir, "/hip");
  EXPECT_EQ(s.launch_abi_include_dir, "/abi");
  EXPECT_EQ(s.environment.size(), 15u);  // kept whole for the children that inherit it
}

TEST(Settings, AgentGraceIsSecondsOrANamedError) {
  EXPECT_EQ(settings_from({{"KTA_AGENT_GRACE", "0.5"}}).agent_grace_s, 0.5);
  EXPECT_FALSE(settings_from({}).agent_grace_s);
  std::string error;
  Settings s = settings_from({{"KTA_AGENT_GRACE", "soon"}}, &error);
  EXPECT_FALSE(s.agent_grace_s);
  EXPECT_EQ(error, "$KTA_AGENT_GRACE='soon' is not a number of seconds");
}

TEST(Settings, NoColorTurnsColorOff) {
  EXPECT_TRUE(settings_from({}).color);
  EXPECT_FALSE(settings_from({{"NO_COLOR", ""}}).color);  // set at all, even empty
  EXPECT_FALSE(settings_from({{"NO_COLOR", "1"}}).color);
}

TEST(Settings, ProcessEnvironmentIsAMap) {
  Environment env = process_environment();
  EXPECT_FALSE(env.empty());
  for (const auto& [k, v] : env) EXPECT_EQ(k.find('='), std::string::npos) << k;
}

}  // namespace
}  // namespace kta::engine
