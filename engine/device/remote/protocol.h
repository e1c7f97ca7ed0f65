// The worker protocol: the engine and a kta-worker exchange JSON messages over an ipc::Channel
// (one message per request or reply; buffer memory travels as memfd descriptors attached to
// "map" requests, never through the socket). These functions convert the device types to and
// from JSON; long texts in them are clipped (ipc::clip) to fit one message.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::engine::remote {

using nlohmann::json;

json to_json(const DeviceOptions& o);
DeviceOptions options_from_json(const json& j);
json to_json(const CompileRequest& r);
CompileRequest compile_request_from_json(const json& j);
json to_json(const CompileResult& r);
CompileResult compile_result_from_json(const json& j);
json to_json(const std::vector<KernelArg>& args);
std::vector<KernelArg> kernel_args_from_json(const json& j);
json to_json(const LaunchConfig& c);
LaunchConfig launch_config_from_json(const json& j);
json to_json(const LauncherArgs& a);
LauncherArgs launcher_args_from_json(const json& j);
json to_json(const Invocation& i);
Invocation invocation_from_json(const json& j);
json to_json(const LaunchResult& r);
LaunchResult launch_result_from_json(const json& j);
// A timed reply: {"status", "seconds", "wall_seconds", "sm_clock_mhz", "mem_clock_mhz"}.
json to_json(const TimedResult& t);
TimedResult timed_result_from_json(const json& j);
json to_json(const DeviceInfo& i);
DeviceInfo device_info_from_json(const json& j);

}  // namespace kta::engine::remote
