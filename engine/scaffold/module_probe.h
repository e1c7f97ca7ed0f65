// ModuleProbe: what `kta new torch2hip NAME --from model.py` learns of a PyTorch module by running
// it once on the CPU (engine/device/python/kta_probe_module.py): the tensors get_inputs() makes,
// what forward returns, the init args, and the parameters the module creates. A module that
// cannot be probed is a probe with `error` (a named reason) and the Python traceback.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/device/python/find_python.h"
#include "lang/model.h"

namespace kta::engine {

struct ProbedTensor {
  model::DType dtype = model::DType::f32;
  std::vector<int64_t> shape;
  // Of the values get_inputs() drew (inputs only, not bool ones).
  std::optional<double> min, max, mean, std;
};

struct ProbedInitArg {
  enum class Kind { integer, real, boolean } kind = Kind::integer;
  int64_t i = 0;     // integer, and boolean as 0 or 1
  double f = 0;      // real
  std::string name;  // the parameter of Model.__init__ it binds ("" when unknown)
};

struct ProbedParameter {
  std::string name;  // "linear.weight"
  std::vector<int64_t> shape;
};

struct ModuleProbe {
  std::string error;      // why the module could not be probed; empty when it was
  std::string traceback;  // Python's, for errors raised by the module's code
  std::string torch_version;
  std::string class_name;                   // "Model"
  std::vector<std::string> forward_params;  // forward's parameter names, self left out
  std::vector<ProbedInitArg> init_args;
  std::vector<ProbedTensor> inputs, outputs;
  std::vector<ProbedParameter> parameters;  // parameters and buffers Model creates
  bool ok() const { return error.empty(); }
};

void from_json(const nlohmann::json& j, ModuleProbe& p);

struct ProbeOptions {
  PythonSearch search;                      // $KTA_PYTHON, $PATH
  std::filesystem::path configured_runner;  // $KTA_RUNNER: the probe script lives beside it
  double timeout_s = 300;                   // import, get_inputs() and one forward on the CPU
};

// Runs the probe on `module_file` in a python3 that can import torch. Never throws for the
// module's failures or a missing interpreter: they come back as the probe's error.
ModuleProbe probe_module(const std::filesystem::path& module_file, const ProbeOptions& options);

}  // namespace kta::engine
