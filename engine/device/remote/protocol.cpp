#include "engine/device/remote/protocol.h"

#include <stdexcept>

#include "engine/ipc/channel.h"

namespace kta::engine::remote {
namespace {

json dim_json(const Dim3& d) { return json::array({d.x, d.y, d.z}); }
Dim3 dim_from(const json& j) {
  return Dim3{j.at(0).get<uint32_t>(), j.at(1).get<uint32_t>(), j.at(2).get<uint32_t>()};
}

json to_json(const DeviceLocations& l) {
  return {{"cpu_runtime_lib", l.cpu_runtime_lib.string()},
          {"cpu_runtime_include", l.cpu_runtime_include.string()},
          {"hip_plugin", l.hip_plugin.string()},
          {"cuda_include_dir", l.cuda_include_dir.string()},
          {"hip_launcher_compiler", l.hip_launcher_compiler},
          {"hip_include_dir", l.hip_include_dir.string()},
          {"launch_abi_include_dir", l.launch_abi_include_dir.string()}};
}
DeviceLocations locations_from_json(const json& j) {
  DeviceLocations l;
  l.cpu_runtime_lib = j.at("cpu_runtime_lib").get<std::string>();
  l.cpu_runtime_include = j.at("cpu_runtime_include").get<std::string>();
  l.hip_plugin = j.at("hip_plugin").get<std::string>();
  l.cuda_include_dir = j.at("cuda_include_dir").get<std::string>();
  l.hip_launcher_compiler = j.at("hip_launcher_compiler").get<std::string>();
  l.hip_include_dir = j.at("hip_include_dir").get<std::string>();
  l.launch_abi_include_dir = j.at("launch_abi_include_dir").get<std::string>();
  return l;
}

}  // namespace

json to_json(const DeviceOptions& o) {
  return {{"threads", o.threads},
          {"warp_size", o.warp_size},
          {"shared_mem_limit", o.shared_mem_limit},
          {"max_threads_per_block", o.max_threads_per_block},
          {"cache_dir", o.cache_dir.string()},
          {"compiler", o.compiler},
          {"compile_timeout_s", o.compile_timeout_s},
          {"memory_limit", o.memory_limit},
          {"fiber_stack_bytes", o.fiber_stack_bytes},
          {"check_lanes", o.check_lanes},
          {"device", device_spec_name(o.device)},
          {"cpu_own_memory", o.cpu_own_memory},
          {"cpu_dram_read", o.cpu_dram_read},
          {"locations", to_json(o.locations)}};
}
DeviceOptions options_from_json(const json& j) {
  DeviceOptions o;
  o.threads = j.at("threads").get<unsigned>();
  o.warp_size = j.at("warp_size").get<int>();
  o.shared_mem_limit = j.at("shared_mem_limit").get<size_t>();
  o.max_threads_per_block = j.at("max_threads_per_block").get<int>();
  o.cache_dir = j.at("cache_dir").get<std::string>();
  o.compiler = j.at("compiler").get<std::string>();
  o.compile_timeout_s = j.at("compile_timeout_s").get<double>();
  o.memory_limit = j.at("memory_limit").get<size_t>();
  o.fiber_stack_bytes = j.at("fiber_stack_bytes").get<size_t>();
  o.check_lanes = j.value("check_lanes", false);
  o.device = resolve_device(j.value("device", std::string("cpu")));
  o.cpu_own_memory = j.value("cpu_own_memory", false);
  o.cpu_dram_read = j.value("cpu_dram_read", 0.0);
  o.locations = locations_from_json(j.at("locations"));
  return o;
}

namespace {
constexpr const char* kExchanges[] = {"none", "key", "build", "load"};
}  // namespace

// The code of an exchange travels as a descriptor beside the message (RemoteDevice, the worker).
json to_json(const CompileRequest& r) {
  return {{"source", r.source.string()},
          {"entry", r.entry},
          {"launcher", r.launcher},
          {"signature", to_json(r.signature)},
          {"sanitize", r.options.sanitize},
          {"warp_size", r.options.warp_size},
          {"defines", r.options.defines},
          {"extra_flags", r.options.extra_flags},
          {"exchange", kExchanges[static_cast<int>(r.exchange)]}};
}
CompileRequest compile_request_from_json(const json& j) {
  CompileRequest r;
  r.source = j.at("source").get<std::string>();
  r.entry = j.at("entry").get<std::string>();
  r.launcher = j.at("launcher").get<bool>();
  r.signature = kernel_args_from_json(j.at("signature"));
  r.options.sanitize = j.at("sanitize").get<bool>();
  r.options.warp_size = j.at("warp_size").get<int>();
  r.options.defines = j.at("defines").get<std::vector<std::string>>();
  r.options.extra_flags = j.at("extra_flags").get<std::vector<std::string>>();
  const std::string exchange = j.value("exchange", std::string("none"));
  for (int i = 0; i < 4; ++i)
    if (exchange == kExchanges[i]) r.exchange = static_cast<CodeExchange>(i);
  return r;
}

json to_json(const CompileResult& r) {
  return {{"ok", r.ok},
          {"error", r.error},
          {"log", ipc::clip(r.log)},
          {"module", r.module},
          {"seconds", r.seconds},
          {"cache_hit", r.cache_hit},
          {"code_key", r.code_key}};
}
CompileResult compile_result_from_json(const json& j) {
  CompileResult r;
  r.ok = j.at("ok").get<bool>();
  r.error = j.at("error").get<std::string>();
  r.log = j.at("log").get<std::string>();
  r.module = j.at("module").get<uint64_t>();
  r.seconds = j.at("seconds").get<double>();
  r.cache_hit = j.at("cache_hit").get<bool>();
  r.code_key = j.value("code_key", std::string());
  return r;
}

json to_json(const std::vector<KernelArg>& args) {
  json a = json::array();
  for (const KernelArg& k : args) {
    a.push_back({{"type", int(k.type)},
                 {"pointee", k.pointee},
                 {"buffer", k.buffer.id},
                 {"bytes", k.buffer.bytes},
                 {"bits", k.scalar.u}});
  }
  return a;
}
std::vector<KernelArg> kernel_args_from_json(const json& j) {
  std::vector<KernelArg> out;
  for (const json& e : j) {
    KernelArg k;
    int t = e.at("type").get<int>();
    if (t < 0 || t > int(ArgType::boolean)) throw std::invalid_argument("bad argument type");
    k.type = ArgType(t);
    k.pointee = e.at("pointee").get<std::string>();
    k.buffer = Buffer{e.at("buffer").get<uint64_t>(), e.at("bytes").get<size_t>()};
    k.scalar.u = e.at("bits").get<uint64_t>();
    out.push_back(k);
  }
  return out;
}

json to_json(const LaunchConfig& c) {
  return {{"grid", dim_json(c.grid)}, {"block", dim_json(c.block)}, {"shared", c.shared_bytes}};
}
LaunchConfig launch_config_from_json(const json& j) {
  LaunchConfig c;
  c.grid = dim_from(j.at("grid"));
  c.block = dim_from(j.at("block"));
  c.shared_bytes = j.at("shared").get<size_t>();
  return c;
}

json to_json(const LauncherArgs& a) {
  json t = json::array(), p = json::array();
  for (const TensorArg& x : a.tensors) {
    t.push_back({{"name", x.name},
                 {"buffer", x.buffer.id},
                 {"bytes", x.buffer.bytes},
                 {"dtype", x.dtype},
                 {"shape", x.shape}});
  }
  for (const ParamArg& x : a.params)
    p.push_back({{"name", x.name}, {"is_float", x.is_float}, {"i", x.i}, {"f", x.f}});
  return {{"tensors", t}, {"params", p}};
}
LauncherArgs launcher_args_from_json(const json& j) {
  LauncherArgs a;
  for (const json& x : j.at("tensors")) {
    a.tensors.push_back(
        TensorArg{x.at("name").get<std::string>(),
                  Buffer{x.at("buffer").get<uint64_t>(), x.at("bytes").get<size_t>()},
                  x.at("dtype").get<int32_t>(), x.at("shape").get<std::vector<int64_t>>()});
  }
  for (const json& x : j.at("params")) {
    a.params.push_back(ParamArg{x.at("name").get<std::string>(), x.at("is_float").get<bool>(),
                                x.at("i").get<int64_t>(), x.at("f").get<double>()});
  }
  return a;
}

json to_json(const Invocation& i) {
  if (const KernelLaunch* k = i.kernel())
    return {{"module", i.module}, {"args", to_json(k->args)}, {"config", to_json(k->config)}};
  return {{"module", i.module}, {"call", to_json(*i.call())}};
}
Invocation invocation_from_json(const json& j) {
  Invocation i;
  i.module = j.at("module").get<uint64_t>();
  if (j.contains("call")) {
    i.work = launcher_args_from_json(j.at("call"));
  } else {
    i.work =
        KernelLaunch{kernel_args_from_json(j.at("args")), launch_config_from_json(j.at("config"))};
  }
  return i;
}

json to_json(const LaunchResult& r) {
  return {{"ok", r.ok},
          {"error", ipc::clip(r.error)},
          {"output", ipc::clip(r.output)},
          {"device_restarted", r.device_restarted},
          {"context_lost", r.context_lost}};
}
LaunchResult launch_result_from_json(const json& j) {
  LaunchResult r;
  r.ok = j.at("ok").get<bool>();
  r.error = j.at("error").get<std::string>();
  r.output = j.at("output").get<std::string>();
  r.device_restarted = j.at("device_restarted").get<bool>();
  r.context_lost = j.value("context_lost", false);
  return r;
}

json to_json(const TimedResult& t) {
  return {{"status", to_json(t.status)},
          {"seconds", t.seconds},
          {"wall_seconds", t.wall_seconds},
          {"sm_clock_mhz", t.sm_clock_mhz},
          {"mem_clock_mhz", t.mem_clock_mhz}};
}
TimedResult timed_result_from_json(const json& j) {
  TimedResult t;
  t.status = launch_result_from_json(j.at("status"));
  t.seconds = j.at("seconds").get<double>();
  t.wall_seconds = j.value("wall_seconds", 0.0);
  t.sm_clock_mhz = j.at("sm_clock_mhz").get<double>();
  t.mem_clock_mhz = j.at("mem_clock_mhz").get<double>();
  return t;
}

json to_json(const DeviceInfo& i) {
  return {{"name", i.name},
          {"kind", static_cast<int>(i.kind)},
          {"warp_size", i.warp_size},
          {"l2_bytes", i.l2_bytes},
          {"shared_mem_per_block", i.shared_mem_per_block},
          {"max_threads_per_block", i.max_threads_per_block},
          {"timer", static_cast<int>(i.timer)},
          {"timer_resolution", i.timer_resolution},
          {"own_memory", i.own_memory},
          {"peak_bandwidth", i.peak_bandwidth},
          {"cache_bandwidth", i.cache_bandwidth},
          {"peak_flops", i.peak_flops},
          {"physics_margin", i.physics_margin},
          {"details", ipc::clip(i.details)}};
}
DeviceInfo device_info_from_json(const json& j) {
  DeviceInfo i;
  i.name = j.at("name").get<std::string>();
  i.kind = static_cast<DeviceKind>(j.at("kind").get<int>());
  i.warp_size = j.at("warp_size").get<int>();
  i.l2_bytes = j.at("l2_bytes").get<size_t>();
  i.shared_mem_per_block = j.at("shared_mem_per_block").get<size_t>();
  i.max_threads_per_block = j.at("max_threads_per_block").get<int>();
  i.timer = static_cast<DeviceTimer>(j.at("timer").get<int>());
  i.timer_resolution = j.at("timer_resolution").get<double>();
  i.own_memory = j.at("own_memory").get<bool>();
  i.peak_bandwidth = j.at("peak_bandwidth").get<double>();
  i.cache_bandwidth = j.at("cache_bandwidth").get<double>();
  i.peak_flops = j.at("peak_flops").get<double>();
  i.physics_margin = j.at("physics_margin").get<double>();
  i.details = j.value("details", std::string());
  return i;
}

}  // namespace kta::engine::remote
