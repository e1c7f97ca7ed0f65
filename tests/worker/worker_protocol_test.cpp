// The worker protocol's message framing and conversions, and the AddressSanitizer report reader.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "engine/device/remote/asan_report.h"
#include "engine/device/remote/device_settings.h"
#include "engine/device/remote/protocol.h"
#include "engine/ipc/channel.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

using namespace engine::remote;
using engine::ipc::receive_message;
using engine::ipc::send_message;

// The worker gets everything it knows of kta's configuration in its hello: the device it hosts
// and where that device's files and tools are.
TEST(Protocol, DeviceOptionsKeepTheirDeviceAndLocations) {
  engine::DeviceOptions o;
  o.device = {engine::DeviceKind::hip, 2};
  o.cache_dir = "/c";
  o.compiler = "g++-13";
  o.locations = {"/rt.so", "/rt", "/k.so", "/cuda", "nvcc-13", "/hip", "/abi"};
  o.environment = {{"KTA_SECRET", "x"}};
  o.cpu_dram_read = 12.5e9;
  o.check_lanes = true;
  nlohmann::json j = to_json(o);
  EXPECT_EQ(j.at("device"), "hip:2");
  engine::DeviceOptions back = options_from_json(nlohmann::json::parse(j.dump()));
  EXPECT_EQ(back.device, o.device);
  EXPECT_EQ(back.cache_dir, "/c");
  EXPECT_EQ(back.compiler, "g++-13");
  EXPECT_EQ(back.cpu_dram_read, 12.5e9);
  EXPECT_TRUE(back.check_lanes);
  const engine::DeviceLocations& l = back.locations;
  EXPECT_EQ(l.cpu_runtime_lib, "/rt.so");
  EXPECT_EQ(l.cpu_runtime_include, "/rt");
  EXPECT_EQ(l.hip_plugin, "/k.so");
  EXPECT_EQ(l.cuda_include_dir, "/cuda");
  EXPECT_EQ(l.hip_launcher_compiler, "nvcc-13");
  EXPECT_EQ(l.hip_include_dir, "/hip");
  EXPECT_EQ(l.launch_abi_include_dir, "/abi");
  // The engine's environment stays in the engine.
  EXPECT_FALSE(j.contains("environment"));
  EXPECT_TRUE(back.environment.empty());
}

// The one mapping from the environment's settings to the devices' options.
TEST(DeviceSettings, EveryVariableReachesItsOption) {
  engine::Settings s = engine::settings_from({{"KTA_CACHE_DIR", "/c"},
                                              {"KTA_CXX", "g++-13"},
                                              {"KTA_WORKER", "/w"},
                                              {"KTA_CPU_RUNTIME_LIB", "/rt.so"},
                                              {"KTA_CPU_RUNTIME_INCLUDE", "/rt"},
                                              {"KTA_HIP_PLUGIN", "/k.so"},
                                              {"KTA_CUDA_INCLUDE_DIR", "/cuda"},
                                              {"KTA_HIP_LAUNCHER_COMPILER", "nvcc-13"},
                                              {"KTA_HIP_INCLUDE_DIR", "/hip"},
                                              {"KTA_LAUNCH_ABI_INCLUDE_DIR", "/abi"},
                                              {"CUDA_VISIBLE_DEVICES", "1"}});
  engine::DeviceOptions o = engine::device_options(s);
  EXPECT_EQ(o.cache_dir, "/c");
  EXPECT_EQ(o.compiler, "g++-13");
  EXPECT_EQ(o.worker, "/w");
  EXPECT_EQ(o.locations.cpu_runtime_lib, "/rt.so");
  EXPECT_EQ(o.locations.cpu_runtime_include, "/rt");
  EXPECT_EQ(o.locations.hip_plugin, "/k.so");
  EXPECT_EQ(o.locations.cuda_include_dir, "/cuda");
  EXPECT_EQ(o.locations.hip_launcher_compiler, "nvcc-13");
  EXPECT_EQ(o.locations.hip_include_dir, "/hip");
  EXPECT_EQ(o.locations.launch_abi_include_dir, "/abi");
  EXPECT_EQ(o.environment.at("CUDA_VISIBLE_DEVICES"), "1");
  // Unset variables leave the build's defaults.
  engine::DeviceOptions none = engine::device_options(engine::settings_from({}));
  EXPECT_TRUE(none.worker.empty());
  EXPECT_TRUE(none.compiler.empty());
  EXPECT_TRUE(none.locations.hip_plugin.empty());
}

