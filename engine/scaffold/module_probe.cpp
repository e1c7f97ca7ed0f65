#include "engine/scaffold/module_probe.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <fstream>
#include <map>
#include <sstream>

#include "engine/ipc/command.h"

namespace kta::engine {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

model::DType dtype_of(const std::string& name) {
  static const std::map<std::string, model::DType> names = {
      {"f16", model::DType::f16}, {"bf16", model::DType::bf16}, {"f32", model::DType::f32},
      {"f64", model::DType::f64}, {"i8", model::DType::i8},     {"i32", model::DType::i32},
      {"i64", model::DType::i64}, {"u8", model::DType::u8},     {"bool", model::DType::boolean},
      {"u32", model::DType::u32}, {"u64", model::DType::u64}};
  auto it = names.find(name);
  if (it == names.end())
    throw std::runtime_error("the probe named an unknown dtype '" + name + "'");
  return it->second;
}

ProbedTensor tensor_of(const json& j) {
  ProbedTensor t;
  t.dtype = dtype_of(j.at("dtype").get<std::string>());
  t.shape = j.at("shape").get<std::vector<int64_t>>();
  for (auto [key, field] : {std::pair{"min", &t.min}, std::pair{"max", &t.max},
                            std::pair{"mean", &t.mean}, std::pair{"std", &t.std}})
    if (j.contains(key) && j[key].is_number()) *field = j[key].get<double>();
  return t;
}

ProbedInitArg init_arg_of(const json& j) {
  ProbedInitArg a;
  std::string kind = j.at("kind").get<std::string>();
  if (kind == "float") {
    a.kind = ProbedInitArg::Kind::real;
    a.f = j.at("value").get<double>();
  } else if (kind == "bool") {
    a.kind = ProbedInitArg::Kind::boolean;
    a.i = j.at("value").get<bool>() ? 1 : 0;
  } else {
    a.i = j.at("value").get<int64_t>();
  }
  return a;
}

// A folder of its own for the probe's result file, removed with it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "kta-new-XXXXXX").string();
    if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

ModuleProbe failed(std::string why) {
  ModuleProbe p;
  p.error = std::move(why);
  return p;
}

}  // namespace

void from_json(const json& j, ModuleProbe& p) {
  p = {};
  if (!j.value("ok", false)) {
    p.error = j.value("error", std::string("the probe failed without a reason"));
    p.traceback = j.value("traceback", std::string());
    return;
  }
  p.torch_version = j.value("torch", std::string());
  p.class_name = j.value("class", std::string("Model"));
  p.forward_params = j.value("forward_params", std::vector<std::string>{});
  auto init_params = j.value("init_params", std::vector<std::string>{});
  for (const json& a : j.at("init_args")) p.init_args.push_back(init_arg_of(a));
  for (size_t i = 0; i < p.init_args.size() && i < init_params.size(); ++i)
    p.init_args[i].name = init_params[i];
  for (const json& t : j.at("inputs")) p.inputs.push_back(tensor_of(t));
  for (const json& t : j.at("outputs")) p.outputs.push_back(tensor_of(t));
  for (const json& q : j.value("parameters", json::array()))
    p.parameters.push_back(
        {q.at("name").get<std::string>(), q.at("shape").get<std::vector<int64_t>>()});
}

ModuleProbe probe_module(const fs::path& module_file, const ProbeOptions& options) {
  PythonChoice python = find_python(options.search, {"torch"});
  if (python.path.empty()) return failed(python.error);
  fs::path script = find_runner_file("kta_probe_module.py", options.configured_runner);
  if (script.empty())
    return failed(
        "the probe script kta_probe_module.py was not found (it lives beside "
        "kta_runner.py; set KTA_RUNNER)");
  TempDir tmp;
  if (tmp.path().empty()) return failed("cannot make a temporary folder for the probe");
  fs::path out = tmp.path() / "probe.json";
  ipc::CommandOptions co;
  co.timeout_s = options.timeout_s;
  ipc::CommandResult r =
      ipc::run_command({python.path, script.string(), module_file.string(), out.string()}, co);
  if (r.timed_out)
    return failed(fmt::format("running the module took longer than {} s", options.timeout_s));
  std::ifstream in(out);
  if (!r.ok() || !in) {
    std::string why = r.started ? fmt::format("exit status {}", r.exit_code) : r.error;
    if (r.signal != 0) why = fmt::format("killed by signal {}", r.signal);
    ModuleProbe p = failed("the module probe (" + python.path + ") failed: " + why);
    p.traceback = r.output;
    return p;
  }
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded()) return failed("the module probe wrote a result that is not JSON");
  ModuleProbe p;
  try {
    from_json(j, p);
  } catch (const std::exception& e) {
    return failed(std::string("the module probe's result is malformed: ") + e.what());
  }
  return p;
}

}  // namespace kta::engine
