// The worker protocol: the engine and a kta-worker exchange JSON messages over a
// SOCK_SEQPACKET socket pair (one message per request or reply; buffer memory travels as memfd
// descriptors attached to "map" requests, never through the socket). These functions convert
// the device types to and from JSON and move messages with their descriptors.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

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
json to_json(const LaunchResult& r);
LaunchResult launch_result_from_json(const json& j);
// A timed reply: {"status", "seconds", "sm_clock_mhz", "mem_clock_mhz"}.
json to_json(const TimedResult& t);
TimedResult timed_result_from_json(const json& j);
json to_json(const DeviceInfo& i);
DeviceInfo device_info_from_json(const json& j);

// Sends one message (with an optional descriptor). False when the peer is gone.
bool send_message(int socket, const json& message, int fd = -1);
// Receives one message; sets *fd when one came along. Empty when the peer is gone.
std::optional<json> receive_message(int socket, int* fd = nullptr);

// A SOCK_SEQPACKET message must fit the socket buffer (net.core.wmem_max, ~208 KiB by default);
// long texts (compiler logs, printf output) are cut to kMaxTextBytes before sending.
constexpr size_t kMaxMessageBytes = 200 * 1024;
constexpr size_t kMaxTextBytes = 64 * 1024;
std::string clip(const std::string& text);

}  // namespace kta::engine::remote