TEST(Protocol, RoundTripsRequestsWithDescriptors) {
  int sv[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  ASSERT_TRUE(send_message(sv[0], {{"op", "map"}, {"id", 3}}, fds[0]));
  int got = -1;
  auto m = receive_message(sv[1], &got);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ((*m)["op"], "map");
  EXPECT_GE(got, 0);
  EXPECT_NE(got, fds[0]);
  ASSERT_EQ(write(fds[1], "z", 1), 1);
  char c = 0;
  EXPECT_EQ(read(got, &c, 1), 1);
  EXPECT_EQ(c, 'z');
  close(got);
  close(fds[0]);
  close(fds[1]);
  close(sv[0]);
  EXPECT_FALSE(receive_message(sv[1]).has_value());  // peer gone
  close(sv[1]);
}

TEST(Protocol, ConversionsKeepEveryField) {
  std::vector<engine::KernelArg> args = {ptr(engine::Buffer{4, 64}, "__half"), i64(-5), f32(0.25)};
  auto back = kernel_args_from_json(to_json(args));
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[0].pointee, "__half");
  EXPECT_EQ(back[0].buffer.id, 4u);
  EXPECT_EQ(back[1].scalar.i, -5);
  EXPECT_EQ(back[2].scalar.f, 0.25);
  engine::LaunchConfig c = geometry(engine::Dim3{1, 2, 3}, engine::Dim3{4, 5, 6}, 99);
  auto c2 = launch_config_from_json(to_json(c));
  EXPECT_EQ(c2.grid.z, 3u);
  EXPECT_EQ(c2.block.y, 5u);
  EXPECT_EQ(c2.shared_bytes, 99u);
  EXPECT_THROW(kernel_args_from_json(nlohmann::json::parse(R"([{"type": 99}])")), std::exception);
  engine::LaunchResult r;
  r.ok = false;
  r.output = std::string(100000, 'x');
  auto r2 = launch_result_from_json(to_json(r));
  EXPECT_LT(r2.output.size(), 70000u);  // clipped to fit one message
  EXPECT_NE(r2.output.find("more bytes]"), std::string::npos);
}

TEST(Protocol, TimedResultKeepsSecondsAndClocks) {
  engine::TimedResult t;
  t.status.ok = false;
  t.status.error = "kernel 'k' failed";
  t.seconds = 1.5e-6;
  t.sm_clock_mhz = 1980;
  t.mem_clock_mhz = 2619;
  auto back = timed_result_from_json(nlohmann::json::parse(to_json(t).dump()));
  EXPECT_FALSE(back.status.ok);
  EXPECT_EQ(back.status.error, "kernel 'k' failed");
  EXPECT_EQ(back.seconds, 1.5e-6);
  EXPECT_EQ(back.sm_clock_mhz, 1980);
  EXPECT_EQ(back.mem_clock_mhz, 2619);
  // A reply without clocks is a protocol mismatch, not a silent 0.
  auto j = to_json(t);
  j.erase("sm_clock_mhz");
  EXPECT_THROW(timed_result_from_json(j), std::exception);
}

TEST(AsanReport, NamesKindAccessAndUserLine) {
  std::string report =
      "=================================================================\n"
      "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60b000000130 at pc 0x7f "
      "sp 0x7f\n"
      "READ of size 4 at 0x60b000000130 thread T1\n"
      "    #0 0x7f1 in float kta_rt::warp_shuffle<float>(float, unsigned int) "
      "/src/engine/runtime/hip/hip_runtime.h:88\n"
      "    #1 0x7f2 in oob_read(float const*, float*, int) /cache/oob_read.hip:7\n"
      "    #2 0x7f3 in kta_rt::loop_block /src/engine/runtime/kta/cpu_launch.h:40\n";
  EXPECT_EQ(summarize_asan_report(report),
            "out-of-bounds read at oob_read.hip:7 (heap-buffer-overflow, 4 bytes)");
  EXPECT_EQ(summarize_asan_report(
                "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x1)\n"
                "==1==The signal is caused by a WRITE memory access.\n"
                "    #0 0x7f in k(float*) /x/k.hip:3:5\n"),
            "invalid memory write at k.hip:3 (SEGV)");
  EXPECT_EQ(summarize_asan_report("Segmentation fault\n"), "");
}

}  // namespace
}  // namespace kta::test
